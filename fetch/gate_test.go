package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// TestGate: a context's Gate is asked before every request a Fetcher
// sends for it (Fetch, Open, Headers, and each redirect), never for an
// answer from the cache; a refused request is not sent, its error is a
// *RefusedError, and it is not remembered as the site's failure.
func TestGate(t *testing.T) {
	var mu sync.Mutex
	var hits []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits = append(hits, r.Method+" "+r.URL.Path)
		mu.Unlock()
		if r.URL.Path == "/moved" {
			http.Redirect(w, r, "/private/x", http.StatusFound)
			return
		}
		w.Header().Set("Link", `<https://doi.org/10.1/x>; rel="cite-as"`)
		w.Write([]byte("body"))
	}))
	defer srv.Close()
	var asked []string
	gate := Gate(func(ctx context.Context, u string) error {
		asked = append(asked, strings.TrimPrefix(u, srv.URL))
		if strings.Contains(u, "/private/") {
			return errors.New("disallowed by robots.txt")
		}
		return nil
	})
	ctx := WithGate(context.Background(), gate)
	f := &Fetcher{}
	tests := []struct {
		name, path string
		do         func(string) error
		asked      string // the gate's questions
		hits       string // the server's requests
		refused    bool
	}{
		{"fetch", "/page", func(u string) error { return f.Fetch(ctx, u, AccessDocument).Err }, "/page", "GET /page", false},
		{"cached", "/page", func(u string) error { return f.Fetch(ctx, u, AccessDocument).Err }, "", "", false},
		{"refused", "/private/a", func(u string) error { return f.Fetch(ctx, u, AccessDocument).Err }, "/private/a", "", true},
		{"redirect refused", "/moved", func(u string) error { return f.Fetch(ctx, u, AccessDocument).Err }, "/moved|/private/x", "GET /moved", true},
		{"open refused", "/private/b", func(u string) error { _, err := f.Open(ctx, u); return err }, "/private/b", "", true},
		{"headers refused", "/private/c", func(u string) error { _, err := f.Headers(ctx, u); return err }, "/private/c", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asked, hits = nil, nil
			err := tt.do(srv.URL + tt.path)
			var re *RefusedError
			if got := errors.As(err, &re); got != tt.refused {
				t.Errorf("%s %s: error %v, refused = %v, want %v", tt.name, tt.path, err, got, tt.refused)
			}
			if got := strings.Join(asked, "|"); got != tt.asked {
				t.Errorf("%s %s: gate asked for %q, want %q", tt.name, tt.path, got, tt.asked)
			}
			if got := strings.Join(hits, "|"); got != tt.hits {
				t.Errorf("%s %s: server saw %q, want %q", tt.name, tt.path, got, tt.hits)
			}
		})
	}
	// Not remembered: without the gate the URL is asked for at once.
	hits = nil
	if r := f.Fetch(context.Background(), srv.URL+"/private/a", AccessDocument); r.Status != Parse || len(hits) != 1 {
		t.Errorf("Fetch after a refusal: status %v, %d requests, want parse after 1", r.Status, len(hits))
	}
	// The Link header is kept, from the network and from the cache.
	if r := f.Fetch(ctx, srv.URL+"/page", AccessDocument); !r.FromCache || r.Header.Get("Link") == "" {
		t.Errorf("cached Fetch: FromCache %v, Link %q, want a cached answer with its Link", r.FromCache, r.Header.Get("Link"))
	}
}
