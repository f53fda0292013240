// Package clocktest is a clock that a test moves by hand, for the Now
// fields of fetch.Fetcher, the pacers and the server: a test of an
// expiry, a wait or a window advances it instead of sleeping.
package clocktest

import (
	"sync"
	"time"
)

// Clock is a clock a test moves by hand; it is safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// New returns a Clock at t.
func New(t time.Time) *Clock { return &Clock{t: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
