package fetch

import (
	"context"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/cache"
)

// TestWhatIsStored: files and the absence of one (2xx, 404, 410) are
// stored in the cache for their lifetime; every other answer (a 403, an
// unasked-for 304, a 5xx) is remembered only in the Fetcher's memory, for
// Retry-After or Retry, and a new Fetcher (a new process) asks again.
func TestWhatIsStored(t *testing.T) {
	tests := []struct {
		code   int
		mode   *Access
		want   Status
		err    bool // Result.Err set
		stored bool
	}{
		{200, AccessRFC9309, Parse, false, true},
		{404, AccessDataTxt, NotFound, false, true},
		{410, AccessRFC9309, AllowAll, false, true},
		{403, AccessDataTxt, Error, true, false},
		{403, AccessRFC9309, AllowAll, false, false},
		{403, AccessDraft, DisallowAll, false, false},
		{401, AccessDataTxt, Error, true, false},
		{304, AccessRFC9309, AllowAll, false, false},
		{304, AccessDataTxt, Error, true, false},
		{503, AccessDataTxt, Error, true, false},
	}
	for _, tt := range tests {
		t.Run(http.StatusText(tt.code)+"/"+tt.mode.String(), func(t *testing.T) {
			clk := newClock()
			s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.code)
				if tt.code == 200 {
					w.Write([]byte(robotsBody))
				}
			})
			u := s.URL + "/data.txt"
			dc := cache.Dir{Dir: t.TempDir()}
			f := &Fetcher{Now: clk.Now, Cache: dc}
			r := f.Fetch(context.Background(), u, tt.mode)
			if r.Status != tt.want || (r.Err != nil) != tt.err {
				t.Fatalf("Fetch(HTTP %d) = %s, err %v; want %s, err %v", tt.code, r.Status, r.Err, tt.want, tt.err)
			}
			if _, err := os.Stat(dc.Path(u)); (err == nil) != tt.stored {
				t.Errorf("HTTP %d stored on disk: %v, want %v", tt.code, err == nil, tt.stored)
			}
			// The same Fetcher, a minute later: from memory or from the cache.
			clk.Advance(time.Minute)
			if r := f.Fetch(context.Background(), u, tt.mode); r.Status != tt.want || s.hits.Load() != 1 {
				t.Errorf("second Fetch(HTTP %d) within 15 minutes = %s after %d requests, want %s after 1", tt.code, r.Status, s.hits.Load(), tt.want)
			}
			// A new Fetcher on the same directory: only what was stored is kept.
			f = &Fetcher{Now: clk.Now, Cache: dc}
			f.Fetch(context.Background(), u, tt.mode)
			want := int64(2)
			if tt.stored {
				want = 1
			}
			if n := s.hits.Load(); n != want {
				t.Errorf("a new Fetcher on the cache directory made %d requests in all for HTTP %d, want %d", n, tt.code, want)
			}
			// Past DefaultRetry the same Fetcher asks again.
			if !tt.stored {
				clk.Advance(DefaultRetry)
				f.Fetch(context.Background(), u, tt.mode)
				if n := s.hits.Load(); n != 3 {
					t.Errorf("after DefaultRetry: %d requests in all for HTTP %d, want 3", n, tt.code)
				}
			}
		})
	}
}

// TestOldEntryNotStorable: a 403 an older version stored is ignored.
func TestOldEntryNotStorable(t *testing.T) {
	clk := newClock()
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusForbidden) })
	u := s.URL + "/data.txt"
	e := &entry{URL: u, FinalURL: u, StatusCode: 403, Header: http.Header{}, FetchedAt: clk.Now()}
	f := &Fetcher{Now: clk.Now, Cache: readOnlyCache{u, string(e.encode())}}
	if r := f.Fetch(context.Background(), u, AccessDataTxt); r.FromCache || s.hits.Load() != 1 {
		t.Errorf("Fetch over a stored 403 = from cache %v after %d requests, want a request", r.FromCache, s.hits.Load())
	}
}
