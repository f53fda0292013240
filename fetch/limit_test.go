package fetch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestLimitBoundsFlights: with a Limit of 3 in the callers' context, 20
// callers of 20 different manifests on a slow server make at most 3
// requests at once; a value already kept is answered while every slot is
// taken; when the callers leave, their flights give their slots back.
func TestLimitBoundsFlights(t *testing.T) {
	var open, peak atomic.Int64
	release := make(chan struct{})
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/kept/robots.txt" {
			io.WriteString(w, robotsBody)
			return
		}
		n := open.Add(1)
		defer open.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		select {
		case <-release:
			io.WriteString(w, robotsBody)
		case <-r.Context().Done():
		}
	})
	var compiles atomic.Int64
	m := countingMemo(newClock(), &compiles)
	m.Fetcher.Now = nil
	lim := NewLimit(3)
	kept := s.URL + "/kept/robots.txt"
	if got := m.Get(WithLimit(context.Background(), lim), kept, kept, nil); got.Value != robotsBody {
		t.Fatalf("Get(kept) = %q", got.Value)
	}
	ctx, cancel := context.WithCancel(WithLimit(context.Background(), lim))
	var wg sync.WaitGroup
	for i := range 20 {
		u := fmt.Sprintf("%s/%d/robots.txt", s.URL, i)
		wg.Go(func() { m.Get(ctx, u, u, nil) })
	}
	for deadline := time.Now().Add(5 * time.Second); lim.InUse() < 3 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	start := time.Now()
	if got := m.Get(WithLimit(context.Background(), lim), kept, kept, nil); !got.Kept || time.Since(start) > time.Second {
		t.Errorf("Get(kept) while the slots are taken: kept %v after %v, want kept at once", got.Kept, time.Since(start))
	}
	time.Sleep(100 * time.Millisecond)
	if p := peak.Load(); p > 3 || lim.InUse() != 3 {
		t.Errorf("20 flights under a Limit of 3: %d requests at once, %d slots in use; want at most 3, 3", p, lim.InUse())
	}
	cancel()
	wg.Wait()
	for deadline := time.Now().Add(5 * time.Second); (lim.InUse() > 0 || open.Load() > 0) && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if lim.InUse() != 0 || open.Load() != 0 {
		t.Errorf("after every caller left: %d slots in use, %d requests open; want 0, 0", lim.InUse(), open.Load())
	}
	close(release)
}
