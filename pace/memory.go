package pace

import (
	"context"
	"hash/maphash"
	"sync"
	"time"
)

// Memory is the Pacer of one process: per site, the start of the last
// slot it handed out, a pause and a count of server errors, kept until
// they no longer matter (the last slot's interval and the pause are
// over, and a backoff has had Backoff.Max to end). It is safe for
// concurrent use; make one with NewMemory.
//
// A fleet of processes each with its own Memory would send a site one
// request per process per interval: use a shared Pacer
// (pace/redispace) there, unless each site is crawled by one
// process only.
type Memory struct {
	opts   Options
	seed   maphash.Seed
	shards [64]shard
}

type shard struct {
	mu      sync.Mutex
	sites   map[string]*state
	sweepAt int // sweep expired sites when the map reaches this size
}

// state is one site's pacing state, in Unix nanoseconds.
type state struct {
	last   int64 // start of the last slot handed out; 0 for none
	paused int64 // no slot starts before this
	keep   int64 // the state matters until then
	fails  int   // server errors in a row
}

var _ Pacer = (*Memory)(nil)

// NewMemory returns an in-process Pacer.
func NewMemory(opts Options) *Memory {
	opts.Backoff = opts.Backoff.WithDefaults()
	if opts.Now == nil {
		opts.Now = time.Now
	}
	m := &Memory{opts: opts, seed: maphash.MakeSeed()}
	for i := range m.shards {
		m.shards[i].sites = map[string]*state{}
		m.shards[i].sweepAt = 64
	}
	return m
}

// site returns the state of site, made or reset when it has expired,
// with its shard locked.
func (m *Memory) site(site string, now int64) (*shard, *state) {
	sh := m.shard(site)
	sh.mu.Lock()
	st := sh.sites[site]
	if st == nil || st.keep <= now {
		if st == nil && len(sh.sites) >= sh.sweepAt {
			sh.sweep(now)
		}
		st = &state{}
		sh.sites[site] = st
	}
	return sh, st
}

func (m *Memory) shard(site string) *shard {
	return &m.shards[maphash.String(m.seed, site)%uint64(len(m.shards))]
}

// sweep drops the sites whose state has expired; the next sweep comes
// when the map has doubled, so a sweep costs O(1) a site.
func (sh *shard) sweep(now int64) {
	for k, st := range sh.sites {
		if st.keep <= now {
			delete(sh.sites, k)
		}
	}
	sh.sweepAt = max(64, 2*len(sh.sites))
}

// Acquire reserves the site's next slot: at least p.Spacing() after the
// last one, not before a pause ends, in p.Window.
func (m *Memory) Acquire(ctx context.Context, site string, p Pace) (time.Duration, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	now := m.opts.Now()
	sh, st := m.site(site, now.UnixNano())
	defer sh.mu.Unlock()
	start := now.UnixNano()
	if st.last != 0 {
		start = max(start, st.last+int64(p.Spacing()))
	}
	start = max(start, st.paused)
	start = p.Window.Next(time.Unix(0, start)).UnixNano()
	st.last = start
	st.keep = max(st.keep, start+int64(p.Spacing()))
	return time.Duration(start - now.UnixNano()), nil
}

// Reserved records a slot at start that another Pacer handed out (a
// shared one this Memory stands in for while it cannot be reached), so
// that slots this Memory hands out keep their distance from it.
func (m *Memory) Reserved(site string, start time.Time, p Pace) {
	at := start.UnixNano()
	sh, st := m.site(site, m.opts.Now().UnixNano())
	defer sh.mu.Unlock()
	st.last = max(st.last, at)
	st.keep = max(st.keep, at+int64(p.Spacing()))
}

// Report pauses the site as Classify reads the answer: for its
// Retry-After, or for Backoff after a server error; a fine answer ends
// the backoff. A pause never shortens one in force.
func (m *Memory) Report(ctx context.Context, site string, status int, retryAfter string) (Pause, error) {
	if err := ctx.Err(); err != nil {
		return Pause{}, err
	}
	now := m.opts.Now()
	out, d := Classify(status, retryAfter, now)
	if out == Fine {
		m.fine(site)
		return Pause{}, nil
	}
	sh, st := m.site(site, now.UnixNano())
	defer sh.mu.Unlock()
	cause := "retry-after"
	if out == Failed {
		st.fails++
		d, cause = m.opts.Backoff.After(st.fails), "backoff"
	}
	t := now.UnixNano()
	st.paused = max(st.paused, t+int64(d))
	st.keep = max(st.keep, st.paused+int64(m.opts.Backoff.Max))
	if st.paused <= t {
		return Pause{}, nil
	}
	return Pause{Wait: time.Duration(st.paused - t), Cause: cause}, nil
}

// fine ends the backoff of site, if it has state.
func (m *Memory) fine(site string) {
	sh := m.shard(site)
	sh.mu.Lock()
	if st := sh.sites[site]; st != nil {
		st.fails = 0
	}
	sh.mu.Unlock()
}

// Len returns the number of sites the Memory holds state for (some of
// them perhaps expired, until a sweep drops them).
func (m *Memory) Len() int {
	n := 0
	for i := range m.shards {
		sh := &m.shards[i]
		sh.mu.Lock()
		n += len(sh.sites)
		sh.mu.Unlock()
	}
	return n
}
