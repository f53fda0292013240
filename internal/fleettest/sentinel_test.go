package fleettest

import (
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/internal/servetest"
	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// TestFleetSentinel: two serve processes with --redis-sentinel on a
// primary, its replica and three real Sentinels. 50 sites asked through
// both processes at once are fetched once each; the primary is killed
// while a wave of 8 new sites is asked every 500 ms: no request fails,
// and once the Sentinels have promoted the replica, new sites are
// fetched once again within 10 s.
func TestFleetSentinel(t *testing.T) {
	slowtest.Only(t, "Sentinels, a failover, two serve processes")
	st := redistest.StartSentinels(t)
	bin := servetest.Build(t)
	procs := startFleetOn(t, bin, 2, "--redis-sentinel", redistest.SentinelMaster+"@"+strings.Join(st.Addrs(), ","))
	const first, waveSites = 50, 8
	sites := startSites(t, first+50*waveSites, 3600)
	w := &waves{hc: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: time.Minute}, procs: procs, st: sites}
	idx := make([]int, first)
	for i := range idx {
		idx[i] = i
	}
	w.ask(idx, 16)
	if once := w.fetchedOnce(idx); once != first || w.failed.Load() != 0 {
		t.Errorf("%d of %d sites fetched once behind Sentinels (%s), %d requests failed (%s); want all, none", once, first, w.dist(idx), w.failed.Load(), w.firstErr())
	}
	var end atomic.Pointer[time.Time]
	far := time.Now().Add(time.Hour)
	end.Store(&far)
	var wg sync.WaitGroup
	wg.Go(func() {
		for next := first; time.Now().Before(*end.Load()) && next+waveSites <= len(sites.requests); next += waveSites {
			w.wave(next, waveSites)
			time.Sleep(500 * time.Millisecond)
		}
	})
	time.Sleep(time.Second)
	killed := time.Now()
	st.Primary.Stop()
	var promoted time.Time
	for deadline := time.Now().Add(30 * time.Second); promoted.IsZero(); time.Sleep(50 * time.Millisecond) {
		if addr, err := st.PrimaryAddr(); err == nil && addr == st.Replica.Addr {
			promoted = time.Now()
		} else if time.Now().After(deadline) {
			t.Fatal("the Sentinels did not promote the replica within 30 s")
		}
	}
	stop := promoted.Add(10 * time.Second)
	end.Store(&stop)
	wg.Wait()
	lastRepeat, summary := w.lastRepeat(promoted)
	t.Logf("primary killed; the Sentinels named the replica %.1f s later; %d requests failed; %s", promoted.Sub(killed).Seconds(), w.failed.Load(), summary)
	if w.failed.Load() != 0 {
		t.Errorf("%d requests failed during the failover (%s); want none", w.failed.Load(), w.firstErr())
	}
	if lastRepeat.After(promoted.Add(10 * time.Second)) {
		t.Errorf("a site first asked %.1f s after the promotion was fetched more than once; want one fetch per site within 10 s", lastRepeat.Sub(promoted).Seconds())
	}
}
