package fetch

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/sitetxt/sitetxt/cache"
	"github.com/sitetxt/sitetxt/internal/clocktest"
	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// cacheServer serves robotsBody with the headers given in its query, e.g.
// ?cc=max-age%3D60, and a 503 once fail is set.
func cacheServer(t *testing.T, clk *clocktest.Clock, fail *atomic.Bool) *server {
	return newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if fail != nil && fail.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		q := r.URL.Query()
		if cc := q.Get("cc"); cc != "" {
			w.Header().Set("Cache-Control", cc)
		}
		if exp := q.Get("expires"); exp != "" {
			d, _ := time.ParseDuration(exp)
			w.Header().Set("Date", clk.Now().Format(http.TimeFormat))
			w.Header().Set("Expires", clk.Now().Add(d).Format(http.TimeFormat))
		}
		io.WriteString(w, robotsBody)
	})
}

func TestCacheHitMissExpiry(t *testing.T) {
	tests := []struct {
		name  string
		query string
		mode  *Access
		fresh time.Duration // how long the first response is fresh
	}{
		{"default rfc9309", "", AccessRFC9309, 24 * time.Hour},
		{"default google", "", AccessRFC9309, 24 * time.Hour},
		{"default draft", "", AccessDraft, 7 * 24 * time.Hour},
		{"default norobots", "", AccessDraft, 7 * 24 * time.Hour},
		{"default datatxt", "", AccessDataTxt, 7 * 24 * time.Hour},
		{"max-age", "?cc=max-age%3D60", AccessRFC9309, time.Minute},
		{"max-age over 24h capped", "?cc=max-age%3D172800", AccessRFC9309, 24 * time.Hour},
		{"max-age over 24h under draft", "?cc=max-age%3D1209600", AccessDraft, 14 * 24 * time.Hour},
		{"expires", "?expires=2h", AccessRFC9309, 2 * time.Hour},
		{"expires under draft", "?expires=48h", AccessDraft, 48 * time.Hour},
		{"max-age beats expires", "?cc=max-age%3D60&expires=2h", AccessDraft, time.Minute},
		{"no-cache", "?cc=no-cache", AccessRFC9309, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := newClock()
			s := cacheServer(t, clk, nil)
			f := &Fetcher{Now: clk.Now}
			u := s.URL + "/robots.txt" + tt.query
			r := f.Fetch(context.Background(), u, tt.mode)
			if r.FromCache || r.Status != Parse {
				t.Fatalf("first Fetch = %s, from cache %v, want a parse from the server", r.Status, r.FromCache)
			}
			if want := clk.Now().Add(tt.fresh); !r.Expires.Equal(want) {
				t.Errorf("Expires = now+%v, want now+%v", r.Expires.Sub(clk.Now()), tt.fresh)
			}
			if tt.fresh > 0 {
				clk.Advance(tt.fresh - time.Second)
				if r := f.Fetch(context.Background(), u, tt.mode); !r.FromCache || string(r.Body) != robotsBody {
					t.Errorf("Fetch just before expiry: from cache %v, body %q; want the cached body", r.FromCache, r.Body)
				}
				if n := s.hits.Load(); n != 1 {
					t.Errorf("server hits before expiry = %d, want 1", n)
				}
				clk.Advance(time.Second)
			}
			if r := f.Fetch(context.Background(), u, tt.mode); r.FromCache {
				t.Errorf("Fetch at expiry came from the cache")
			}
			if n := s.hits.Load(); n != 2 {
				t.Errorf("server hits after expiry = %d, want 2", n)
			}
		})
	}
}

func TestNoStore(t *testing.T) {
	clk := newClock()
	s := cacheServer(t, clk, nil)
	mem := new(cache.Memory)
	f := &Fetcher{Now: clk.Now, Cache: mem}
	u := s.URL + "/robots.txt?cc=no-store"
	f.Fetch(context.Background(), u, AccessRFC9309)
	if _, ok := mem.Get(u); ok {
		t.Errorf("a no-store response was cached")
	}
	if r := f.Fetch(context.Background(), u, AccessRFC9309); r.FromCache || s.hits.Load() != 2 {
		t.Errorf("second Fetch of no-store: from cache %v, hits %d; want 2 server hits", r.FromCache, s.hits.Load())
	}
}

func TestStaleWhileUnreachable(t *testing.T) {
	for _, tt := range []struct {
		mode      *Access
		after     time.Duration // time since the 200 was fetched when the server fails
		want      Status
		wantStale bool
	}{
		{AccessRFC9309, 25 * time.Hour, Parse, true},
		{AccessRFC9309, 24*time.Hour + 29*24*time.Hour, Parse, true},
		{AccessRFC9309, 24*time.Hour + 30*24*time.Hour, DisallowAll, false},
		{AccessDraft, 8 * 24 * time.Hour, Defer, false},
		{AccessDataTxt, 8 * 24 * time.Hour, Error, false},
	} {
		t.Run(tt.mode.String()+"/"+tt.after.String(), func(t *testing.T) {
			clk := newClock()
			var fail atomic.Bool
			s := cacheServer(t, clk, &fail)
			f := &Fetcher{Now: clk.Now}
			u := s.URL + "/robots.txt"
			if r := f.Fetch(context.Background(), u, tt.mode); r.Status != Parse {
				t.Fatalf("first Fetch = %s, want parse", r.Status)
			}
			fail.Store(true)
			clk.Advance(tt.after)
			r := f.Fetch(context.Background(), u, tt.mode)
			if r.Status != tt.want || r.Stale != tt.wantStale || r.Err == nil {
				t.Errorf("Fetch(503 after %v) = %s, stale %v, err %v; want %s, stale %v, an error", tt.after, r.Status, r.Stale, r.Err, tt.want, tt.wantStale)
			}
			if tt.wantStale && (string(r.Body) != robotsBody || !r.FromCache || r.HTTPStatus != 200) {
				t.Errorf("stale Fetch: body %q, from cache %v, HTTP %d; want the cached 200 body", r.Body, r.FromCache, r.HTTPStatus)
			}
		})
	}
}

func TestRememberedFailure(t *testing.T) {
	clk := newClock()
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	f := &Fetcher{Now: clk.Now}
	u := s.URL + "/robots.txt"
	for i := range 3 {
		if r := f.Fetch(context.Background(), u, AccessRFC9309); r.Status != DisallowAll || r.HTTPStatus != 503 {
			t.Errorf("Fetch %d = %s HTTP %d, want disallow-all HTTP 503", i, r.Status, r.HTTPStatus)
		}
	}
	if n := s.hits.Load(); n != 1 {
		t.Errorf("server hits within Retry-After = %d, want 1", n)
	}
	clk.Advance(120 * time.Second)
	f.Fetch(context.Background(), u, AccessRFC9309)
	if n := s.hits.Load(); n != 2 {
		t.Errorf("server hits after Retry-After = %d, want 2", n)
	}
}

// TestCoalesce: concurrent callers of one URL, under any access method,
// join the one fetch in flight (in a synctest bubble: synctest.Wait says
// when every caller has joined).
func TestCoalesce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const callers = 20
		release := make(chan struct{})
		site := &sitetest.InProcess{Handler: func(w http.ResponseWriter, r *http.Request) {
			<-release
			io.WriteString(w, robotsBody)
		}}
		var joined atomic.Int32
		f := &Fetcher{Client: site.Client(), Cache: cache.None{}, onJoin: func() { joined.Add(1) }}
		u := "http://site.test/robots.txt"
		var wg sync.WaitGroup
		results := make([]*Result, callers)
		for i := range callers {
			wg.Go(func() {
				results[i] = f.Fetch(context.Background(), u, []*Access{AccessRFC9309, AccessDraft, AccessDataTxt}[i%3])
			})
		}
		synctest.Wait()
		if n := joined.Load(); n != callers-1 {
			t.Errorf("%d of %d callers joined the fetch in flight, want all", n, callers-1)
		}
		close(release)
		wg.Wait()
		if n := site.Hits(); n != 1 {
			t.Errorf("server hits for %d concurrent callers = %d, want 1", callers, n)
		}
		for i, r := range results {
			if r.Status != Parse || string(r.Body) != robotsBody {
				t.Errorf("caller %d: %s %q, want parse %q", i, r.Status, r.Body, robotsBody)
			}
		}
	})
}

func TestDirCacheCorrupt(t *testing.T) {
	dir := t.TempDir()
	clk := newClock()
	s := cacheServer(t, clk, nil)
	u := s.URL + "/robots.txt"
	dc := cache.Dir{Dir: dir}
	good := func() []byte {
		f := &Fetcher{Now: clk.Now, Cache: dc}
		if r := f.Fetch(context.Background(), u, AccessRFC9309); r.Status != Parse {
			t.Fatalf("Fetch = %s, want parse", r.Status)
		}
		data, err := os.ReadFile(dc.Path(u))
		if err != nil {
			t.Fatalf("no cache file after Fetch: %v", err)
		}
		return data
	}
	valid := good()
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"garbage", []byte("\x00\xffnot a cache entry")},
		{"empty", nil},
		{"truncated body", valid[:len(valid)-5]},
		{"flipped body byte", append(append([]byte(nil), valid[:len(valid)-1]...), 'X')},
		{"bad json", []byte(cacheMagic + "{\"url\":\n" + robotsBody)},
		{"other url", []byte(strings.Replace(string(valid), s.URL, "http://example.org", 1))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(dc.Path(u), tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			before := s.hits.Load()
			f := &Fetcher{Now: clk.Now, Cache: dc}
			r := f.Fetch(context.Background(), u, AccessRFC9309)
			if r.Status != Parse || r.FromCache || string(r.Body) != robotsBody {
				t.Errorf("Fetch over a %s cache file = %s, from cache %v, body %q; want a fresh parse", tt.name, r.Status, r.FromCache, r.Body)
			}
			if s.hits.Load() != before+1 {
				t.Errorf("Fetch over a %s cache file did not refetch", tt.name)
			}
			if r := f.Fetch(context.Background(), u, AccessRFC9309); !r.FromCache {
				t.Errorf("the refetched entry was not written back over the %s file", tt.name)
			}
		})
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left in the cache directory", e.Name())
		}
	}
	if len(entries) != 1 {
		t.Errorf("cache directory has %d files, want 1", len(entries))
	}
}

func TestDirCacheUnwritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	clk := newClock()
	s := cacheServer(t, clk, nil)
	// The cache "directory" is a file: every write fails, and fetching still works.
	f := &Fetcher{Now: clk.Now, Cache: cache.Dir{Dir: filepath.Join(file, "sub")}}
	if r := f.Fetch(context.Background(), s.URL+"/robots.txt", AccessRFC9309); r.Status != Parse || r.Err != nil {
		t.Errorf("Fetch with an unwritable cache = %s, err %v, want parse", r.Status, r.Err)
	}
}

func TestMemoryCacheBound(t *testing.T) {
	c := &cache.Memory{MaxEntries: 3}
	for _, k := range []string{"a", "b", "c", "d", "d"} {
		c.Put(k, []byte(k))
	}
	n := 0
	for _, k := range []string{"a", "b", "c", "d"} {
		if _, ok := c.Get(k); ok {
			n++
		}
	}
	if _, ok := c.Get("d"); !ok || n != 3 {
		t.Errorf("cache.Memory{MaxEntries: 3} holds %d entries (d: %v), want 3 including the last", n, ok)
	}
}

func TestEntryRoundTrip(t *testing.T) {
	e := &entry{URL: "https://example.org/robots.txt", FinalURL: "https://www.example.org/robots.txt", Redirects: 1,
		StatusCode: 200, Header: http.Header{"Etag": {`"x"`}}, FetchedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Body: []byte("User-agent: *\n\x00\n\xff")}
	got, err := decodeEntry(e.encode())
	if err != nil {
		t.Fatalf("decodeEntry(encode(e)) failed: %v", err)
	}
	if got.URL != e.URL || got.FinalURL != e.FinalURL || string(got.Body) != string(e.Body) || !got.FetchedAt.Equal(e.FetchedAt) || got.Header.Get("ETag") != `"x"` {
		t.Errorf("decodeEntry(encode(e)) = %+v, want %+v", got, e)
	}
}

func FuzzDecodeEntry(f *testing.F) {
	e := &entry{URL: "https://example.org/robots.txt", StatusCode: 200, FetchedAt: time.Unix(1, 0), Body: []byte(robotsBody)}
	f.Add(e.encode())
	f.Add([]byte(cacheMagic + "{}\n"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := decodeEntry(data)
		if err != nil {
			return
		}
		again, err := decodeEntry(e.encode())
		if err != nil || string(again.Body) != string(e.Body) || again.URL != e.URL {
			t.Errorf("decodeEntry(encode(decodeEntry(%q))) = %v, %v", data, again, err)
		}
	})
}

func TestLifetime(t *testing.T) {
	at := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	date := at.Format(http.TimeFormat)
	tests := []struct {
		header http.Header
		mode   *Access
		want   time.Duration
	}{
		{http.Header{}, AccessRFC9309, 24 * time.Hour},
		{http.Header{}, AccessDataTxt, 7 * 24 * time.Hour},
		{http.Header{"Cache-Control": {"public, max-age=600"}}, AccessRFC9309, 10 * time.Minute},
		{http.Header{"Cache-Control": {`max-age="600"`}}, AccessRFC9309, 10 * time.Minute},
		{http.Header{"Cache-Control": {"max-age=600"}, "Age": {"100"}}, AccessRFC9309, 500 * time.Second},
		{http.Header{"Cache-Control": {"max-age=600"}, "Age": {"1000"}}, AccessRFC9309, 0},
		{http.Header{"Cache-Control": {"max-age=600", "max-age=60"}}, AccessRFC9309, time.Minute},
		{http.Header{"Cache-Control": {"max-age=abc"}}, AccessDraft, 0},
		{http.Header{"Cache-Control": {"max-age=99999999999999"}}, AccessDraft, MaxLifetime},
		{http.Header{"Cache-Control": {"no-cache"}}, AccessDraft, 0},
		{http.Header{"Cache-Control": {"No-Store"}}, AccessDraft, 0},
		{http.Header{"Pragma": {"no-cache"}}, AccessDraft, 0},
		{http.Header{"Pragma": {"no-cache"}, "Cache-Control": {"max-age=60"}}, AccessDraft, time.Minute},
		{http.Header{"Expires": {"0"}}, AccessDraft, 0},
		{http.Header{"Expires": {at.Add(-time.Hour).Format(http.TimeFormat)}, "Date": {date}}, AccessDraft, 0},
		{http.Header{"Expires": {at.Add(3 * time.Hour).Format(http.TimeFormat)}, "Date": {date}}, AccessDraft, 3 * time.Hour},
		{http.Header{"Expires": {at.Add(30 * time.Hour).Format(http.TimeFormat)}}, AccessRFC9309, 24 * time.Hour},
		// Expires is relative to the server's Date, not to our clock.
		{http.Header{"Expires": {at.Add(-22 * time.Hour).Format(http.TimeFormat)}, "Date": {at.Add(-24 * time.Hour).Format(http.TimeFormat)}}, AccessDraft, 2 * time.Hour},
	}
	for _, tt := range tests {
		e := &entry{Header: tt.header, FetchedAt: at}
		if got, why := e.lifetime(tt.mode); got != tt.want {
			t.Errorf("lifetime(%v, %s) = %v (%s), want %v", tt.header, tt.mode, got, why, tt.want)
		}
	}
}

func TestRetryAfterHeader(t *testing.T) {
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		v    string
		want time.Duration
	}{
		{"", DefaultRetry},
		{"30", 30 * time.Second},
		{"-5", DefaultRetry},
		{"soon", DefaultRetry},
		{"999999999", MaxRetry},
		{now.Add(time.Hour).Format(http.TimeFormat), time.Hour},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0},
	}
	for _, tt := range tests {
		if got := retryAfter(http.Header{"Retry-After": {tt.v}}, now, DefaultRetry); got != tt.want {
			t.Errorf("retryAfter(%q) = %v, want %v", tt.v, got, tt.want)
		}
	}
}

// FuzzParseRetryAfter: any value reads as a pause within [0, MaxRetry],
// or as none; a number of seconds reads as itself.
func FuzzParseRetryAfter(f *testing.F) {
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	for _, s := range []string{"120", " 3 ", "-1", "99999999999999999999", now.Add(time.Hour).Format(http.TimeFormat), "Sun, 06 Nov 1994 08:49:37 GMT", "soon"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		d, ok := ParseRetryAfter(v, now)
		if !ok && d != 0 || d < 0 || d > MaxRetry {
			t.Fatalf("ParseRetryAfter(%q) = %v, %v; want a pause within [0, %v], or none", v, d, ok, MaxRetry)
		}
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 0 && n < 3600 && (!ok || d != time.Duration(n)*time.Second) {
			t.Fatalf("ParseRetryAfter(%q) = %v, %v; want %d s", v, d, ok, n)
		}
	})
}

func FuzzCacheControl(f *testing.F) {
	for _, s := range []string{"max-age=60", "no-store, no-cache", `max-age="1"`, "max-age=-1,,", "=,=="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		e := &entry{Header: http.Header{"Cache-Control": {v}}, FetchedAt: time.Unix(0, 0)}
		for _, m := range allModes {
			d, _ := e.lifetime(m)
			if d < 0 || d > MaxLifetime || (m == AccessRFC9309 && d > RFCLifetime) {
				t.Errorf("lifetime(Cache-Control: %q, %s) = %v, out of bounds", v, m, d)
			}
		}
	})
}

func TestMemoryCacheBounds(t *testing.T) {
	c := &cache.Memory{MaxEntries: 3, MaxBytes: 10}
	c.Put("a", []byte("1234"))
	c.Put("b", []byte("1234"))
	c.Put("c", []byte("1234")) // 12 bytes: one of a, b must go
	if n, b := c.Len(); b > 10 || n != 2 {
		t.Errorf("after 3 puts of 4 bytes with MaxBytes 10: %d entries, %d bytes", n, b)
	}
	if _, ok := c.Get("c"); !ok {
		t.Errorf("the newest entry was evicted")
	}
	c.Put("c", []byte("12")) // replacing counts the new size only
	c.Put("d", []byte("1"))
	c.Put("e", []byte("1"))
	if n, b := c.Len(); n > 3 || b > 10 {
		t.Errorf("%d entries, %d bytes; want at most 3 and 10", n, b)
	}
	c.Put("huge", make([]byte, 11))
	if _, ok := c.Get("huge"); ok {
		t.Errorf("a value larger than MaxBytes was kept")
	}
}

// TestEntryBoundFits: the directory cache reads back an entry of 16 times
// the default size limit (cache cannot import fetch, so the bound is
// written as a number there and checked here).
func TestEntryBoundFits(t *testing.T) {
	if cache.DefaultMaxEntryBytes < 16*DefaultMaxSize+entryOverhead {
		t.Errorf("cache.DefaultMaxEntryBytes = %d, want at least %d", cache.DefaultMaxEntryBytes, 16*DefaultMaxSize+entryOverhead)
	}
}
