package datatxt

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestFetcherParsesOnce: concurrent fetches of one data.txt with the same
// options make one request and one parse; other options parse again from
// the same response.
func TestFetcherParsesOnce(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "- path: d%d/data.csv\n  name: d%d\n", i, i)
	}
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Write([]byte(b.String()))
	}))
	defer srv.Close()
	var parses atomic.Int64
	f := &Fetcher{onParse: func(string) { parses.Add(1) }}
	for _, opts := range []Options{{}, {Base: "https://example.org/x/"}} {
		var wg sync.WaitGroup
		for range 100 {
			wg.Go(func() {
				c, err := f.Fetch(context.Background(), srv.URL+"/", opts)
				if err != nil || len(c.Entries) != 2000 {
					t.Errorf("Fetch(%+v) = %d entries, %v; want 2000", opts, len(c.Entries), err)
				}
			})
		}
		wg.Wait()
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("%d requests by 200 concurrent fetches, want 1", n)
	}
	if n := parses.Load(); n != 2 {
		t.Errorf("%d parses by 200 concurrent fetches with two options, want 2", n)
	}
}
