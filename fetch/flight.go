package fetch

import (
	"context"
	"sync"
)

// A flight is one piece of work for a key (a fetch, a fetch and compile)
// that the concurrent callers asking for that key share: the first caller
// starts it, detached from its own context, the others join it, and when
// the last of them gives up the work is canceled and forgotten, so that a
// client that leaves takes its work with it and a new caller starts anew.
// Fetcher.do and Memo.Get fly them; the map of flights in progress and
// the lock that guards it are the caller's.
type flight[T any] struct {
	done chan struct{}
	v    T // the result, set before done is closed
	// waiters counts the callers still waiting; the last one to give up
	// cancels the flight.
	waiters int
	cancel  context.CancelFunc
}

// newFlight returns a flight and the context to run its work in: ctx's
// values, without its deadline or cancellation; the flight's cancel
// ends it.
func newFlight[T any](ctx context.Context) (*flight[T], context.Context) {
	fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	return &flight[T]{done: make(chan struct{}), cancel: cancel}, fctx
}

// land records v as fl's result, forgets fl as key's flight and wakes the
// callers waiting on it. The caller holds the lock guarding flights.
func (fl *flight[T]) land(flights map[string]*flight[T], key string, v T) {
	fl.v = v
	fl.forget(flights, key)
	close(fl.done)
}

// forget removes fl from flights, if it is still key's flight there.
func (fl *flight[T]) forget(flights map[string]*flight[T], key string) {
	if flights[key] == fl {
		delete(flights, key)
	}
}

// wait returns fl's result once it lands, as one of its waiters (counted
// under mu by the caller), or ok false when ctx ends first; the last
// waiter to leave cancels and forgets the flight. mu guards flights and
// is not held by the caller.
func (fl *flight[T]) wait(ctx context.Context, mu sync.Locker, flights map[string]*flight[T], key string) (v T, ok bool) {
	select {
	case <-fl.done:
		return fl.v, true
	case <-ctx.Done():
		mu.Lock()
		if fl.waiters--; fl.waiters == 0 {
			fl.cancel() // nobody waits: stop the work; a new caller starts anew
			fl.forget(flights, key)
		}
		mu.Unlock()
		return v, false
	}
}
