package fleettest

import (
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/internal/servetest"
	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// TestFleetRedisBack: Redis restarts (kill -9, empty) under two serve
// processes whose pools held many connections (48 /v1/acquire at once on
// each before), while 16 clients pace 20 sites through both. Once Redis
// is back, the cache, the leases and the pacer use it again within one
// backoff (2 s): 30 sites first asked 3 s after are each fetched once by
// the fleet, and of the slots asked for from 3 s after, no two at a site
// come closer than asked. (A slot booked before the restart is lost with
// Redis's memory, and one asked for after it may come close to it: each
// process's next slot, which its first acquisition after the restart
// brings to Redis, bounds that, docs/fleet.md.) Before, each process's pool kept connections the restart
// had closed, and each failed a command and started the backoff again:
// of 30 sites first asked 5 s after Redis was back, 30 were fetched by
// both processes, and spacing violations went on for 13 s.
func TestFleetRedisBack(t *testing.T) {
	slowtest.Only(t, "two serve processes, Redis restarted under them")
	if redistest.Path() == "" {
		t.Skip("redis-server is not installed (Debian package redis-server); skipping the fleet test of a Redis restart")
	}
	const fill, later = 48, 30
	bin := servetest.Build(t)
	rds := redistest.Start(t)
	procs := startFleet(t, bin, rds, 2)
	st := startSites(t, 2*fill+later, 3600)
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * fill}, Timeout: time.Minute}
	w := &waves{hc: hc, procs: procs, st: st}
	f := &paceFleet{procs: procs, sites: startPacedSites(t, 20), hc: hc}

	// Many pooled connections: 48 acquisitions at once on each process.
	var wg sync.WaitGroup
	var fillFailed atomic.Int64
	for p := range procs {
		for i := range fill {
			wg.Go(func() {
				var a acquired
				if err := postJSON(hc, f.acquireURL(p), map[string]any{"url": st.url(p*fill+i) + "/x", "agent": "PaceBot"}, &a); err != nil {
					fillFailed.Add(1)
				}
			})
		}
	}
	wg.Wait()

	var end atomic.Pointer[time.Time]
	far := time.Now().Add(time.Hour)
	end.Store(&far)
	var r *clientRun
	var clients sync.WaitGroup
	clients.Go(func() { r = f.runClientsWhile(16, func(int) bool { return time.Now().Before(*end.Load()) }) })
	time.Sleep(2 * time.Second)
	if err := rds.Restart(); err != nil {
		t.Fatal(err)
	}
	back := time.Now()
	stop := back.Add(10 * time.Second)
	end.Store(&stop)
	time.Sleep(time.Until(back.Add(3 * time.Second)))
	asked := make([]int, later)
	for i := range asked {
		asked[i] = 2*fill + i
	}
	w.ask(asked, later)
	clients.Wait()

	sp, last := f.spacingFrom(back, "Redis being back")
	once := w.fetchedOnce(asked)
	t.Logf("Redis restarted under 2 processes (48 acquisitions at once on each before; %d failed); %d sites first asked 3 s after it was back: %d fetched once (%s); "+
		"pacing: %d fetches, %d slots and %d arrivals closer than asked (%d after a late client), the first of the last such pair %s; %d check and %d pacing requests failed",
		fillFailed.Load(), later, once, w.dist(asked), sp.fetches, sp.slotViolations, sp.arrivalViolations, sp.clientLate, last, w.failed.Load(), r.failures.Load())
	if once != later {
		t.Errorf("%d of %d sites first asked 3 s after Redis was back were fetched once (%s); want every one, by the fleet", once, later, w.dist(asked))
	}
	if !sp.lastPairAsked.Before(back.Add(3 * time.Second)) {
		t.Errorf("two slots closer than asked, the first %s; want none among slots asked for from 3 s after:\n%s", last, sp.report.String())
	}
	if w.failed.Load() != 0 || r.failures.Load() != 0 || fillFailed.Load() != 0 {
		t.Errorf("requests failed: %d checks (%s), %d pacing (%v), %d acquisitions; want none", w.failed.Load(), w.firstErr(), r.failures.Load(), r.firstFailure.Load(), fillFailed.Load())
	}
}
