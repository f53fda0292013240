package serve

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/sitetxt/sitetxt/pace"
)

// How a serve process shares out its memory budget (Config.MaxMemory,
// --max-memory). Each share is bounded where it is held, so the process
// stays within the budget whatever its clients send and whatever the
// sites serve (TestLoadServeHostile measures it, docs/fleet.md gives the
// figures):
//
//   - an eighth: the in-memory cache of robots.txt responses (bodies
//     and a few headers), when no Cache is given;
//   - three eighths: compiled policies, shared by the four profiles'
//     clients, counted at policyFactor heap bytes per robots.txt byte
//     (the source, its syntax tree with positions, the rules and their
//     index);
//   - a quarter: fetches in flight, at perFetch each (a body of up to
//     500 KiB read, its compile, and the rule index of the agent every
//     crawler the file does not name gets, built within the flight; the
//     compiles themselves run at most GOMAXPROCS at once per profile);
//   - a quarter: requests being read and answered (admission: charged
//     as their bodies arrive and their answers start);
//   - a thirty-second: pace state, half the queues of the in-memory pacer
//     (pace.Memory, or the stand-in of the Redis one) at
//     pace.StateBytes each, half the slots each caller holds (callers.go)
//     at as many entries;
//   - the rest, three thirty-seconds: headroom for the garbage collector.
const (
	policyFactor = 16
	perFetch     = 4 << 20
	maxFetches   = 256
	minFetches   = 4
)

// shares is a memory budget shared out.
type shares struct {
	cache    int   // bytes of responses in the in-memory cache
	policies int   // robots.txt bytes behind each profile's compiled policies
	fetches  int   // fetches in flight
	requests int64 // bytes of requests being read and answered
	// paceQueues bounds the queues of the in-memory pacer, and the
	// entries of the callers' slots.
	paceQueues int
}

// ResponseCacheBytes is how many bytes of robots.txt responses a serve
// process of the memory budget maxMemory keeps in memory: its in-memory
// cache or, with Redis, the local copy the Redis cache answers from when
// Redis cannot (rediscache.Options.Local).
func ResponseCacheBytes(maxMemory int64) int { return shareOut(maxMemory).cache }

// PaceQueues is how many queues (a site and a crawler) the pacer of a
// serve process of the memory budget maxMemory keeps in memory
// (pace.Options.MaxQueues): its pace.Memory or, with Redis, the one that
// stands in for Redis when it cannot be reached.
func PaceQueues(maxMemory int64) int { return shareOut(maxMemory).paceQueues }

func shareOut(budget int64) shares {
	return shares{
		cache:      int(budget / 8),
		policies:   int(budget * 3 / 8 / 4 / policyFactor),
		fetches:    int(min(maxFetches, max(minFetches, budget/4/perFetch))),
		requests:   budget / 4,
		paceQueues: int(max(1024, budget/32/2/pace.StateBytes)),
	}
}

// answerWindow is how many results of one request may be decided ahead
// of the one being written (answers): the answer is written as it is
// decided, never held whole.
const answerWindow = 4 * DefaultParallel

// resultCost is a generous bound on the memory of one result waiting to
// be written: the decision, its rule and group (the site's text in them
// bounded by bound), and its encoding.
const resultCost = 16 << 10

// What a JSON request is charged (admission): requestBase when it is
// admitted (its headers, the decoder, the goroutine), bodyFactor bytes
// for each byte of its body as the byte arrives (the body buffered by
// the JSON decoder, the strings and slices decoded from it: a URL of
// three bytes costs a 16-byte string header), taken bodyStep bytes of
// budget at a time; then its route's Limits.Work (windowCost for an
// answer written a window of results at a time).
const (
	requestBase = 64 << 10
	bodyFactor  = 4
	bodyStep    = 64 << 10
	windowCost  = answerWindow * resultCost
)

// admitWait is how long a request waits for memory before it is turned
// away with 503.
const admitWait = 10 * time.Second

// budget is a count of bytes requests may take at once. A charge that
// fits is taken at once, whoever waits before it: a request's body bytes
// and base never queue behind another's large answer share (which a
// first-come queue would make wait for memory the queued bodies hold).
type budget struct {
	size int64
	wait time.Duration // how long a request waits for its share: admitWait

	mu      sync.Mutex
	used    int64
	changed chan struct{} // closed when used goes down
}

func newBudget(size int64) *budget {
	return &budget{size: size, wait: admitWait, changed: make(chan struct{})}
}

// acquire takes n bytes, waiting until they fit or ctx ends.
func (b *budget) acquire(ctx context.Context, n int64) error {
	for {
		b.mu.Lock()
		if b.used+n <= b.size {
			b.used += n
			b.mu.Unlock()
			return nil
		}
		changed := b.changed
		b.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// release gives back n bytes and wakes the waiters.
func (b *budget) release(n int64) {
	b.mu.Lock()
	b.used -= n
	close(b.changed)
	b.changed = make(chan struct{})
	b.mu.Unlock()
}

// errBusy is a charge the budget could not take within its wait.
var errBusy = errors.New("busy: the requests in progress hold all the memory this process gives requests (--max-memory)")

// admission is what one request holds of the budget: charged as its
// body arrives and its answer starts, all given back when it ends.
type admission struct {
	b    *budget
	ctx  context.Context
	mu   sync.Mutex
	held int64
}

type admissionKey struct{}

// admissionOf returns the admission of the request ctx belongs to, nil
// for a request with no body.
func admissionOf(ctx context.Context) *admission {
	a, _ := ctx.Value(admissionKey{}).(*admission)
	return a
}

// admit admits a JSON request: it takes requestBase of the budget,
// waiting at most the budget's wait (errBusy) or until ctx ends.
func (s *Server) admit(ctx context.Context) (*admission, error) {
	a := &admission{b: s.requests, ctx: ctx}
	if err := a.take(requestBase); err != nil {
		return nil, err
	}
	return a, nil
}

// take charges n more bytes (at most the whole budget), waiting at most
// the budget's wait.
func (a *admission) take(n int64) error {
	a.mu.Lock()
	n = min(n, a.b.size-a.held)
	a.mu.Unlock()
	if n <= 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(a.ctx, a.b.wait)
	defer cancel()
	if err := a.b.acquire(ctx, n); err != nil {
		if a.ctx.Err() != nil {
			return a.ctx.Err()
		}
		return errBusy
	}
	a.mu.Lock()
	a.held += n
	a.mu.Unlock()
	return nil
}

// release gives back all the admission holds.
func (a *admission) release() {
	a.mu.Lock()
	n := a.held
	a.held = 0
	a.mu.Unlock()
	if n > 0 {
		a.b.release(n)
	}
}

// chargedBody is a request body charged to its admission as its bytes
// arrive: a slow upload holds only what it has sent.
type chargedBody struct {
	io.ReadCloser
	adm    *admission
	credit int64 // bytes of budget taken and not yet used
}

func (b *chargedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.credit -= int64(n) * bodyFactor
	for b.credit < 0 {
		if cerr := b.adm.take(bodyStep); cerr != nil {
			return n, cerr
		}
		b.credit += bodyStep
	}
	return n, err
}
