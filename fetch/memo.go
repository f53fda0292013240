package fetch

import (
	"cmp"
	"context"
	"hash/maphash"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultMemoBytes is how many manifest bytes a Memo keeps compiled by
// default: 128 MiB, the files of 262 sites serving the most RFC 9309 2.5
// asks a crawler to read (500 KiB), or of the 10,000 sites of
// DefaultMemoEntries at 13 KiB each (the median robots.txt is 355 bytes).
const DefaultMemoBytes = 128 << 20

// DefaultMemoEntries is how many values a Memo keeps by default.
const DefaultMemoEntries = 10000

// memoOverhead is what a Memo counts for each value beyond its manifest's
// bytes, so that many empty responses are bounded too.
const memoOverhead = 512

// A Memo keeps values compiled from fetched manifests (a robots.Policy, a
// mobile-agent Table, a data.txt Catalog) in memory until the response they
// were compiled from expires. It is the fetch-and-compile path every public
// entry point of sitetxt shares:
//
//  1. A value that is still fresh is returned at once.
//  2. Otherwise one flight per key fetches the manifest (through the
//     Fetcher and its Cache) and compiles it; every concurrent caller of
//     that key waits for the same flight, so N callers cost one request
//     and one compile, never N. Each caller can give up through its own
//     context without failing the flight. At most GOMAXPROCS compiles run
//     at once; the rest wait their turn.
//  3. A response with the same identity as the one the kept value came
//     from (the same final URL and the same bytes: a 304 revalidation, a
//     stale copy used while the site is unreachable, another process's
//     copy of the same file in a shared Cache) keeps its compiled value.
//
// A Memo holds at most MaxEntries values compiled from at most MaxBytes of
// manifests; past either it drops the least recently used values until the
// new one fits (past MaxEntries, down to 15/16 of it at once). A kept value is found under a read lock, so callers of
// fresh values do not queue behind each other. A dropped value costs one
// flight the next time it is needed (a Cache lookup, and a request only if
// the Cache dropped the response too) and one compile, never more, however
// many callers ask for it at once. Sizing the Cache at least as large as
// the Memo (as the entry points do for their default in-memory cache)
// means a working set that fits in the Memo is never fetched again before
// it expires.
//
// Values are never shared between keys, even for identical bytes: a
// compiled value names the file it came from in its positions.
//
// Set the fields before first use; a Memo is safe for concurrent use.
type Memo[V any] struct {
	// Fetcher fetches the manifests; Access interprets them.
	Fetcher *Fetcher
	Access  *Access
	// Compile makes the value of a parse Result (Status Parse). Results of
	// any other status are kept with the zero V.
	Compile func(*Result) V
	// MaxBytes bounds the manifest bytes behind the values kept; 0 means
	// DefaultMemoBytes. MaxEntries bounds their number; 0 means
	// DefaultMemoEntries.
	MaxBytes, MaxEntries int
	// OnCompile, if set, is called after each call of Compile (tests count
	// compiles with it).
	OnCompile func(key string)

	once    sync.Once
	seed    maphash.Seed
	mu      sync.RWMutex // held for reading on the path of a kept value
	tick    atomic.Int64 // the clock of memoItem.used: one tick per use, so no two uses tie
	items   map[string]*memoItem[V]
	bytes   int
	flights map[string]*flight[Memoized[V]]
	compile chan struct{} // a token per compile running: at most GOMAXPROCS
}

// A Memoized is a Memo's answer: the Result and the value compiled from it.
// Result.Body is nil (the value is what was made of it; the Cache has the
// bytes), so that a Memo holds each file once, compiled.
type Memoized[V any] struct {
	Result *Result
	Value  V
	// Kept is set when the answer was kept from before, without asking the
	// Fetcher.
	Kept bool
}

type memoItem[V any] struct {
	key   string
	res   *Result
	value V
	id    uint64 // identity of the body, when res.Status is Parse
	n     int    // the body's length
	size  int
	used  atomic.Int64 // when it was last returned, as a tick of the Memo's clock
}

func (m *Memo[V]) init() {
	m.once.Do(func() {
		m.seed = maphash.MakeSeed()
		m.items = make(map[string]*memoItem[V])
		m.flights = make(map[string]*flight[Memoized[V]])
		m.compile = make(chan struct{}, runtime.GOMAXPROCS(0))
	})
}

func (m *Memo[V]) maxBytes() int {
	if m.MaxBytes > 0 {
		return m.MaxBytes
	}
	return DefaultMemoBytes
}

func (m *Memo[V]) maxEntries() int {
	if m.MaxEntries > 0 {
		return m.MaxEntries
	}
	return DefaultMemoEntries
}

// Get returns the value for key, the manifest at rawURL compiled, fetching
// and compiling it when no fresh value is kept. Keys let one manifest be
// compiled in several ways (data.txt with different options): compile, if
// not nil, is used instead of m.Compile, and must depend on nothing but the
// Result and what key says. Most callers pass rawURL as key and nil.
func (m *Memo[V]) Get(ctx context.Context, key, rawURL string, compile func(*Result) V) Memoized[V] {
	m.init()
	now := m.Fetcher.now()
	m.mu.RLock()
	it := m.items[key]
	m.mu.RUnlock()
	if it != nil && it.res.FreshAt(now) {
		it.used.Store(m.tick.Add(1))
		return Memoized[V]{Result: it.res, Value: it.value, Kept: true}
	}
	m.mu.Lock()
	if it := m.items[key]; it != nil && it.res.FreshAt(now) { // kept since the look above
		m.mu.Unlock()
		it.used.Store(m.tick.Add(1))
		return Memoized[V]{Result: it.res, Value: it.value, Kept: true}
	}
	fl := m.flights[key]
	if fl == nil {
		var fctx context.Context
		fl, fctx = newFlight[Memoized[V]](ctx)
		m.flights[key] = fl
		if compile == nil {
			compile = m.Compile
		}
		go m.fly(fctx, key, rawURL, compile, fl)
	}
	fl.waiters++
	m.mu.Unlock()
	if v, ok := fl.wait(ctx, &m.mu, m.flights, key); ok {
		return v
	}
	return Memoized[V]{Result: abandoned(rawURL, m.Access, ctx.Err(), now)}
}

// fly fetches and compiles key for every caller waiting on fl.
func (m *Memo[V]) fly(ctx context.Context, key, rawURL string, compile func(*Result) V, fl *flight[Memoized[V]]) {
	release, err := limitOf(ctx).take(ctx)
	defer release()
	var r *Result
	if err == nil {
		r = m.Fetcher.Fetch(ctx, rawURL, m.Access)
	}
	if ctx.Err() != nil {
		// Every caller left: keep nothing, so the next asks again.
		m.mu.Lock()
		fl.land(m.flights, key, Memoized[V]{Result: abandoned(rawURL, m.Access, ctx.Err(), m.Fetcher.now())})
		m.mu.Unlock()
		return
	}
	it := &memoItem[V]{key: key, n: len(r.Body), size: len(r.Body) + memoOverhead}
	if r.Status == Parse {
		it.id = m.identity(r)
		m.mu.RLock()
		old := m.items[key]
		m.mu.RUnlock()
		if old != nil && old.res.Status == Parse && old.id == it.id && old.res.FinalURL == r.FinalURL && old.n == it.n && old.res.Truncated == r.Truncated {
			it.value = old.value // the same response: revalidated, stale, or from another process
		} else {
			// Compiles beyond the cores only queue: running them one per core
			// finishes the first sooner and holds fewer parse trees at once.
			m.compile <- struct{}{}
			it.value = compile(r)
			<-m.compile
			if m.OnCompile != nil {
				m.OnCompile(key)
			}
		}
	}
	kept := *r
	kept.Body = nil
	it.res = &kept
	m.mu.Lock()
	m.keep(it)
	fl.land(m.flights, key, Memoized[V]{Result: it.res, Value: it.value})
	m.mu.Unlock()
}

// identity is a hash of r's body, so that a response compiled before is
// recognised when it comes back.
func (m *Memo[V]) identity(r *Result) uint64 {
	var h maphash.Hash
	h.SetSeed(m.seed)
	h.WriteString(r.FinalURL)
	h.WriteByte(0)
	h.Write(r.Body)
	return h.Sum64()
}

// keep stores it, dropping least recently used items until it fits. An
// item larger than the whole bound is not kept. m.mu is held.
func (m *Memo[V]) keep(it *memoItem[V]) {
	it.used.Store(m.tick.Add(1))
	if old := m.items[it.key]; old != nil {
		m.bytes -= old.size
		delete(m.items, it.key)
	}
	if it.size > m.maxBytes() {
		return
	}
	if len(m.items) >= m.maxEntries() || m.bytes+it.size > m.maxBytes() {
		// The bound is full: drop the least recently used, down to 15/16
		// of the entry bound, so that a crawler that sees more sites than
		// the bound sorts once per 1/16 of the values, not once per new
		// site (the byte bound is kept exactly).
		lowItems := m.maxEntries() - m.maxEntries()/16
		byUse := make([]*memoItem[V], 0, len(m.items))
		for _, o := range m.items {
			byUse = append(byUse, o)
		}
		slices.SortFunc(byUse, func(a, b *memoItem[V]) int { return cmp.Compare(a.used.Load(), b.used.Load()) })
		for _, o := range byUse {
			if len(m.items) < lowItems && m.bytes+it.size <= m.maxBytes() {
				break
			}
			m.bytes -= o.size
			delete(m.items, o.key)
		}
	}
	m.items[it.key] = it
	m.bytes += it.size
}

// abandoned is the Result for a caller that gave up before the fetch it
// waited for ended: the meaning of a network error, remembered by nobody.
func abandoned(rawURL string, m *Access, err error, now time.Time) *Result {
	st, reason := meaning(m, networkError, 0, err.Error())
	return &Result{URL: rawURL, Access: m, Status: st, Reason: reason, FinalURL: rawURL, FetchedAt: now, Expires: now, Err: err}
}

// NewMemo builds the Memo an entry point (robots.Client, datatxt.Fetcher,
// mobileagent.Fetcher) works through, over the Fetcher it was given (nil
// means NewFetcherFor("", maxBytes)), bound to maxBytes of manifests (0
// means DefaultMemoBytes). One place, so the entry points cannot drift
// apart.
func NewMemo[V any](f *Fetcher, a *Access, maxBytes int, compile func(*Result) V, onCompile func(string)) *Memo[V] {
	if f == nil {
		f = NewFetcherFor("", maxBytes)
	}
	return &Memo[V]{Fetcher: f, Access: a, MaxBytes: maxBytes, Compile: compile, OnCompile: onCompile}
}

// NewFetcherFor returns the Fetcher of an entry point that was given
// none: the defaults, sending userAgent ("" means DefaultUserAgent), with
// an in-memory cache large enough for every response behind the values a
// Memo of maxBytes keeps (memoryCacheFor; 0 means DefaultMemoBytes), so
// that what the Memo keeps is never fetched again because the cache
// dropped it.
func NewFetcherFor(userAgent string, maxBytes int) *Fetcher {
	if maxBytes <= 0 {
		maxBytes = DefaultMemoBytes
	}
	return &Fetcher{UserAgent: userAgent, Cache: memoryCacheFor(maxBytes, DefaultMemoEntries)}
}
