package fetch

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sitetxt/sitetxt/internal/clocktest"
)

// countingMemo is a Memo whose values are the bodies, counting compiles.
func countingMemo(clk *clocktest.Clock, compiles *atomic.Int64) *Memo[string] {
	return &Memo[string]{Fetcher: &Fetcher{Now: clk.Now}, Access: AccessRFC9309,
		Compile: func(r *Result) string { compiles.Add(1); return string(r.Body) }}
}

// TestMemoRevalidationKeepsValue: a response revalidated with 304 (the
// same bytes) is not compiled again; a changed one is.
func TestMemoRevalidationKeepsValue(t *testing.T) {
	clk := newClock()
	var body atomic.Value
	body.Store(robotsBody)
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		b := body.Load().(string)
		etag := `"` + string(rune('a'+len(b)%26)) + `"`
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		io.WriteString(w, b)
	})
	var compiles atomic.Int64
	m := countingMemo(clk, &compiles)
	u := s.URL + "/robots.txt"
	for i := range 3 {
		got := m.Get(context.Background(), u, u, nil)
		if got.Value != robotsBody || got.Kept {
			t.Errorf("Get %d = %q, kept %v; want the body, fetched (no-cache)", i, got.Value, got.Kept)
		}
	}
	if s.hits.Load() != 3 || compiles.Load() != 1 {
		t.Errorf("3 Gets of a no-cache file: %d requests, %d compiles; want 3 and 1", s.hits.Load(), compiles.Load())
	}
	body.Store(robotsBody + "Disallow: /more/\n")
	if got := m.Get(context.Background(), u, u, nil); !strings.Contains(got.Value, "/more/") || compiles.Load() != 2 {
		t.Errorf("Get of a changed file = %q after %d compiles, want the new body after 2", got.Value, compiles.Load())
	}
}

// TestMemoCallerGivesUp: a caller whose context ends gets the meaning of a
// network error at once; its flight, with nobody else waiting, stops and
// keeps nothing, and the next caller gets the value from a flight of its
// own.
func TestMemoCallerGivesUp(t *testing.T) {
	release := make(chan struct{})
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		<-release
		io.WriteString(w, robotsBody)
	})
	clk := newClock()
	var compiles atomic.Int64
	m := countingMemo(clk, &compiles)
	u := s.URL + "/robots.txt"
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := m.Get(ctx, u, u, nil)
	if got.Result.Status != DisallowAll || got.Result.Err == nil || got.Kept {
		t.Errorf("Get with an ended context = %s, err %v; want disallow-all with an error", got.Result.Status, got.Result.Err)
	}
	close(release)
	if got := m.Get(context.Background(), u, u, nil); got.Value != robotsBody || s.hits.Load() > 2 || compiles.Load() != 1 {
		t.Errorf("Get after the flight = %q, %d requests, %d compiles; want the body, at most 2, 1", got.Value, s.hits.Load(), compiles.Load())
	}
}

// TestMemoBounds: least recently used values go first; a value larger
// than the whole bound is returned but not kept.
func TestMemoBounds(t *testing.T) {
	clk := newClock()
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("#", len(r.URL.Query().Get("n"))*1000))
	})
	var compiles atomic.Int64
	m := countingMemo(clk, &compiles)
	m.MaxBytes = 2 * (1000 + memoOverhead)
	get := func(q string) Memoized[string] {
		u := s.URL + "/robots.txt?n=" + q
		return m.Get(context.Background(), u, u, nil)
	}
	get("a")
	get("b")
	get("a") // a is now the most recently used
	get("c") // drops b
	if !get("a").Kept || !get("c").Kept {
		t.Errorf("a or c was dropped; want b, the least recently used, dropped")
	}
	if get("b").Kept {
		t.Errorf("b was kept past the bound")
	}
	if big := get("xxx"); big.Kept || len(big.Value) != 3000 {
		t.Errorf("a value larger than MaxBytes: kept %v, %d bytes", big.Kept, len(big.Value))
	}
	if get("xxx").Kept {
		t.Errorf("a value larger than MaxBytes was kept")
	}
}
