package fleettest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/internal/servetest"
	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// TestFleetCluster: two serve processes with --redis-cluster on a real
// loopback Redis Cluster (three primaries, three replicas; docs/fleet.md,
// "On a Redis Cluster"):
//
//  1. 300 sites, each asked through both processes at once: one
//     robots.txt request each.
//  2. 20 sites asking for Crawl-delay: 1, paced by 32 clients through both
//     processes: no two requests closer than asked.
//  3. Keys on every primary.
//  4. A primary killed while clients pace the 20 sites and a wave of 8 new
//     sites is asked through both processes every 500 ms: no request
//     fails, and from at most 10 s after the cluster is ok again (a
//     replica promoted) every new site is fetched once and no two slots
//     asked for come closer than asked.
func TestFleetCluster(t *testing.T) {
	slowtest.Only(t, "a Redis Cluster of six redis-servers and two serve processes, a primary killed")
	cl := redistest.StartCluster(t)
	bin := servetest.Build(t)
	procs := startFleetOn(t, bin, 2, "--redis-cluster", strings.Join(cl.Addrs()[:3], ","))
	const shared, waveSites = 300, 8
	st := startSites(t, shared+60*waveSites, 3600)
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: time.Minute}
	w := &waves{hc: hc, procs: procs, st: st}

	// 1. One robots.txt request per site.
	first := make([]int, shared)
	for i := range first {
		first[i] = i
	}
	w.ask(first, 32)
	once := w.fetchedOnce(first)
	t.Logf("%d sites asked through 2 processes at once on a Redis Cluster: %d fetched once (%s); %d requests failed",
		shared, once, w.dist(first), w.failed.Load())
	if once != shared || w.failed.Load() != 0 {
		t.Errorf("sites fetched once = %d of %d (%s), failed requests %d (%s); want every site once, none failed", once, shared, w.dist(first), w.failed.Load(), w.firstErr())
	}

	// 2. Shared pacing.
	f := &paceFleet{procs: procs, sites: startPacedSitesEvery(t, 20, true), hc: hc}
	start := time.Now()
	r := f.runClients(32, envInt(t, "SITETXT_FLEET_PACE_FETCHES", 8))
	f.sites.mu.Lock()
	sp := measureSpacing(f.sites.arrivals, f.sites.interval, paceTolerance, paceSlack)
	f.sites.mu.Unlock()
	t.Logf("pacing on a Redis Cluster, %d CPUs: %d fetches at 20 sites (Crawl-delay 1) by 32 clients through 2 processes in %.1f s; "+
		"closer than asked less %v: %d slots, %d arrivals (%d after a request its client sent late); closest arrivals %v from the interval; failures %d",
		runtime.NumCPU(), sp.fetches, time.Since(start).Seconds(), paceTolerance, sp.slotViolations, sp.arrivalViolations, sp.clientLate,
		sp.closest.Round(time.Millisecond), r.failures.Load())
	if r.failures.Load() != 0 || sp.slotViolations != 0 || sp.arrivalViolations != sp.clientLate {
		t.Errorf("pacing on a Redis Cluster: %d failures (%v), requests closer than asked:\n%s", r.failures.Load(), r.firstFailure.Load(), sp.report.String())
	}

	// 3. Keys on every primary.
	keys, err := cl.Keys()
	t.Logf("keys per primary: %v", keys)
	if err != nil || len(keys) != 3 {
		t.Errorf("keys per primary = %v, %v; want 3 primaries", keys, err)
	}
	for addr, n := range keys {
		if n < shared/6 {
			t.Errorf("primary %s holds %d keys; want about a third of the fleet's", addr, n)
		}
	}

	// 4. A primary killed mid-run.
	clusterFailover(t, cl, w, f, shared, waveSites)
}

// clusterFailover is TestFleetCluster's fourth part.
func clusterFailover(t *testing.T, cl *redistest.Cluster, w *waves, f *paceFleet, next, waveSites int) {
	primaries, err := cl.Primaries()
	if err != nil || len(primaries) != 3 {
		t.Fatalf("Primaries() = %v, %v", primaries, err)
	}
	f.sites.mu.Lock()
	for i := range f.sites.arrivals {
		f.sites.arrivals[i] = nil // spacing from here on
	}
	f.sites.mu.Unlock()
	var okAt atomic.Pointer[time.Time]
	var end atomic.Pointer[time.Time]
	far := time.Now().Add(time.Hour)
	end.Store(&far)
	var wg sync.WaitGroup
	var r *clientRun
	wg.Go(func() { r = f.runClientsWhile(32, func(int) bool { return time.Now().Before(*end.Load()) }) })
	wg.Go(func() {
		for time.Now().Before(*end.Load()) && next+waveSites <= len(w.st.requests) {
			w.wave(next, waveSites)
			next += waveSites
			time.Sleep(500 * time.Millisecond)
		}
	})
	time.Sleep(2 * time.Second)
	killed := time.Now()
	primaries[0].Stop()
	if err := cl.WaitOK(30 * time.Second); err != nil {
		t.Error(err)
	}
	ok := time.Now()
	okAt.Store(&ok)
	stopAt := ok.Add(12 * time.Second)
	end.Store(&stopAt)
	wg.Wait()

	sp, lastShort := f.spacingFrom(ok, "the cluster being ok")
	lastRepeat, repeats := w.lastRepeat(ok)
	t.Logf("primary %s killed; the cluster was ok again %.1f s later (a replica promoted); %d check requests and %d pacing requests failed; "+
		"new sites asked through both processes at once in waves every 500 ms: %s; pacing: %d fetches, %d slots and %d arrivals closer than asked "+
		"(%d after a late client), the first of the last such pair %s",
		primaries[0].Addr, ok.Sub(killed).Seconds(), w.failed.Load(), r.failures.Load(), repeats, sp.fetches, sp.slotViolations, sp.arrivalViolations,
		sp.clientLate, lastShort)
	if w.failed.Load() != 0 || r.failures.Load() != 0 {
		t.Errorf("requests failed during the failover: %d checks (%s), %d pacing (%v); want none", w.failed.Load(), w.firstErr(), r.failures.Load(), r.firstFailure.Load())
	}
	if lastRepeat.After(ok.Add(10 * time.Second)) {
		t.Errorf("a site first asked %.1f s after the cluster was ok was fetched more than once; want one fetch per site within 10 s", lastRepeat.Sub(ok).Seconds())
	}
	if !sp.lastPairAsked.Before(ok.Add(10 * time.Second)) {
		t.Errorf("two slots closer than asked, the first %s; want none among slots asked for from 10 s after:\n%s", lastShort, sp.report.String())
	}
	for i, p := range w.procs {
		if t.Failed() {
			for _, l := range strings.Split(p.log(), "\n") {
				if strings.Contains(l, "redis") && !strings.Contains(l, `"path"`) {
					t.Logf("process %d: %s", i+1, l)
				}
			}
		}
		if n := p.metric(`sitetxt_redis_shard_errors_total{shard="` + primaries[0].Addr + `"}`); n <= 0 {
			t.Errorf("process %d: sitetxt_redis_shard_errors_total of the dead primary = %v; want its failures counted", i+1, n)
		}
	}
}

// waves ask new sites through every process at once and count what the
// sites saw.
type waves struct {
	hc     *http.Client
	procs  []*proc
	st     *sites
	failed atomic.Int64
	errMu  sync.Mutex
	err    string
	mu     sync.Mutex
	asked  []wave
}

// wave is a set of sites first asked at one time.
type wave struct {
	at    time.Time
	sites []int
}

// wave asks sites first..first+n-1, each through every process at once.
func (w *waves) wave(first, n int) {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = first + i
	}
	w.mu.Lock()
	w.asked = append(w.asked, wave{time.Now(), idx})
	w.mu.Unlock()
	w.ask(idx, len(idx))
}

// ask asks each site of idx through every process at once, par sites at
// a time: POST /v1/check of its /private/x for OtherBot, disallowed, from
// a robots.txt fetched.
func (w *waves) ask(idx []int, par int) {
	sem := make(chan struct{}, par)
	var wg sync.WaitGroup
	for _, i := range idx {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			var both sync.WaitGroup
			for _, p := range w.procs {
				both.Go(func() {
					if err := w.check(p, w.st.url(i)+"/private/x"); err != nil {
						w.fail(err)
					}
				})
			}
			both.Wait()
		})
	}
	wg.Wait()
}

func (w *waves) check(p *proc, u string) error {
	body, _ := json.Marshal(map[string]any{"agent": "OtherBot", "urls": []string{u}})
	resp, err := w.hc.Post("http://"+p.addr()+"/v1/check", "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var out struct{ Results []result }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 || len(out.Results) != 1 {
		return fmt.Errorf("POST /v1/check %s = %d, %v", u, resp.StatusCode, err)
	}
	if res := out.Results[0]; res.Allowed || res.Fetch == nil || res.Fetch.Error != "" {
		j, _ := json.Marshal(res)
		return fmt.Errorf("POST /v1/check %s = %s; want disallowed, from a robots.txt fetched", u, j)
	}
	return nil
}

func (w *waves) fail(err error) {
	if w.failed.Add(1) == 1 {
		w.errMu.Lock()
		w.err = err.Error()
		w.errMu.Unlock()
	}
}

func (w *waves) firstErr() string {
	w.errMu.Lock()
	defer w.errMu.Unlock()
	return w.err
}

// fetchedOnce counts the sites of idx whose robots.txt was asked for once.
func (w *waves) fetchedOnce(idx []int) int {
	n := 0
	for _, i := range idx {
		if w.st.requests[i].Load() == 1 {
			n++
		}
	}
	return n
}

// dist says how many sites of idx saw each count of requests.
func (w *waves) dist(idx []int) string {
	count := map[int64]int{}
	for _, i := range idx {
		count[w.st.requests[i].Load()]++
	}
	var ks []int64
	for k := range count {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	var out []string
	for _, k := range ks {
		out = append(out, fmt.Sprintf("%d sites %d requests", count[k], k))
	}
	return strings.Join(out, ", ")
}

// lastRepeat returns when the last wave with a site fetched more than
// once was asked, and a summary of the waves, their times from ok.
func (w *waves) lastRepeat(ok time.Time) (time.Time, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var last time.Time
	var parts []string
	for _, wv := range w.asked {
		once := w.fetchedOnce(wv.sites)
		if once != len(wv.sites) {
			last = wv.at
		}
		parts = append(parts, fmt.Sprintf("%+.1fs %d/%d", wv.at.Sub(ok).Seconds(), once, len(wv.sites)))
	}
	return last, fmt.Sprintf("sites fetched once per wave, by when it was asked, from the recovery (the cluster ok, the replica named): %s", strings.Join(parts, ", "))
}
