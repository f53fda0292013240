package mobileagent

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

// TestFetcherCompilesOnce: 200 concurrent fetches of one site's robots.txt
// make one request and one compile, and share the Table.
func TestFetcherCompilesOnce(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "Mobile-agent-server: /p%d/ https://m.example.org/p%d/\n", i, i)
	}
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Write([]byte(b.String()))
	}))
	defer srv.Close()
	var compiles atomic.Int64
	f := &Fetcher{onCompile: func(string) { compiles.Add(1) }}
	tables := make([]*Table, 200)
	var wg sync.WaitGroup
	for i := range tables {
		wg.Go(func() {
			tab, err := f.Fetch(context.Background(), srv.URL+"/")
			if err != nil {
				t.Errorf("Fetch: %v", err)
			}
			tables[i] = tab
		})
	}
	wg.Wait()
	if n := requests.Load(); n != 1 {
		t.Errorf("%d requests by 200 concurrent fetches, want 1", n)
	}
	if n := compiles.Load(); n != 1 {
		t.Errorf("%d compiles by 200 concurrent fetches, want 1", n)
	}
	for i, tab := range tables {
		if tab != tables[0] {
			t.Errorf("fetch %d got another Table than fetch 0", i)
			break
		}
	}
}
