package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/cache"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/clocktest"
)

// newClock returns a clock at 2026-11-22 00:00 UTC for Fetcher.Now.
func newClock() *clocktest.Clock {
	return clocktest.New(time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC))
}

// server is an httptest server on loopback that counts its hits.
type server struct {
	*httptest.Server
	hits atomic.Int64
}

func newServer(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// allModes is the access method of each robots.txt profile (rfc9309,
// google, draft, norobots), then data.txt's.
var allModes = []*Access{AccessRFC9309, AccessRFC9309, AccessDraft, AccessDraft, AccessDataTxt}

const robotsBody = "User-agent: *\nDisallow: /private/\n"

// TestMeaning fetches every status class under every mode.
func TestMeaning(t *testing.T) {
	P, A, D, F, N, E := Parse, AllowAll, DisallowAll, Defer, NotFound, Error
	tests := []struct {
		name string
		code int // 0: the case is not a status code, see name
		want [6]Status
		err  [6]bool // whether Result.Err is set
	}{
		{"200", 200, [6]Status{P, P, P, P, P, P}, [6]bool{false, false, false, false, false, false}},
		{"204", 204, [6]Status{P, P, P, P, P, E}, [6]bool{false, false, false, false, false, true}},
		{"300 without Location", 300, [6]Status{A, A, A, A, E, E}, [6]bool{false, false, false, false, true, true}},
		{"400", 400, [6]Status{A, A, A, A, E, E}, [6]bool{false, false, false, false, true, true}},
		{"401", 401, [6]Status{A, A, D, D, E, E}, [6]bool{false, false, false, false, true, true}},
		{"403", 403, [6]Status{A, A, D, D, E, E}, [6]bool{false, false, false, false, true, true}},
		{"404", 404, [6]Status{A, A, A, A, N, N}, [6]bool{false, false, false, false, false, false}},
		{"408", 408, [6]Status{A, A, F, F, E, E}, [6]bool{false, false, false, false, true, true}},
		{"410", 410, [6]Status{A, A, A, A, N, N}, [6]bool{false, false, false, false, false, false}},
		{"418", 418, [6]Status{A, A, A, A, E, E}, [6]bool{false, false, false, false, true, true}},
		{"429", 429, [6]Status{D, D, F, F, E, E}, [6]bool{true, true, true, true, true, true}},
		{"500", 500, [6]Status{D, D, F, F, E, E}, [6]bool{true, true, true, true, true, true}},
		{"503", 503, [6]Status{D, D, F, F, E, E}, [6]bool{true, true, true, true, true, true}},
		{"599", 599, [6]Status{D, D, F, F, E, E}, [6]bool{true, true, true, true, true, true}},
		{"connection refused", 0, [6]Status{D, D, F, F, E, E}, [6]bool{true, true, true, true, true, true}},
		{"9 redirects", 0, [6]Status{A, A, A, A, E, E}, [6]bool{true, true, true, true, true, true}},
	}
	for _, tt := range tests {
		for i, m := range append(allModes[:len(allModes):len(allModes)], AccessSignatures) {
			t.Run(tt.name+"/"+m.String(), func(t *testing.T) {
				var s *server
				s = newServer(t, func(w http.ResponseWriter, r *http.Request) {
					if tt.name == "9 redirects" {
						n, _ := strconv.Atoi(r.URL.Query().Get("n"))
						if n < 9 {
							http.Redirect(w, r, fmt.Sprintf("%s/robots.txt?n=%d", s.URL, n+1), http.StatusFound)
							return
						}
					}
					code := tt.code
					if code == 0 {
						code = 200
					}
					w.WriteHeader(code)
					io.WriteString(w, robotsBody)
				})
				u := s.URL + "/robots.txt"
				if tt.name == "connection refused" {
					s.Close()
				}
				f := &Fetcher{Cache: cache.None{}, Retry: -1}
				r := f.Fetch(context.Background(), u, m)
				if r.Status != tt.want[i] {
					t.Errorf("Fetch(%s, %s).Status = %s, want %s (%s; err %v)", tt.name, m, r.Status, tt.want[i], r.Reason, r.Err)
				}
				if (r.Err != nil) != tt.err[i] {
					t.Errorf("Fetch(%s, %s).Err = %v, want error %v", tt.name, m, r.Err, tt.err[i])
				}
				if r.Reason == "" {
					t.Errorf("Fetch(%s, %s).Reason is empty", tt.name, m)
				}
				if wantBody := r.Status == Parse; (len(r.Body) > 0) != wantBody && tt.code != 204 {
					t.Errorf("Fetch(%s, %s).Body = %q, want a body: %v", tt.name, m, r.Body, wantBody)
				}
				if tt.code != 0 && r.HTTPStatus != tt.code {
					t.Errorf("Fetch(%s, %s).HTTPStatus = %d, want %d", tt.name, m, r.HTTPStatus, tt.code)
				}
			})
		}
	}
}

func TestDeferRetryAfter(t *testing.T) {
	clk := newClock()
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("date") != "" {
			w.Header().Set("Retry-After", clk.Now().Add(2*time.Hour).Format(http.TimeFormat))
			w.Header().Set("Date", clk.Now().Format(http.TimeFormat))
		} else if r.URL.Query().Get("none") == "" {
			w.Header().Set("Retry-After", "120")
		}
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	tests := []struct {
		query string
		want  time.Duration
	}{
		{"", 120 * time.Second},
		{"?date=1", 2 * time.Hour},
		{"?none=1", DefaultRetry},
	}
	for _, tt := range tests {
		f := &Fetcher{Now: clk.Now}
		r := f.Fetch(context.Background(), s.URL+"/robots.txt"+tt.query, AccessDraft)
		if r.Status != Defer {
			t.Fatalf("Fetch(503%s).Status = %s, want defer", tt.query, r.Status)
		}
		if got := r.RetryAfter.Sub(clk.Now()); got != tt.want {
			t.Errorf("Fetch(503%s).RetryAfter = now+%v, want now+%v", tt.query, got, tt.want)
		}
	}
}

func TestRedirects(t *testing.T) {
	other := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		if n > 0 {
			http.Redirect(w, r, fmt.Sprintf("/robots.txt?n=%d", n-1), http.StatusMovedPermanently)
			return
		}
		io.WriteString(w, robotsBody)
	})
	// The first hop goes to another host (port); the rest stay there.
	first := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/ftp":
			http.Redirect(w, r, "ftp://example.org/robots.txt", http.StatusFound)
		default:
			n, _ := strconv.Atoi(r.URL.Query().Get("n"))
			http.Redirect(w, r, fmt.Sprintf("%s/robots.txt?n=%d", other.URL, n-1), http.StatusTemporaryRedirect)
		}
	})
	tests := []struct {
		path      string
		want      Status
		redirects int
		final     string
		reason    string // what the Reason must say
	}{
		{"/robots.txt?n=3", Parse, 3, other.URL + "/robots.txt?n=0", "success"},
		{"/robots.txt?n=5", Parse, 5, other.URL + "/robots.txt?n=0", "success"},
		{"/robots.txt?n=6", AllowAll, 5, other.URL + "/robots.txt?n=1", "unavailable (more than 5 redirects (redirect 6 goes to " + other.URL + "/robots.txt?n=0))"},
		{"/robots.txt?n=9", AllowAll, 5, other.URL + "/robots.txt?n=4", "unavailable (more than 5 redirects (redirect 6 goes to " + other.URL + "/robots.txt?n=3))"},
		{"/loop", AllowAll, 5, first.URL + "/loop", "more than 5 redirects (redirect 6 goes to " + first.URL + "/loop)"},
		{"/ftp", AllowAll, 0, first.URL + "/ftp", "unavailable (redirect 1 goes to ftp://example.org/robots.txt, not an http or https URL)"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			f := &Fetcher{Cache: cache.None{}}
			r := f.Fetch(context.Background(), first.URL+tt.path, AccessRFC9309)
			if r.Status != tt.want || r.Redirects != tt.redirects || r.FinalURL != tt.final {
				t.Errorf("Fetch(%s) = %s after %d redirects at %s, want %s after %d at %s (%s; %v)",
					tt.path, r.Status, r.Redirects, r.FinalURL, tt.want, tt.redirects, tt.final, r.Reason, r.Err)
			}
			if !strings.Contains(r.Reason, tt.reason) {
				t.Errorf("Fetch(%s).Reason = %q, want it to say %q", tt.path, r.Reason, tt.reason)
			}
			if r.URL != first.URL+tt.path {
				t.Errorf("Fetch(%s).URL = %s, want the URL asked for", tt.path, r.URL)
			}
			if tt.want == Parse && string(r.Body) != robotsBody {
				t.Errorf("Fetch(%s).Body = %q, want %q", tt.path, r.Body, robotsBody)
			}
		})
	}
}

// allocated returns the bytes allocated while fn runs.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestLargeBody(t *testing.T) {
	chunk := bytes.Repeat([]byte("Disallow: /x\n"), 32<<10/13)
	const total = 11 << 20
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(total))
		for n := 0; n < total; n += len(chunk) {
			if _, err := w.Write(chunk[:min(len(chunk), total-n)]); err != nil {
				return
			}
		}
	})
	f := &Fetcher{Cache: cache.None{}}
	var r *Result
	alloc := allocated(func() { r = f.Fetch(context.Background(), s.URL+"/robots.txt", AccessRFC9309) })
	t.Logf("11 MB body: %d bytes allocated", alloc)
	if r.Status != Parse || len(r.Body) != DefaultMaxSize || !r.Truncated {
		t.Fatalf("Fetch(11 MB) = %s, %d bytes, truncated %v, want parse, %d bytes, truncated (%v)", r.Status, len(r.Body), r.Truncated, DefaultMaxSize, r.Err)
	}
	if alloc > 4<<20 {
		t.Errorf("Fetch(11 MB) allocated %d bytes, want < 4 MiB", alloc)
	}
}

func TestGzipBomb(t *testing.T) {
	// 100 gzip members of 1 MiB of zeros each: one gzip stream of 100 MiB,
	// built in milliseconds.
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	bomb := bytes.Repeat(z.Bytes(), 100)
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept-Encoding") != "gzip" {
			t.Errorf("Accept-Encoding = %q, want gzip", r.Header.Get("Accept-Encoding"))
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Type", "text/plain")
		w.Write(bomb)
	})
	f := &Fetcher{Cache: cache.None{}}
	var r *Result
	alloc := allocated(func() { r = f.Fetch(context.Background(), s.URL+"/robots.txt", AccessRFC9309) })
	t.Logf("gzip bomb (%d bytes, 100 MiB decoded): %d bytes allocated", len(bomb), alloc)
	if r.Status != Parse || len(r.Body) != DefaultMaxSize || !r.Truncated {
		t.Fatalf("Fetch(gzip bomb) = %s, %d bytes, truncated %v, want parse, %d bytes, truncated (%v)", r.Status, len(r.Body), r.Truncated, DefaultMaxSize, r.Err)
	}
	if alloc > 4<<20 {
		t.Errorf("Fetch(gzip bomb) allocated %d bytes, want < 4 MiB", alloc)
	}
}

func TestGzipSmall(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		io.WriteString(zw, robotsBody)
		zw.Close()
	})
	f := &Fetcher{Cache: cache.None{}}
	r := f.Fetch(context.Background(), s.URL+"/robots.txt", AccessRFC9309)
	if r.Status != Parse || string(r.Body) != robotsBody || r.Truncated {
		t.Errorf("Fetch(gzip) = %s %q truncated %v, want parse %q", r.Status, r.Body, r.Truncated, robotsBody)
	}
}

func TestBrokenGzip(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		io.WriteString(w, "not gzip at all")
	})
	f := &Fetcher{Cache: cache.None{}}
	if r := f.Fetch(context.Background(), s.URL+"/robots.txt", AccessRFC9309); r.Status != DisallowAll || r.Err == nil {
		t.Errorf("Fetch(broken gzip) = %s, err %v, want disallow-all with an error", r.Status, r.Err)
	}
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	for _, tt := range []struct {
		m    *Access
		want Status
	}{{AccessRFC9309, DisallowAll}, {AccessDraft, Defer}, {AccessDataTxt, Error}} {
		f := &Fetcher{Cache: cache.None{}, Timeout: 200 * time.Millisecond}
		r := f.Fetch(context.Background(), s.URL+"/robots.txt", tt.m)
		if r.Status != tt.want || r.Err == nil || r.HTTPStatus != 0 {
			t.Errorf("Fetch(never answers, %s) = %s, HTTP %d, err %v, want %s with an error", tt.m, r.Status, r.HTTPStatus, r.Err, tt.want)
		}
	}
}

// TestCallerCancel: when its only caller gives up, a fetch stops (the
// server sees its request canceled), nothing is remembered of it, and the
// next caller fetches anew.
func TestCallerCancel(t *testing.T) {
	release := make(chan struct{})
	arrived, gone := make(chan struct{}, 4), make(chan struct{}, 4)
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select {
		case <-r.Context().Done():
			gone <- struct{}{}
		case <-release:
			io.WriteString(w, robotsBody)
		}
	})
	f := &Fetcher{}
	// The caller gives up once the server holds its request (a deadline
	// could pass before a starved client had even sent it).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { <-arrived; cancel() }()
	if r := f.Fetch(ctx, s.URL+"/robots.txt", AccessRFC9309); r.Status != DisallowAll || r.Err == nil {
		t.Errorf("Fetch(canceled) = %s, err %v, want disallow-all with an error", r.Status, r.Err)
	}
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the server's request was not canceled after its only caller left")
	}
	close(release)
	r := f.Fetch(context.Background(), s.URL+"/robots.txt", AccessRFC9309)
	if r.Status != Parse {
		t.Errorf("Fetch after cancel = %s, want parse (an abandoned fetch is not remembered as a failure)", r.Status)
	}
	if n := s.hits.Load(); n != 2 {
		t.Errorf("server hits = %d, want 2", n)
	}
}

func TestHTMLBody(t *testing.T) {
	const page = "<!DOCTYPE html>\n<html><head><title>Not found</title></head><body>Sorry</body></html>\n"
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page)
	})
	f := &Fetcher{Cache: cache.None{}}
	r := f.Fetch(context.Background(), s.URL+"/robots.txt", AccessRFC9309)
	if r.Status != Parse || string(r.Body) != page || r.ContentType != "text/html; charset=utf-8" {
		t.Fatalf("Fetch(HTML) = %s %q (%s), want parse with the page", r.Status, r.Body, r.ContentType)
	}
	file := grammar.Parse("robots.txt", r.Body, grammar.Options{})
	found := false
	for _, d := range file.Diagnostics {
		found = found || d.Code == "markup"
	}
	if !found {
		t.Errorf("grammar.Parse(HTML body) has no markup diagnostic: %v", file.Diagnostics)
	}
}

func TestUserAgentAndConditional(t *testing.T) {
	var gotUA, gotINM atomic.Value
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		gotUA.Store(r.Header.Get("User-Agent"))
		gotINM.Store(r.Header.Get("If-None-Match"))
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Cache-Control", "max-age=60")
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		io.WriteString(w, robotsBody)
	})
	clk := newClock()
	f := &Fetcher{UserAgent: "ExampleBot/1.0", Now: clk.Now}
	r := f.Fetch(context.Background(), s.URL+"/robots.txt", AccessRFC9309)
	if ua := gotUA.Load(); ua != "ExampleBot/1.0" {
		t.Errorf("User-Agent = %q, want ExampleBot/1.0", ua)
	}
	if r.FromCache || r.Status != Parse {
		t.Fatalf("first Fetch = %s, from cache %v, want parse from the server", r.Status, r.FromCache)
	}
	clk.Advance(61 * time.Second)
	r = f.Fetch(context.Background(), s.URL+"/robots.txt", AccessRFC9309)
	if inm := gotINM.Load(); inm != `"v1"` {
		t.Errorf("If-None-Match = %q, want \"v1\"", inm)
	}
	if !r.FromCache || !r.Revalidated || string(r.Body) != robotsBody || r.HTTPStatus != 200 {
		t.Errorf("revalidated Fetch = %s %q HTTP %d, cache %v, revalidated %v; want the cached 200 body, revalidated",
			r.Status, r.Body, r.HTTPStatus, r.FromCache, r.Revalidated)
	}
	if want := clk.Now().Add(60 * time.Second); !r.Expires.Equal(want) {
		t.Errorf("revalidated Fetch.Expires = %v, want %v", r.Expires, want)
	}
	if n := s.hits.Load(); n != 2 {
		t.Errorf("server hits = %d, want 2", n)
	}
}

func TestBadURL(t *testing.T) {
	f := &Fetcher{}
	for _, u := range []string{"ftp://example.org/robots.txt", "/robots.txt", "http://", "http://a b/"} {
		if r := f.Fetch(context.Background(), u, AccessRFC9309); r.Status != Error || r.Err == nil {
			t.Errorf("Fetch(%q) = %s, err %v, want error", u, r.Status, r.Err)
		}
	}
}

func TestResultFailure(t *testing.T) {
	f := &Fetcher{}
	r := f.Fetch(context.Background(), "ftp://example.org/robots.txt", AccessRFC9309)
	if got, want := r.Failure().Error(), `cannot fetch ftp://example.org/robots.txt: unsupported scheme "ftp" (want http or https)`; got != want {
		t.Errorf("Failure() = %q, want %q", got, want)
	}
	r = &Result{URL: "https://example.org/data.txt", Reason: "data.txt could not be fetched (HTTP 500)"}
	if got, want := r.Failure().Error(), "cannot fetch https://example.org/data.txt: data.txt could not be fetched (HTTP 500)"; got != want {
		t.Errorf("Failure() = %q, want %q", got, want)
	}
}
