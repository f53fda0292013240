package rediscache

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// DebugSleep blocks the Redis server at addr for d (DEBUG SLEEP), for tests
// of a slow Redis.
func DebugSleep(addr string, d time.Duration) error {
	c := redis.NewClient(&redis.Options{Addr: addr, ReadTimeout: d + 5*time.Second})
	defer c.Close()
	return c.Do(context.Background(), "DEBUG", "SLEEP", d.Seconds()).Err()
}
