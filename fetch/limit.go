package fetch

import "context"

// A Limit bounds the flights in progress (the fetch and compile of one
// manifest for all its callers, Memo.Get) across every Memo whose callers
// carry it in their context (WithLimit). A flight takes a slot before it
// fetches, so before any connection is dialled, and gives it back once
// its value is compiled and kept, or when its last caller leaves. sitetxt
// serve holds one per process: whatever its clients ask, the bodies,
// parse trees and connections in flight stay within that many, while
// answers from values already kept never wait for a slot.
type Limit struct {
	slots chan struct{}
}

// NewLimit returns a Limit of n flights at once (at least 1).
func NewLimit(n int) *Limit { return &Limit{slots: make(chan struct{}, max(n, 1))} }

// InUse returns the slots taken now.
func (l *Limit) InUse() int { return len(l.slots) }

// Cap returns the number of slots.
func (l *Limit) Cap() int { return cap(l.slots) }

type limitKey struct{}

// WithLimit returns ctx carrying l: the flights its Memo.Get calls start
// take a slot of l.
func WithLimit(ctx context.Context, l *Limit) context.Context {
	return context.WithValue(ctx, limitKey{}, l)
}

func limitOf(ctx context.Context) *Limit {
	l, _ := ctx.Value(limitKey{}).(*Limit)
	return l
}

// take waits for a slot of l (nil: none needed) until ctx ends, and
// returns the function that gives it back.
func (l *Limit) take(ctx context.Context) (release func(), err error) {
	if l == nil {
		return func() {}, nil
	}
	select {
	case l.slots <- struct{}{}:
		return func() { <-l.slots }, nil
	case <-ctx.Done():
		return func() {}, ctx.Err()
	}
}
