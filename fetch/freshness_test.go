package fetch

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/cache"
)

// TestNegativeLifetime: a 404 or 410 is kept at most NegativeLifetime
// (24 h) under every access method, whatever the method's default or the
// server's max-age; a data.txt 404 was kept the drafts' 7 days (issue 35,
// item 3).
func TestNegativeLifetime(t *testing.T) {
	for _, tt := range []struct {
		mode  *Access
		code  int
		cc    string
		fresh time.Duration
	}{
		{AccessDataTxt, http.StatusNotFound, "", 24 * time.Hour},
		{AccessDataTxt, http.StatusGone, "", 24 * time.Hour},
		{AccessDraft, http.StatusNotFound, "", 24 * time.Hour},
		{AccessDraft, http.StatusNotFound, "max-age=1209600", 24 * time.Hour},
		{AccessRFC9309, http.StatusNotFound, "", 24 * time.Hour},
		{AccessDataTxt, http.StatusNotFound, "max-age=600", 10 * time.Minute},
	} {
		t.Run(tt.mode.String()+"/"+http.StatusText(tt.code)+"/"+tt.cc, func(t *testing.T) {
			clk := newClock()
			s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				if tt.cc != "" {
					w.Header().Set("Cache-Control", tt.cc)
				}
				w.WriteHeader(tt.code)
			})
			f := &Fetcher{Now: clk.Now}
			r := f.Fetch(context.Background(), s.URL+"/data.txt", tt.mode)
			if want := clk.Now().Add(tt.fresh); !r.Expires.Equal(want) {
				t.Errorf("a %d under %s: Expires = now+%v, want now+%v", tt.code, tt.mode, r.Expires.Sub(clk.Now()), tt.fresh)
			}
		})
	}
}

// TestRefresh: with RefreshBefore the server is asked although the cache
// holds a fresh copy fetched before it, once: its new answer replaces the
// cached one for later fetches (issue 35, item 3: --no-cache did not
// refresh the cache, so the next run was stale again).
func TestRefresh(t *testing.T) {
	clk := newClock()
	var body atomic.Value
	body.Store("User-agent: *\nDisallow: /old\n")
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(body.Load().(string)))
	})
	cache := new(cache.Memory)
	u := s.URL + "/robots.txt"
	(&Fetcher{Now: clk.Now, Cache: cache}).Fetch(context.Background(), u, AccessRFC9309)
	body.Store("User-agent: *\nDisallow: /new\n")
	clk.Advance(time.Hour)
	if r := (&Fetcher{Now: clk.Now, Cache: cache}).Fetch(context.Background(), u, AccessRFC9309); !r.FromCache || string(r.Body) != "User-agent: *\nDisallow: /old\n" {
		t.Fatalf("a fetch within the lifetime: from cache %v, %q; want the cached copy", r.FromCache, r.Body)
	}
	refresh := &Fetcher{Now: clk.Now, Cache: cache, RefreshBefore: clk.Now()}
	r := refresh.Fetch(context.Background(), u, AccessRFC9309)
	if r.FromCache || string(r.Body) != "User-agent: *\nDisallow: /new\n" || !r.FetchedAt.Equal(clk.Now()) {
		t.Errorf("Refresh: from cache %v, %q, fetched at %v; want the server's new file, fetched now", r.FromCache, r.Body, r.FetchedAt)
	}
	if again := refresh.Fetch(context.Background(), u, AccessDraft); !again.FromCache {
		t.Errorf("the refreshing fetcher asked the server again for a copy it fetched itself")
	}
	later := (&Fetcher{Now: clk.Now, Cache: cache}).Fetch(context.Background(), u, AccessRFC9309)
	if !later.FromCache || string(later.Body) != "User-agent: *\nDisallow: /new\n" || !later.Expires.Equal(clk.Now().Add(RFCLifetime)) {
		t.Errorf("after Refresh: from cache %v, %q, expires %v; want the new copy, fresh for 24 h", later.FromCache, later.Body, later.Expires)
	}
	if n := s.hits.Load(); n != 2 {
		t.Errorf("server asked %d times, want 2 (the first fetch and the refresh)", n)
	}
}
