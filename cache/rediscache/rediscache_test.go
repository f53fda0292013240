package rediscache_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/internal/sitetest"
	"github.com/sitetxt/sitetxt/robots"
)

// site is a test web site serving one robots.txt, counting its requests.
type site struct {
	*httptest.Server
	requests atomic.Int64
	mu       sync.Mutex
	status   int
	header   http.Header // extra response headers
	body     string
	inm, ims []string // If-None-Match and If-Modified-Since headers received
	delay    time.Duration
}

func newSite(t *testing.T, status int, body string) *site {
	s := &site{status: status, body: body, header: http.Header{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		s.mu.Lock()
		s.inm = append(s.inm, r.Header.Get("If-None-Match"))
		s.ims = append(s.ims, r.Header.Get("If-Modified-Since"))
		status, body, delay := s.status, s.body, s.delay
		for k, v := range s.header {
			w.Header()[k] = v
		}
		etag := w.Header().Get("ETag")
		s.mu.Unlock()
		time.Sleep(delay)
		if etag != "" && r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(s.Close)
	return s
}

const rules = "User-agent: *\nDisallow: /private/\n"

// open returns a Cache on the Redis at url with a quiet logger, as one
// process of a fleet would have. Its commands may take up to 5 s: on a
// loaded test machine the 250 ms default can time out, and the Cache would
// then (correctly) fetch directly, which the tests of sharing do not claim.
// The tests of a slow or absent Redis use openTimeout with the default.
func open(t *testing.T, url string) *rediscache.Cache {
	t.Helper()
	return openTimeout(t, url, 5*time.Second)
}

func openTimeout(t *testing.T, url string, d time.Duration) *rediscache.Cache {
	t.Helper()
	c, err := rediscache.Open(url, rediscache.Options{Logger: slog.New(slog.DiscardHandler), Timeout: d})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func check(t *testing.T, c *robots.Client, u string, want bool) *robots.Answer {
	t.Helper()
	a, err := c.Check(context.Background(), "ExampleBot", u)
	if err != nil {
		t.Fatal(err)
	}
	if a.Allowed != want {
		t.Fatalf("Check(%q, %q) allowed = %v, want %v (%s, err %v)", "ExampleBot", u, a.Allowed, want, a.Reason, a.Err)
	}
	return a
}

func TestGetPut(t *testing.T) {
	srv := redistest.Start(t)
	c := open(t, srv.URL())
	if _, ok := c.Get("k"); ok {
		t.Fatalf("Get(%q) on an empty Redis found a value", "k")
	}
	c.Put("k", []byte("v"))
	if v, ok := open(t, srv.URL()).Get("k"); !ok || string(v) != "v" {
		t.Fatalf("Get(%q) from another process = %q, %v, want %q, true", "k", v, ok, "v")
	}
	c.PutTTL("k", nil, 0)
	if v, ok := open(t, srv.URL()).Get("k"); ok {
		t.Fatalf("Get(%q) after PutTTL(0) = %q, want a miss", "k", v)
	}
	if s := c.Stats(); s.Hits != 0 || s.Misses != 1 || s.Errors != 0 {
		t.Errorf("Stats() = %+v, want 1 miss, no hits, no errors", s)
	}
}

// TestOneFetchPerFleet: five processes, each with twenty concurrent
// callers, ask about one site while its robots.txt is slow to come: the
// site sees one request.
func TestOneFetchPerFleet(t *testing.T) {
	srv := redistest.Start(t)
	st := newSite(t, 200, rules)
	st.delay = 200 * time.Millisecond
	var wg sync.WaitGroup
	var caches []*rediscache.Cache
	for p := 0; p < 5; p++ {
		rc := open(t, srv.URL())
		caches = append(caches, rc)
		client := &robots.Client{Fetcher: &fetch.Fetcher{Cache: rc}}
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				check(t, client, st.URL+fmt.Sprintf("/private/%d", i), false)
				check(t, client, st.URL+"/public", true)
			}()
		}
	}
	wg.Wait()
	if n := st.requests.Load(); n != 1 {
		t.Errorf("robots.txt requests from 5 processes = %d, want 1", n)
	}
	var leases, waits uint64
	for _, c := range caches {
		s := c.Stats()
		leases += s.Leases
		waits += s.LeaseWaits
	}
	if leases != 1 || waits == 0 {
		t.Errorf("leases taken = %d, lease waits = %d; want 1 and at least 1", leases, waits)
	}
}

// TestCrashedHolder: a process took the lease and died without storing
// anything; the next process waits for the lease to expire, then fetches.
func TestCrashedHolder(t *testing.T) {
	srv := redistest.Start(t)
	st := newSite(t, 200, rules)
	key := st.URL + "/robots.txt"
	crashed := open(t, srv.URL())
	if _, held, err := crashed.TryLease(context.Background(), key, 500*time.Millisecond); err != nil || !held {
		t.Fatalf("TryLease(%q) = %v, %v; want the lease", key, held, err)
	}
	rc := open(t, srv.URL())
	check(t, &robots.Client{Fetcher: &fetch.Fetcher{Cache: rc}}, st.URL+"/private/x", false)
	if n := st.requests.Load(); n != 1 {
		t.Errorf("robots.txt requests = %d, want 1 (after the crashed holder's lease expired)", n)
	}
	if s := rc.Stats(); s.LeaseWaits == 0 || s.Leases != 1 {
		t.Errorf("Stats() = %+v, want a lease wait, then the lease", s)
	}
}

// TestSharedFailure: a 503 one process got is remembered for the fleet
// until its Retry-After.
func TestSharedFailure(t *testing.T) {
	srv := redistest.Start(t)
	st := newSite(t, 503, "busy")
	st.header.Set("Retry-After", "3600")
	a := check(t, &robots.Client{Fetcher: &fetch.Fetcher{Cache: open(t, srv.URL())}}, st.URL+"/x", false)
	b := check(t, &robots.Client{Fetcher: &fetch.Fetcher{Cache: open(t, srv.URL())}}, st.URL+"/x", false)
	if n := st.requests.Load(); n != 1 {
		t.Errorf("robots.txt requests = %d, want 1: the second process should use the shared failure", n)
	}
	if a.Status != fetch.DisallowAll || b.Status != a.Status || b.Err == nil {
		t.Errorf("statuses = %q, %q (err %v), want disallow-all twice with an error", a.Status, b.Status, b.Err)
	}
	// A success replaces the failure.
	st.mu.Lock()
	st.status, st.body = 200, rules
	st.mu.Unlock()
	c := &robots.Client{Fetcher: &fetch.Fetcher{Cache: open(t, srv.URL()), Now: func() time.Time { return time.Now().Add(2 * time.Hour) }}}
	check(t, c, st.URL+"/x", true)
	check(t, &robots.Client{Fetcher: &fetch.Fetcher{Cache: open(t, srv.URL()), Now: c.Fetcher.Now}}, st.URL+"/private/x", false)
	if n := st.requests.Load(); n != 2 {
		t.Errorf("robots.txt requests = %d, want 2", n)
	}
}

// TestRevalidation: once robots.txt expires, the next process asks with
// the cached validators and uses the cached body on 304.
func TestRevalidation(t *testing.T) {
	for _, tc := range []struct{ name, header, value, want string }{
		{"etag", "ETag", `"v1"`, "If-None-Match"},
		{"last-modified", "Last-Modified", "Mon, 02 Jan 2006 15:04:05 GMT", "If-Modified-Since"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := redistest.Start(t)
			st := newSite(t, 200, rules)
			st.header.Set(tc.header, tc.value)
			st.header.Set("Cache-Control", "max-age=60")
			check(t, &robots.Client{Fetcher: &fetch.Fetcher{Cache: open(t, srv.URL())}}, st.URL+"/private/x", false)
			later := &robots.Client{Fetcher: &fetch.Fetcher{Cache: open(t, srv.URL()), Now: func() time.Time { return time.Now().Add(time.Hour) }}}
			if tc.want == "If-Modified-Since" {
				// The site answers 304 to a matching If-Modified-Since.
				st.Config.Handler = ims(st.Config.Handler, tc.value)
			}
			a := check(t, later, st.URL+"/private/x", false)
			st.mu.Lock()
			defer st.mu.Unlock()
			if n := st.requests.Load(); n != 2 {
				t.Fatalf("robots.txt requests = %d, want 2 (a fetch, a revalidation)", n)
			}
			got := st.inm[1]
			if tc.want == "If-Modified-Since" {
				got = st.ims[1]
			}
			if got != tc.value {
				t.Errorf("%s of the revalidation = %q, want %q", tc.want, got, tc.value)
			}
			if !a.FromCache {
				t.Errorf("answer after 304: FromCache = false, want true")
			}
		})
	}
}

// ims answers 304 to a request whose If-Modified-Since is lm.
func ims(h http.Handler, lm string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-Modified-Since") == lm {
			h.ServeHTTP(&notModified{ResponseWriter: w}, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

type notModified struct {
	http.ResponseWriter
	wrote bool
}

func (w *notModified) WriteHeader(int) {
	if !w.wrote {
		w.wrote = true
		w.ResponseWriter.WriteHeader(http.StatusNotModified)
	}
}

func (w *notModified) Write(b []byte) (int, error) { w.WriteHeader(0); return len(b), nil }

// TestRedisDownAtStart: with nothing listening where Redis should be,
// answers still come, fetched directly, and the Cache says Redis is down.
func TestRedisDownAtStart(t *testing.T) {
	port := sitetest.RefusedPort(t)
	rc := open(t, fmt.Sprintf("redis://127.0.0.1:%d/0", port))
	st := newSite(t, 200, rules)
	c := &robots.Client{Fetcher: &fetch.Fetcher{Cache: rc}}
	check(t, c, st.URL+"/private/x", false)
	check(t, &robots.Client{Fetcher: &fetch.Fetcher{Cache: rc}}, st.URL+"/public", true)
	if rc.Up() {
		t.Errorf("Up() = true with no Redis listening")
	}
	s := rc.Stats()
	if s.Errors == 0 || s.Fallbacks == 0 {
		t.Errorf("Stats() = %+v, want errors and fallbacks", s)
	}
	if n := st.requests.Load(); n != 1 {
		t.Errorf("robots.txt requests = %d, want 1 (the second client answered from the local copy)", n)
	}
}

// TestRedisDownMidRun: Redis stops after a fetch; answers continue from
// the local copy and direct fetches; when Redis is back (empty), sharing
// resumes.
func TestRedisDownMidRun(t *testing.T) {
	srv := redistest.Start(t)
	// A deadline of 5 s, as open's: a stopped Redis refuses at once, and a
	// loaded machine could miss the 250 ms default, which would (as
	// designed) fetch directly and break the count of shared fetches.
	rc, err := rediscache.Open(srv.URL(), rediscache.Options{Backoff: 100 * time.Millisecond, Timeout: 5 * time.Second, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	a, b := newSite(t, 200, rules), newSite(t, 200, rules)
	check(t, &robots.Client{Fetcher: &fetch.Fetcher{Cache: rc}}, a.URL+"/private/x", false)
	srv.Stop()
	check(t, &robots.Client{Fetcher: &fetch.Fetcher{Cache: rc}}, a.URL+"/private/x", false) // a new client: from the local copy
	check(t, &robots.Client{Fetcher: &fetch.Fetcher{Cache: rc}}, b.URL+"/public", true)     // fetched directly
	if rc.Up() {
		t.Errorf("Up() = true after Redis stopped")
	}
	if na, nb := a.requests.Load(), b.requests.Load(); na != 1 || nb != 1 {
		t.Errorf("robots.txt requests = %d, %d; want 1, 1", na, nb)
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(150 * time.Millisecond) // past the backoff
	if err := rc.Ping(context.Background()); err != nil {
		t.Fatalf("Ping() after restart: %v", err)
	}
	if !rc.Up() {
		t.Errorf("Up() = false after Redis came back")
	}
	c := newSite(t, 200, rules)
	check(t, &robots.Client{Fetcher: &fetch.Fetcher{Cache: rc}}, c.URL+"/x", true)
	check(t, &robots.Client{Fetcher: &fetch.Fetcher{Cache: open(t, srv.URL())}}, c.URL+"/private/x", false)
	if n := c.requests.Load(); n != 1 {
		t.Errorf("robots.txt requests after Redis came back = %d, want 1 (shared again)", n)
	}
}

// TestSlowFetchKeepsLease: a holder whose fetch takes longer than a
// lease's lifetime extends it, so a second process still waits instead of
// fetching too.
func TestSlowFetchKeepsLease(t *testing.T) {
	srv := redistest.Start(t)
	st := newSite(t, 200, rules)
	st.delay = 4 * time.Second // more than the 3 s a lease lasts unextended
	var wg sync.WaitGroup
	for range 2 {
		rc := open(t, srv.URL())
		wg.Add(1)
		go func() {
			defer wg.Done()
			check(t, &robots.Client{Fetcher: &fetch.Fetcher{Cache: rc}}, st.URL+"/private/x", false)
		}()
		time.Sleep(100 * time.Millisecond) // the first takes the lease
	}
	wg.Wait()
	if n := st.requests.Load(); n != 1 {
		t.Errorf("robots.txt requests = %d, want 1: the holder should have extended its lease", n)
	}
}

func TestExtend(t *testing.T) {
	srv := redistest.Start(t)
	c := open(t, srv.URL())
	ctx := context.Background()
	token, held, err := c.TryLease(ctx, "k", time.Second)
	if err != nil || !held {
		t.Fatalf("TryLease() = %v, %v", held, err)
	}
	for _, tc := range []struct {
		token string
		want  bool
	}{{token, true}, {"other", false}} {
		if got, err := c.Extend(ctx, "k", tc.token, time.Minute); got != tc.want || err != nil {
			t.Errorf("Extend(%q) = %v, %v; want %v", tc.token, got, err, tc.want)
		}
	}
	c.Release("k", "other")
	if _, held, _ := c.TryLease(ctx, "k", time.Second); held {
		t.Errorf("TryLease() after Release with another token = held; want the lease still taken")
	}
	c.Release("k", token)
	if _, held, _ := c.TryLease(ctx, "k", time.Second); !held {
		t.Errorf("TryLease() after Release = not held; want the lease free")
	}
}

// TestRedisSlow: while Redis does not answer (CLIENT PAUSE, begun before
// the fetches), commands time out after Options.Timeout and answers come
// from direct fetches.
func TestRedisSlow(t *testing.T) {
	srv := redistest.Start(t)
	rc := openTimeout(t, srv.URL(), rediscache.DefaultTimeout)
	// Connected first. A loaded machine may miss the 250 ms deadline and
	// back off for 2 s: ask again until it answers.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		err := rc.Ping(context.Background())
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Ping() = %v for 30 s", err)
		}
	}
	before := rc.Stats()
	st := newSite(t, 200, rules)
	if err := srv.Pause(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	check(t, &robots.Client{Fetcher: &fetch.Fetcher{Cache: rc}}, st.URL+"/private/x", false)
	check(t, &robots.Client{Fetcher: &fetch.Fetcher{Cache: rc}}, st.URL+"/public", true)
	if s := rc.Stats(); s.Errors == before.Errors || s.Fallbacks == before.Fallbacks {
		t.Errorf("Stats() = %+v (before the pause %+v), want timeouts counted as errors, and fallbacks", s, before)
	}
	if n := st.requests.Load(); n != 1 {
		t.Errorf("robots.txt requests = %d, want 1", n)
	}
}

func TestMain(m *testing.M) {
	rediscache.LogDriverTo(slog.New(slog.DiscardHandler)) // no pool messages from the tests that stop Redis
	os.Exit(m.Run())
}

// TestDo: another store's commands run with the Cache's deadline and
// backoff, and count in its Stats and Up.
func TestDo(t *testing.T) {
	srv := redistest.Start(t)
	rc, err := rediscache.Open(srv.URL(), rediscache.Options{Backoff: time.Hour, Timeout: 5 * time.Second, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	ctx := context.Background()
	set := func(ctx context.Context, rdb redis.UniversalClient) error {
		return rdb.Set(ctx, rc.Prefix()+"other", "v", time.Minute).Err()
	}
	if err := rc.Do(ctx, set); err != nil || !rc.Up() {
		t.Fatalf("Do() = %v, Up() = %v; want nil, true", err, rc.Up())
	}
	srv.Stop()
	if err := rc.Do(ctx, set); err == nil || rc.Up() || rc.Stats().Errors != 1 {
		t.Errorf("Do() with Redis stopped = %v, Up() = %v, Stats().Errors = %d; want an error, false, 1", err, rc.Up(), rc.Stats().Errors)
	}
	if err := rc.Do(ctx, set); !errors.Is(err, rediscache.ErrUnavailable) {
		t.Errorf("Do() while backed off = %v, want ErrUnavailable", err)
	}
}
