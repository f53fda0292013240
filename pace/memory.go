package pace

import (
	"cmp"
	"context"
	"hash/maphash"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Memory is the Pacer of one process: per queue, the start of the last
// slot it handed out, a pause and a count of server errors, kept until
// they no longer matter (the last slot's interval and the pause are
// over, and a backoff has had Backoff.Max to end), for at most
// Options.MaxQueues queues. It is safe for concurrent use; make one with
// NewMemory.
//
// A fleet of processes each with its own Memory would send a site one
// request per process per interval: use a shared Pacer
// (pace/redispace) there, unless each site is crawled by one
// process only.
type Memory struct {
	opts    Options
	seed    maphash.Seed
	evicted atomic.Int64
	shards  [64]shard
}

type shard struct {
	mu      sync.Mutex
	sites   map[string]*state
	limit   int // the queues the shard may hold
	sweepAt int // sweep expired queues when the map reaches this size
}

// state is one queue's pacing state, in Unix nanoseconds.
type state struct {
	last   int64 // start of the last slot handed out; 0 for none
	paused int64 // no slot starts before this
	keep   int64 // the state matters until then
	fails  int32 // server errors in a row
	cause  bool  // the pause is a backoff's (else a Retry-After's)
}

// StateBytes is about what one queue's state costs a Memory (its map
// entry, its key of a site and a crawler, the state), as
// TestMemoryStateBytes measures it: what a caller sizing
// Options.MaxQueues from a memory budget counts.
const StateBytes = 256

var _ Pacer = (*Memory)(nil)

// NewMemory returns an in-process Pacer.
func NewMemory(opts Options) *Memory {
	opts = opts.WithDefaults()
	m := &Memory{opts: opts, seed: maphash.MakeSeed()}
	limit := max(1, opts.MaxQueues/len(m.shards))
	for i := range m.shards {
		m.shards[i].sites = map[string]*state{}
		m.shards[i].limit = limit
		m.shards[i].sweepAt = min(64, limit)
	}
	return m
}

// Options returns the Options the Memory applies (with their defaults).
func (m *Memory) Options() Options { return m.opts }

// site returns the state of queue q, made or reset when it has expired,
// with its shard locked.
func (m *Memory) site(q string, now int64) (*shard, *state) {
	sh := m.shard(q)
	sh.mu.Lock()
	st := sh.sites[q]
	if st == nil || st.keep <= now {
		if st == nil && len(sh.sites) >= sh.sweepAt {
			m.evicted.Add(int64(sh.sweep(now)))
		}
		st = &state{}
		sh.sites[q] = st
	}
	return sh, st
}

func (m *Memory) shard(q string) *shard {
	return &m.shards[maphash.String(m.seed, q)%uint64(len(m.shards))]
}

// sweep drops the queues whose state has expired; the next sweep comes
// when the map has doubled, so a sweep costs O(1) a queue. A shard at its
// limit also drops the quarter of its states that would expire soonest
// (the oldest slots; a pause keeps its state longest), which it counts.
func (sh *shard) sweep(now int64) (evicted int) {
	for k, st := range sh.sites {
		if st.keep <= now {
			delete(sh.sites, k)
		}
	}
	if len(sh.sites) >= sh.limit {
		type held struct {
			keep int64
			q    string
		}
		all := make([]held, 0, len(sh.sites))
		for q, st := range sh.sites {
			all = append(all, held{st.keep, q})
		}
		slices.SortFunc(all, func(a, b held) int { return cmp.Compare(a.keep, b.keep) })
		for _, h := range all[:max(1, len(all)/4)] {
			delete(sh.sites, h.q)
			evicted++
		}
	}
	sh.sweepAt = min(sh.limit, max(64, 2*len(sh.sites)))
	return evicted
}

// Acquire reserves the queue's next slot: at least p.Spacing() after the
// last one, not before a pause ends, in p.Window; none past the horizon.
func (m *Memory) Acquire(ctx context.Context, queue string, p Pace) (time.Duration, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	now := m.opts.Now().UnixNano()
	sh, st := m.site(queue, now)
	defer sh.mu.Unlock()
	start := p.Window.Next(time.Unix(0, st.next(now, p))).UnixNano()
	if err := m.opts.CheckHorizon(time.Duration(start - now)); err != nil {
		return 0, err
	}
	st.last = start
	st.keep = max(st.keep, start+int64(p.Spacing()))
	return time.Duration(start - now), nil
}

// next is the earliest the queue's next slot may start, Visit-time
// aside: the last slot plus the spacing, not before a pause ends.
func (st *state) next(now int64, p Pace) int64 {
	start := now
	if st.last != 0 {
		start = max(start, st.last+int64(p.Spacing()))
	}
	return max(start, st.paused)
}

// Next returns how long until the queue's next slot as this Memory knows
// it (Visit-time and the horizon aside), reserving nothing: what a shared
// Pacer this Memory stands in for brings it as a floor
// (pace/redispace).
func (m *Memory) Next(queue string, p Pace) time.Duration {
	now := m.opts.Now().UnixNano()
	sh, st := m.site(queue, now)
	defer sh.mu.Unlock()
	return time.Duration(st.next(now, p) - now)
}

// Reserved records a slot at start that another Pacer handed out (a
// shared one this Memory stands in for while it cannot be reached), so
// that slots this Memory hands out keep their distance from it.
func (m *Memory) Reserved(queue string, start time.Time, p Pace) {
	at := start.UnixNano()
	sh, st := m.site(queue, m.opts.Now().UnixNano())
	defer sh.mu.Unlock()
	st.last = max(st.last, at)
	st.keep = max(st.keep, at+int64(p.Spacing()))
}

// Report pauses the queue as Classify reads the answer: for its
// Retry-After (at most Options.PauseMax), or for Backoff after a server
// error; a fine answer ends the backoff. A pause never shortens one in
// force; the Pause returned is the one in force.
func (m *Memory) Report(ctx context.Context, queue string, status int, retryAfter string) (Pause, error) {
	if err := ctx.Err(); err != nil {
		return Pause{}, err
	}
	now := m.opts.Now()
	t := now.UnixNano()
	out, d := Classify(status, retryAfter, now)
	if out == Fine {
		return m.fine(queue, t), nil
	}
	sh, st := m.site(queue, t)
	defer sh.mu.Unlock()
	backoff := out == Failed
	if backoff {
		st.fails++
		d = m.opts.Backoff.After(int(st.fails))
	}
	if end := t + int64(min(d, m.opts.PauseMax)); end > st.paused {
		st.paused, st.cause = end, backoff
	}
	st.keep = max(st.keep, st.paused+int64(m.opts.Backoff.Max))
	return st.pause(t), nil
}

// pause is the pause in force at t.
func (st *state) pause(t int64) Pause {
	if st.paused <= t {
		return Pause{}
	}
	cause := CauseRetryAfter
	if st.cause {
		cause = CauseBackoff
	}
	return Pause{Wait: time.Duration(st.paused - t), Cause: cause}
}

// fine ends the backoff of queue, if it has state, and returns the pause
// in force.
func (m *Memory) fine(queue string, t int64) Pause {
	sh := m.shard(queue)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	st := sh.sites[queue]
	if st == nil || st.keep <= t {
		return Pause{}
	}
	st.fails = 0
	return st.pause(t)
}

// Len returns the number of queues the Memory holds state for (some of
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

// Evicted returns the number of queues whose state was dropped before it
// expired, for room (Options.MaxQueues).
func (m *Memory) Evicted() int64 { return m.evicted.Load() }
