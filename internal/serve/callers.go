package serve

import (
	"context"
	"math"
	"net/netip"
	"slices"
	"sync"
	"time"
)

// DefaultCallerSlots bounds the slots one caller holds still to come at
// one queue (a site and a crawler): Config.CallerSlots, --pace-caller-slots.
const DefaultCallerSlots = 8

// callers keeps, per caller and queue, the starts of the slots the
// caller holds still to come, so that no caller books a queue's whole
// horizon: a caller is the address a request came from (an IPv6 one by
// its /64, what one host has), as this process sees it. It holds at most
// max entries; past that, arbitrary ones are forgotten (their callers
// may then book a few more slots, within the horizon).
type callers struct {
	mu    sync.Mutex
	max   int
	slots map[callerQueue][]int64 // Unix ns; pending for a slot being booked
}

type callerQueue struct{ caller, queue string }

// pending stands for a slot being booked: it counts as one still to come.
const pending = math.MaxInt64

func newCallers(max int) *callers {
	return &callers{max: max, slots: map[callerQueue][]int64{}}
}

// limit is how many slots still to come a caller may hold at a queue
// whose slots are spacing apart: slots, and at most half the horizon's
// worth (at least one), so that the other half is left to others.
func limit(slots int, spacing, horizon time.Duration) int {
	if spacing > 0 && horizon > 0 {
		slots = min(slots, max(1, int(horizon/(2*spacing))))
	}
	return slots
}

// hold takes one of the caller's n slots at queue, to be booked now: ok
// false, and how long until one of its slots starts, when it holds n
// already. A hold taken is settled with book or given back with drop.
func (c *callers) hold(caller, queue string, n int, now time.Time) (wait time.Duration, ok bool) {
	k := callerQueue{caller, queue}
	t := now.UnixNano()
	c.mu.Lock()
	defer c.mu.Unlock()
	live := c.slots[k][:0]
	next := int64(pending)
	for _, s := range c.slots[k] {
		if s > t {
			live = append(live, s)
			next = min(next, s)
		}
	}
	if len(live) >= n {
		c.slots[k] = live
		if next == pending {
			return time.Second, false // all being booked: ask again soon
		}
		return time.Duration(next - t), false
	}
	if len(live) == 0 {
		delete(c.slots, k)
		if len(c.slots) >= c.max {
			c.forget(t)
		}
	}
	c.slots[k] = append(live, pending)
	return 0, true
}

// forget drops the entries with no slot to come, and when the table is
// still at its bound a quarter of it, arbitrary ones.
func (c *callers) forget(t int64) {
	for k, ss := range c.slots {
		if !slices.ContainsFunc(ss, func(s int64) bool { return s > t }) {
			delete(c.slots, k)
		}
	}
	drop := len(c.slots) - c.max*3/4
	for k := range c.slots {
		if drop <= 0 {
			break
		}
		delete(c.slots, k)
		drop--
	}
}

// settle replaces one hold of the caller's at queue by the slot it
// booked, at start (book), or gives it back (start zero).
func (c *callers) settle(caller, queue string, start time.Time) {
	k := callerQueue{caller, queue}
	c.mu.Lock()
	defer c.mu.Unlock()
	ss := c.slots[k]
	for i, s := range ss {
		if s == pending {
			if start.IsZero() {
				ss = append(ss[:i], ss[i+1:]...)
			} else {
				ss[i] = start.UnixNano()
			}
			break
		}
	}
	if len(ss) == 0 {
		delete(c.slots, k)
		return
	}
	c.slots[k] = ss
}

// Len returns the entries the table holds.
func (c *callers) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.slots)
}

type callerKey struct{}

// withCaller returns ctx carrying the caller of a request from remote (a
// RemoteAddr).
func withCaller(ctx context.Context, remote string) context.Context {
	return context.WithValue(ctx, callerKey{}, callerOf(remote))
}

// callerOf names the caller at remote: its IP address, an IPv6 one by
// its /64 prefix; remote itself when it is not an address and port.
func callerOf(remote string) string {
	ap, err := netip.ParseAddrPort(remote)
	if err != nil {
		return remote
	}
	a := ap.Addr().Unmap().WithZone("")
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

func callerFrom(ctx context.Context) string {
	c, _ := ctx.Value(callerKey{}).(string)
	return c
}
