package fetch

import (
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestOpen(t *testing.T) {
	var hits atomic.Int32
	big := strings.Repeat("x", 2000)
	mux := http.NewServeMux()
	mux.HandleFunc("/small", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Cache-Control", "max-age=60")
		io.WriteString(w, "small body")
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Cache-Control", "max-age=60")
		io.WriteString(w, big)
	})
	mux.HandleFunc("/gz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		io.WriteString(zw, "decoded")
		zw.Close()
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/small", http.StatusFound) })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "start")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	f := &Fetcher{MaxSize: 1000, Timeout: 2 * time.Second}
	read := func(path string) (*Stream, string, error) {
		s, err := f.Open(context.Background(), srv.URL+path)
		if err != nil {
			return nil, "", err
		}
		defer s.Body.Close()
		b, err := io.ReadAll(s.Body)
		return s, string(b), err
	}

	if s, body, err := read("/small"); err != nil || body != "small body" || s.FromCache {
		t.Fatalf("Open(/small) = %+v, %q, %v", s, body, err)
	}
	if s, body, err := read("/small"); err != nil || body != "small body" || !s.FromCache || hits.Load() != 1 {
		t.Errorf("second Open(/small) = FromCache %v, %q, %v after %d requests; want the cached copy", s.FromCache, body, err, hits.Load())
	}
	hits.Store(0)
	read("/big")
	if s, body, err := read("/big"); err != nil || body != big || s.FromCache || hits.Load() != 2 {
		t.Errorf("Open(/big) twice: FromCache %v, %d bytes, %v after %d requests; a body over MaxSize is never cached", s.FromCache, len(body), err, hits.Load())
	}
	if _, body, err := read("/gz"); err != nil || body != "decoded" {
		t.Errorf("Open(/gz) = %q, %v; want the gzip body decoded", body, err)
	}
	if s, _, err := read("/moved"); err != nil || s.Redirects != 1 || !strings.HasSuffix(s.FinalURL, "/small") {
		t.Errorf("Open(/moved) = %+v, %v; want one redirect to /small", s, err)
	}
	_, _, err := read("/missing")
	var se *StatusError
	if !errors.As(err, &se) || se.Code != 404 || err.Error() != "HTTP 404 Not Found" {
		t.Errorf("Open(/missing) error = %v; want a StatusError for HTTP 404 Not Found", err)
	}
	// The timeout is a second: the headers must come within it (200 ms
	// could pass before them on a loaded machine), the body never does.
	f2 := &Fetcher{Timeout: time.Second}
	s, err := f2.Open(context.Background(), srv.URL+"/slow")
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.Copy(io.Discard, s.Body)
	s.Body.Close()
	var ne *NetError
	if !errors.As(err, &ne) || !strings.Contains(err.Error(), "timeout") {
		t.Errorf("reading a body past the timeout: %v; want a NetError naming the timeout", err)
	}
	if _, err := f.Open(context.Background(), "ftp://example.org/x"); err == nil {
		t.Error("Open(ftp://...) succeeded; want an error")
	}
}

// TestOpenFetchOneKey: Fetch and Open keep a URL under one cache key
// (fetchKey), however it is spelt: a response one stored is answered to
// the other, from the cache, spelt the other way, with one request.
func TestOpenFetchOneKey(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Cache-Control", "max-age=60")
		io.WriteString(w, "<urlset/>")
	}))
	defer srv.Close()
	_, port, _ := strings.Cut(strings.TrimPrefix(srv.URL, "http://"), ":")
	plain := srv.URL + "/sitemap.xml"
	odd := "HTTP://127.1:0" + port + "/sitemap.xml#top" // the same URL: 127.1 is 127.0.0.1, a port's leading zero, a fragment
	type opener func(f *Fetcher, u string) (fromCache bool, body string, err error)
	fetchIt := func(f *Fetcher, u string) (bool, string, error) {
		r := f.Fetch(context.Background(), u, AccessRFC9309)
		return r.FromCache, string(r.Body), r.Err
	}
	openIt := func(f *Fetcher, u string) (bool, string, error) {
		s, err := f.Open(context.Background(), u)
		if err != nil {
			return false, "", err
		}
		defer s.Body.Close()
		b, err := io.ReadAll(s.Body)
		return s.FromCache, string(b), err
	}
	for _, tt := range []struct {
		name          string
		first, second opener
		u1, u2        string
	}{
		{"Fetch, then Open", fetchIt, openIt, plain, odd},
		{"Open, then Fetch", openIt, fetchIt, odd, plain},
		{"Open, then Open", openIt, openIt, plain, odd},
		{"Fetch, then Fetch", fetchIt, fetchIt, odd, plain},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hits.Store(0)
			f := &Fetcher{MaxSize: 1000, Timeout: 2 * time.Second}
			if _, body, err := tt.first(f, tt.u1); err != nil || body != "<urlset/>" {
				t.Fatalf("%s(%q) = %q, %v; want the body", tt.name, tt.u1, body, err)
			}
			if fromCache, body, err := tt.second(f, tt.u2); err != nil || body != "<urlset/>" || !fromCache || hits.Load() != 1 {
				t.Errorf("%s: second (%q) = FromCache %v, %q, %v after %d requests; want the first's cache entry, 1 request", tt.name, tt.u2, fromCache, body, err, hits.Load())
			}
		})
	}
}
