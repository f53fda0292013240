package fetch

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/cache"
)

// BenchmarkFetchCached measures a cache hit: decoding and checking the entry.
func BenchmarkFetchCached(b *testing.B) {
	body := strings.Repeat("Disallow: /some/path/\n", 2000) // 44 KB
	s := newBenchServer(b, body)
	f := &Fetcher{}
	u := s.URL + "/robots.txt"
	f.Fetch(context.Background(), u, AccessRFC9309)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if r := f.Fetch(context.Background(), u, AccessRFC9309); !r.FromCache {
			b.Fatal("not from cache")
		}
	}
}

// BenchmarkFetchLoopback measures a full fetch over loopback.
func BenchmarkFetchLoopback(b *testing.B) {
	body := strings.Repeat("Disallow: /some/path/\n", 2000)
	s := newBenchServer(b, body)
	f := &Fetcher{Cache: cache.None{}}
	u := s.URL + "/robots.txt"
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if r := f.Fetch(context.Background(), u, AccessRFC9309); r.Status != Parse {
			b.Fatal(r.Status, r.Err)
		}
	}
}

func newBenchServer(b *testing.B, body string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) }))
	b.Cleanup(srv.Close)
	return srv
}
