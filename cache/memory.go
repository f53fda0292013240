package cache

import "sync"

// Memory is a Cache in memory, the default of every fetcher of sitetxt.
// The zero value is ready to use.
type Memory struct {
	// MaxEntries bounds the number of entries; when it is reached, Put
	// evicts an arbitrary entry. 0 means 10,000.
	MaxEntries int
	// MaxBytes bounds the bytes of values held; Put evicts arbitrary
	// entries until a new value fits. 0 means DefaultMaxBytes.
	MaxBytes int

	mu    sync.Mutex
	m     map[string][]byte
	bytes int
}

// DefaultMaxBytes is how many bytes of responses a Memory holds by
// default: 128 full-size (500 KiB) manifests, or thousands of typical ones
// (the median robots.txt is 355 bytes).
const DefaultMaxBytes = 64 << 20

// NewMemory returns a Cache in memory holding at most maxEntries responses
// (0 means 10,000) of at most DefaultMaxBytes in all.
func NewMemory(maxEntries int) Cache { return &Memory{MaxEntries: maxEntries} }

// Get returns the value stored under key.
func (c *Memory) Get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v, ok
}

// Put stores value under key. The cache keeps value; the caller must not
// change it afterwards.
func (c *Memory) Put(key string, value []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string][]byte)
	}
	max := c.MaxEntries
	if max <= 0 {
		max = 10000
	}
	maxBytes := c.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if len(value) > maxBytes {
		return
	}
	if old, ok := c.m[key]; ok {
		c.bytes -= len(old)
		delete(c.m, key)
	}
	for k, v := range c.m {
		if len(c.m) < max && c.bytes+len(value) <= maxBytes {
			break
		}
		c.bytes -= len(v)
		delete(c.m, k)
	}
	c.m[key] = value
	c.bytes += len(value)
}

// Len returns how many entries the cache holds and their bytes.
func (c *Memory) Len() (entries, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m), c.bytes
}
