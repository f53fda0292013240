package rediscache_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/mobileagent"
)

// TestOtherFetchers: datatxt.Fetcher and mobileagent.Fetcher share a
// Redis cache the way robots.Client does: three processes, one request.
func TestOtherFetchers(t *testing.T) {
	srv := redistest.Start(t)
	t.Run("datatxt", func(t *testing.T) {
		st := newSite(t, 200, "- path: census/population.csv\n  name: population\n")
		st.delay = 200 * time.Millisecond
		var wg sync.WaitGroup
		for range 3 {
			f := &datatxt.Fetcher{Fetcher: &fetch.Fetcher{Cache: open(t, srv.URL())}}
			wg.Go(func() {
				c, err := f.Fetch(context.Background(), st.URL+"/", datatxt.Options{})
				if err != nil || len(c.Entries) != 1 {
					t.Errorf("Fetch(%q) = %v entries, %v; want 1 entry", st.URL, c, err)
				}
			})
		}
		wg.Wait()
		if n := st.requests.Load(); n != 1 {
			t.Errorf("data.txt requests from 3 processes = %d, want 1", n)
		}
	})
	t.Run("mobileagent", func(t *testing.T) {
		st := newSite(t, 200, "User-agent: *\nDisallow: /private/\nMobile-agent-server: /home/ atp://agents.example.org:854\n")
		st.delay = 200 * time.Millisecond
		var wg sync.WaitGroup
		for range 3 {
			f := &mobileagent.Fetcher{Fetcher: &fetch.Fetcher{Cache: open(t, srv.URL())}}
			wg.Go(func() {
				tab, err := f.Fetch(context.Background(), st.URL+"/")
				if err != nil || len(tab.Rules()) != 1 {
					t.Errorf("Fetch(%q) = %v, %v; want a table with 1 rule", st.URL, tab, err)
				}
			})
		}
		wg.Wait()
		if n := st.requests.Load(); n != 1 {
			t.Errorf("robots.txt requests from 3 processes = %d, want 1", n)
		}
	})
}
