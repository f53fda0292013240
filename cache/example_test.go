package cache_test

import (
	"context"
	"fmt"
	"sync"

	"github.com/sitetxt/sitetxt/cache"
	"github.com/sitetxt/sitetxt/fetch"
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
	c := &robots.Client{Fetcher: &fetch.Fetcher{UserAgent: "ExampleBot/1.0", Cache: &mapCache{m: map[string][]byte{}}}}
	fmt.Println(c.Allowed(context.Background(), "ExampleBot", "ftp://example.org/"))
	// Output: false
}

// The caches sitetxt ships: one in memory (the default of every fetcher)
// and one of files in a directory, which several processes may share.
func ExampleNewMemory() {
	mem := cache.NewMemory(1000)
	mem.Put("https://example.org/robots.txt", []byte("opaque bytes"))
	v, ok := mem.Get("https://example.org/robots.txt")
	fmt.Println(string(v), ok)
	// Output: opaque bytes true
}

func ExampleNewDir() {
	c := &robots.Client{Fetcher: &fetch.Fetcher{Cache: cache.NewDir("/tmp/sitetxt-example-cache")}}
	fmt.Println(c.Fetcher.Cache != nil)
	// Output: true
}
