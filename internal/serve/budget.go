package serve

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"golang.org/x/sync/semaphore"
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
//   - a quarter: requests being read and answered (admit), at
//     requestCost each;
//   - the last eighth: headroom for the garbage collector.
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
}

// ResponseCacheBytes is how many bytes of robots.txt responses a serve
// process of the memory budget maxMemory keeps in memory: its in-memory
// cache or, with Redis, the local copy the Redis cache answers from when
// Redis cannot (rediscache.Options.Local).
func ResponseCacheBytes(maxMemory int64) int { return shareOut(maxMemory).cache }

func shareOut(budget int64) shares {
	return shares{
		cache:    int(budget / 8),
		policies: int(budget * 3 / 8 / 4 / policyFactor),
		fetches:  int(min(maxFetches, max(minFetches, budget/4/perFetch))),
		requests: budget / 4,
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

// requestCost is what a request of body bytes may take while it is read
// and answered: the body buffered by the JSON decoder, the strings and
// slice decoded from it (a URL of three bytes costs a 16-byte string
// header), and the window of results.
func requestCost(body int64) int64 {
	return 4*body + answerWindow*resultCost + 64<<10
}

// admitWait is how long a request waits for memory before it is turned
// away with 503.
const admitWait = 10 * time.Second

// budget is a count of bytes requests may take at once.
type budget struct {
	sem  *semaphore.Weighted
	size int64
	wait time.Duration // how long a request waits for its share: admitWait
}

func newBudget(size int64) *budget {
	return &budget{sem: semaphore.NewWeighted(size), size: size, wait: admitWait}
}

// admit reserves from s.requests the memory r may take: its declared body
// (Content-Length, else the most allowed) read and decoded, and the
// window of its answer. A body declared larger than allowed is a 413
// before a byte of it is read; a request the budget cannot take within
// admitWait is a 503 with Retry-After, and one whose client left is not
// answered. release gives the memory back.
func (s *Server) admit(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	if r.ContentLength > s.cfg.MaxBody {
		s.fail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes (Content-Length: %d)", s.cfg.MaxBody, r.ContentLength))
		return nil, false
	}
	body := s.cfg.MaxBody
	if r.ContentLength >= 0 {
		body = r.ContentLength
	}
	n := min(requestCost(body), s.requests.size)
	ctx, cancel := context.WithTimeout(r.Context(), s.requests.wait)
	defer cancel()
	if err := s.requests.sem.Acquire(ctx, n); err != nil {
		if r.Context().Err() == nil {
			w.Header().Set("Retry-After", strconv.Itoa(1))
			s.fail(w, http.StatusServiceUnavailable, "busy: the requests in progress hold all the memory this process gives requests (--max-memory); try again")
		}
		return nil, false
	}
	return func() { s.requests.sem.Release(n) }, true
}
