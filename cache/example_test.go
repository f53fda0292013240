package cache_test

import (
	"context"
	"fmt"
	"sync"

	"github.com/sitetxt/sitetxt/cache"
	"github.com/sitetxt/sitetxt/robots"
)

// mapCache is a Cache on a map: any store with Get and Put will do.
type mapCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (c *mapCache) Get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v, ok
}

func (c *mapCache) Put(key string, value []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key] = value
}

var _ cache.Cache = (*mapCache)(nil)

// A crawler keeps robots.txt responses in its own store by giving a
// robots.Client a Cache.
func ExampleCache() {
	c := &robots.Client{UserAgent: "ExampleBot/1.0", Cache: &mapCache{m: map[string][]byte{}}}
	fmt.Println(c.Allowed(context.Background(), "ExampleBot", "ftp://example.org/"))
	// Output: false
}
