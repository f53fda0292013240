package pace_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/sitetxt/sitetxt/internal/pacetest"
	"github.com/sitetxt/sitetxt/pace"
)

func TestMemoryCases(t *testing.T) {
	pacetest.Run(t, func(t *testing.T, opts pace.Options) pace.Pacer { return pace.NewMemory(opts) })
}

// TestMemorySpacing: callers that each wait what Acquire says and then
// "fetch" start at least an interval apart, per site, in synctest's time.
func TestMemorySpacing(t *testing.T) {
	for _, tc := range []struct {
		name     string
		interval time.Duration
		callers  int
	}{
		{"crawl-delay 1", time.Second, 32},
		{"request-rate 2/1s", 500 * time.Millisecond, 32},
		{"crawl-delay 0.25", 250 * time.Millisecond, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				m := pace.NewMemory(pace.Options{})
				var mu sync.Mutex
				starts := map[string][]time.Time{}
				var wg sync.WaitGroup
				for c := range tc.callers {
					wg.Go(func() {
						for i := range 5 {
							site := fmt.Sprintf("http://s%d.example", (c+i)%3)
							wait, err := m.Acquire(context.Background(), site, pace.Pace{Interval: tc.interval})
							if err != nil {
								t.Error(err)
								return
							}
							time.Sleep(wait)
							mu.Lock()
							starts[site] = append(starts[site], time.Now())
							mu.Unlock()
						}
					})
				}
				wg.Wait()
				n := 0
				for site, ts := range starts {
					slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
					for i := 1; i < len(ts); i++ {
						if d := ts[i].Sub(ts[i-1]); d < tc.interval {
							t.Errorf("%s: requests %d and %d %v apart, want at least %v", site, i-1, i, d, tc.interval)
						}
					}
					n += len(ts)
				}
				if n != tc.callers*5 {
					t.Errorf("%d requests, want %d", n, tc.callers*5)
				}
			})
		})
	}
}

// TestMemoryPauseForAll: a pause reported by one caller holds every other
// caller back until it ends, and not longer.
func TestMemoryPauseForAll(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := pace.NewMemory(pace.Options{})
		ctx := context.Background()
		site := "http://a.example"
		p, _ := m.Report(ctx, site, 429, "3")
		if p.Wait != 3*time.Second || p.Cause != "retry-after" {
			t.Fatalf("Report(429, 3) = %+v, want 3s retry-after", p)
		}
		start := time.Now()
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				wait, _ := m.Acquire(ctx, site, pace.Pace{Interval: 100 * time.Millisecond})
				time.Sleep(wait)
				if d := time.Since(start); d < 3*time.Second || d > 3300*time.Millisecond {
					t.Errorf("a caller fetched %v after the 429, want within [3s, 3.3s]", d)
				}
			})
		}
		wg.Wait()
	})
}

// TestMemoryForgets: a site's state goes once its interval, pause and
// backoff are over, so a Memory holds only the sites paced lately.
func TestMemoryForgets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := pace.NewMemory(pace.Options{})
		ctx := context.Background()
		for i := range 10000 {
			m.Acquire(ctx, fmt.Sprintf("http://old%d.example", i), pace.Pace{Interval: time.Second})
		}
		m.Report(ctx, "http://failing.example", 500, "")
		if n := m.Len(); n != 10001 {
			t.Fatalf("Len() = %d, want 10001", n)
		}
		time.Sleep(2 * time.Second)
		// A shard sweeps when its map has doubled since its last sweep: up
		// to 256 sites for the about 156 old ones each of the 64 holds. The
		// hash is seeded at random, so 10,000 new sites (about 156 a shard)
		// left a shard unswept in about 1 run in 60; 20,000 (about 312 a
		// shard, at least 192 needed) sweep every one.
		const fresh = 20000
		for i := range fresh {
			m.Acquire(ctx, fmt.Sprintf("http://new%d.example", i), pace.Pace{Interval: time.Second})
		}
		if n := m.Len(); n > fresh+1 {
			t.Errorf("Len() = %d after the old sites expired, want at most %d (the new ones and the failing one)", n, fresh+1)
		}
		// The failing site still backs off: its count was kept.
		if p, _ := m.Report(ctx, "http://failing.example", 500, ""); p.Wait != 4*time.Second {
			t.Errorf("second 500: pause %v, want 4s", p.Wait)
		}
	})
}

// TestMemoryReserved: a slot handed out elsewhere (Redis, before it went
// away) keeps the local slots at their distance.
func TestMemoryReserved(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := pace.NewMemory(pace.Options{})
		m.Reserved("http://a.example", time.Now().Add(2*time.Second), pace.Pace{Interval: time.Second})
		if w, _ := m.Acquire(context.Background(), "http://a.example", pace.Pace{Interval: time.Second}); w != 3*time.Second {
			t.Errorf("Acquire after a slot reserved in 2s = %v, want 3s", w)
		}
	})
}

// TestMemoryBounded: past Options.MaxQueues a Memory drops the states
// that would expire soonest: 100,000 queues flooding a Memory of 1,024
// leave at most 1,024 (and count the rest as evicted), and a queue paused
// for a minute keeps its pause through the flood.
func TestMemoryBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const limit = 1024
		m := pace.NewMemory(pace.Options{MaxQueues: limit})
		ctx := context.Background()
		m.Report(ctx, "http://paused.example", 429, "60")
		for i := range 100000 {
			if _, err := m.Acquire(ctx, fmt.Sprintf("http://s%d.example", i), pace.Pace{Interval: time.Second}); err != nil {
				t.Fatal(err)
			}
		}
		if n := m.Len(); n > limit || n < limit/2 {
			t.Errorf("Len() = %d after 100,001 queues, want at most the MaxQueues of %d (and not far below)", n, limit)
		}
		if ev := m.Evicted(); ev < 100000-limit {
			t.Errorf("Evicted() = %d, want at least %d", ev, 100000-limit)
		}
		if w, _ := m.Acquire(ctx, "http://paused.example", pace.Pace{Interval: time.Second}); w != time.Minute {
			t.Errorf("the paused queue after the flood: wait %v, want its pause of 1m0s", w)
		}
	})
}

// TestMemoryStateBytes: one queue's state (site and crawler) costs a
// Memory at most StateBytes of heap, the figure callers size MaxQueues by.
func TestMemoryStateBytes(t *testing.T) {
	const n = 50000
	m := pace.NewMemory(pace.Options{})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ctx := context.Background()
	for i := range n {
		m.Acquire(ctx, pace.Queue(fmt.Sprintf("https://www.site-number-%d.example", i), "ExampleBot"), pace.Pace{Interval: time.Hour})
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := float64(after.HeapAlloc-before.HeapAlloc) / n
	t.Logf("%d queues: %.0f heap bytes each", n, per)
	if m.Len() != n || per > pace.StateBytes {
		t.Errorf("%d queues held, %.0f heap bytes each; want %d, at most StateBytes (%d)", m.Len(), per, n, pace.StateBytes)
	}
}
