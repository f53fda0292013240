package rediscache_test

import (
	"context"
	"log/slog"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/internal/redistest"
)

// hiddenConn is a connection that hides its socket from the driver, as a
// TLS connection does, or a wrapper of a caller's own dialer.
type hiddenConn struct{ net.Conn }

// TestRedisBackAtOnce: a Cache whose pool held 48 connections before
// Redis restarted uses Redis again as soon as its backoff is over: no
// command fails on a connection the restart closed. Before, Open's
// connections hid their socket from the driver, which could not drop the
// closed ones before use: each failed one command and started the
// backoff again (20 pooled connections, 20 backoffs: 10.2 s at 500 ms).
// A client whose connections hide their socket (over TLS, or a caller's
// dialer) is covered by the Cache sending a command that met a closed
// connection again, on the next one.
func TestRedisBackAtOnce(t *testing.T) {
	srv := redistest.Start(t)
	const backoff = 200 * time.Millisecond
	opts := rediscache.Options{Backoff: backoff, Timeout: 5 * time.Second, Logger: slog.New(slog.DiscardHandler)}
	hidden := func() *rediscache.Cache {
		d := &net.Dialer{}
		return rediscache.New(redis.NewClient(&redis.Options{Addr: srv.Addr, MaxRetries: -1, PoolSize: 20,
			Dialer: func(ctx context.Context, network, addr string) (net.Conn, error) {
				c, err := d.DialContext(ctx, network, addr)
				if err != nil {
					return nil, err
				}
				return hiddenConn{c}, nil
			}}), opts)
	}
	for _, tc := range []struct {
		name   string
		open   func() *rediscache.Cache
		resent bool // whether the Cache, not the driver, met the closed connections
	}{
		{"Open", func() *rediscache.Cache {
			c, err := rediscache.Open(srv.URL(), opts)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}, false},
		{"a client hiding its sockets", hidden, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc := tc.open()
			defer rc.Close()
			ctx := context.Background()
			var wg sync.WaitGroup
			for range 48 { // 48 commands at once, each holding a connection for 50 ms
				wg.Go(func() {
					rc.Do(ctx, func(ctx context.Context, rdb redis.UniversalClient) error { return rdb.Do(ctx, "WAIT", 1, 50).Err() })
				})
			}
			wg.Wait()
			if err := srv.Restart(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(backoff + 50*time.Millisecond) // a failed command in between would have backed off
			before := rc.Stats()
			for i := range 40 {
				rc.Put("k", []byte("v"))
				if v, ok := rc.Get("k"); !ok || string(v) != "v" {
					t.Fatalf("Get %d after the restart = %q, %v", i, v, ok)
				}
			}
			if s := rc.Stats(); s.Errors != before.Errors || s.Fallbacks != before.Fallbacks || s.Hits != before.Hits+40 {
				t.Errorf("40 Put and Get after Redis came back: %d errors, %d fallbacks, %d hits; want 0, 0, 40 (all through Redis)",
					s.Errors-before.Errors, s.Fallbacks-before.Fallbacks, s.Hits-before.Hits)
			}
			if n := rediscache.Resent(rc); (n > 0) != tc.resent {
				t.Errorf("commands sent again after a closed connection: %d; want some: %v (the driver drops closed connections it can see)", n, tc.resent)
			}
		})
	}
}
