package fetch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// TestLimitBoundsFlights: with a Limit of 3 in the callers' context, 20
// callers of 20 different manifests on a slow server make at most 3
// requests at once; a value already kept is answered while every slot is
// taken; when the callers leave, their flights give their slots back. It
// runs in a synctest bubble against an in-process server, so "at once"
// and "after" are orderings synctest.Wait establishes, not sleeps.
func TestLimitBoundsFlights(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var open, peak atomic.Int64
		release := make(chan struct{})
		site := &sitetest.InProcess{Handler: func(w http.ResponseWriter, r *http.Request) {
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
		}}
		var compiles atomic.Int64
		m := countingMemo(newClock(), &compiles)
		m.Fetcher.Now, m.Fetcher.Client = nil, site.Client()
		lim := NewLimit(3)
		const origin = "http://site.test"
		kept := origin + "/kept/robots.txt"
		if got := m.Get(WithLimit(context.Background(), lim), kept, kept, nil); got.Value != robotsBody {
			t.Fatalf("Get(kept) = %q", got.Value)
		}
		ctx, cancel := context.WithCancel(WithLimit(context.Background(), lim))
		var wg sync.WaitGroup
		for i := range 20 {
			u := fmt.Sprintf("%s/%d/robots.txt", origin, i)
			wg.Go(func() { m.Get(ctx, u, u, nil) })
		}
		synctest.Wait() // every caller is in a request or waiting for a slot
		if p := peak.Load(); p > 3 || lim.InUse() != 3 || open.Load() != 3 {
			t.Errorf("20 flights under a Limit of 3: %d requests at most at once, %d open, %d slots in use; want 3, 3, 3", p, open.Load(), lim.InUse())
		}
		start := time.Now()
		if got := m.Get(WithLimit(context.Background(), lim), kept, kept, nil); !got.Kept || time.Since(start) != 0 {
			t.Errorf("Get(kept) while the slots are taken: kept %v after %v, want kept at once", got.Kept, time.Since(start))
		}
		cancel()
		wg.Wait()
		synctest.Wait() // the flights the callers left have ended
		if lim.InUse() != 0 || open.Load() != 0 {
			t.Errorf("after every caller left: %d slots in use, %d requests open; want 0, 0", lim.InUse(), open.Load())
		}
		close(release)
	})
}
