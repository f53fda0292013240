package discover

import (
	"context"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/pace"
)

// testSite is a loopback site served from a directory of testdata: each
// file at its path, "{{site}}" replaced by the site's URL, the header
// fields of _headers (lines "PATH<TAB>Name: value") added; it counts the
// requests for each path.
type testSite struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

func newTestSite(t *testing.T, dir string, override map[string]string) *testSite {
	t.Helper()
	s := &testSite{hits: map[string]int{}}
	headers := map[string][]string{}
	if b, err := os.ReadFile(filepath.Join(dir, "_headers")); err == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			p, h, _ := strings.Cut(l, "\t")
			headers[p] = append(headers[p], h)
		}
	}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		s.mu.Unlock()
		p := r.URL.Path
		if p == "/" {
			p = "/index.html"
		}
		body, ok := override[p]
		if code, isStatus := strings.CutPrefix(body, "status:"); ok && isStatus {
			n, _ := strconv.Atoi(code)
			w.WriteHeader(n)
			return
		}
		if !ok {
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path.Clean(p))))
			if err != nil || strings.HasPrefix(path.Base(p), "_") {
				http.NotFound(w, r)
				return
			}
			body = string(b)
		}
		for _, h := range headers[r.URL.Path] {
			name, value, _ := strings.Cut(h, ": ")
			w.Header().Add(name, strings.ReplaceAll(value, "{{site}}", s.URL))
		}
		ct := mime.TypeByExtension(path.Ext(p))
		if path.Ext(p) == ".jsonld" {
			ct = "application/ld+json"
		}
		w.Header().Set("Content-Type", ct)
		w.Write([]byte(strings.ReplaceAll(body, "{{site}}", s.URL)))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *testSite) hitsOf(p string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[p]
}

// recordingPacer is a Pacer that answers at once and records the pace
// each request was reserved at, so that a test checks the spacing asked
// for without waiting for it.
type recordingPacer struct {
	mu    sync.Mutex
	paces []pace.Pace
	sites []string
}

func (p *recordingPacer) Acquire(_ context.Context, site string, pc pace.Pace) (time.Duration, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paces, p.sites = append(p.paces, pc), append(p.sites, site)
	return 0, nil
}

func (p *recordingPacer) Report(context.Context, string, int, string) (pace.Pause, error) {
	return pace.Pause{}, nil
}

// discoverSite runs Site over a test site with every kind.
func discoverSite(t *testing.T, s *testSite, opts Options) *Result {
	t.Helper()
	if opts.Fetcher == nil {
		opts.Fetcher = &fetch.Fetcher{UserAgent: "TestBot/1.0"}
	}
	res, err := Site(context.Background(), s.URL+"/", opts)
	if err != nil {
		t.Fatalf("Site(%s): %v", s.URL, err)
	}
	return res
}
