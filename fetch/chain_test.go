package fetch

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/sitetxt/sitetxt/cache"
)

// TestRedirectChain: the URLs redirects led through are in the Result, and
// stored with the response, so a Fetcher reading the cache sees them too.
func TestRedirectChain(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.Redirect(w, r, "/a", http.StatusMovedPermanently)
		case "/a":
			http.Redirect(w, r, "/b", http.StatusFound)
		default:
			io.WriteString(w, "User-agent: *\nDisallow: /x\n")
		}
	}))
	defer srv.Close()
	mem := new(cache.Memory)
	want := []string{srv.URL + "/a", srv.URL + "/b"}
	for i, f := range []*Fetcher{{Cache: mem}, {Cache: mem}} {
		r := f.Fetch(context.Background(), srv.URL+"/robots.txt", AccessRFC9309)
		if !slices.Equal(r.Chain, want) || r.Redirects != 2 || r.FinalURL != want[1] || r.FromCache != (i == 1) {
			t.Errorf("Fetch #%d: Chain = %q, Redirects = %d, FinalURL = %q, FromCache = %v; want %q, 2, %q, %v",
				i+1, r.Chain, r.Redirects, r.FinalURL, r.FromCache, want, want[1], i == 1)
		}
	}
}
