package fleettest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/internal/servetest"
	"github.com/sitetxt/sitetxt/internal/slowtest"
)

func envInt(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(strings.ReplaceAll(v, "_", ""))
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive number", name, v)
	}
	return n
}

// sites are n loopback web sites, one per port, each serving a robots.txt
// that may be cached for an hour, counting its robots.txt requests and
// timing the longest wait between two of them.
type sites struct {
	ports
	requests []atomic.Int64
	start    time.Time
	mu       sync.Mutex
	repeats  []string        // when a site was asked again, and by whom
	last     []time.Duration // when each site was last asked, from start
	gap      []time.Duration // each site's longest time between two requests
}

func siteRobots(i int) string {
	return fmt.Sprintf("# site %d\nUser-agent: *\nDisallow: /private/\nAllow: /private/open\nCrawl-delay: %d\n\nUser-agent: FleetBot\nDisallow: /nobot/\n", i, 1+i%5)
}

// fleetAgent is the User-Agent the fleet's serve processes fetch with;
// the sites count only requests that carry it.
const fleetAgent = "sitetxt-fleettest/1"

func startSites(t *testing.T, n, maxAge int) *sites {
	s := &sites{requests: make([]atomic.Int64, n), start: time.Now(), last: make([]time.Duration, n), gap: make([]time.Duration, n)}
	bodies := make([]string, n)
	for i := range n {
		bodies[i] = siteRobots(i)
	}
	s.ports = servePorts(t, n, func(i int, w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" || r.Header.Get("User-Agent") != fleetAgent {
			// Not the fleet's: a test of another package run beside this
			// one may dial a port these sites were given.
			http.NotFound(w, r)
			return
		}
		now := time.Since(s.start)
		s.mu.Lock()
		if s.requests[i].Add(1) > 1 {
			s.repeats = append(s.repeats, fmt.Sprintf("site %d at %.2fs (%s, If-None-Match %q)", i, now.Seconds(), r.Header.Get("User-Agent"), r.Header.Get("If-None-Match")))
			s.gap[i] = max(s.gap[i], now-s.last[i])
		}
		s.last[i] = now
		s.mu.Unlock()
		etag := fmt.Sprintf(`"r%d"`, i)
		w.Header().Set("Connection", "close")
		w.Header().Set("Cache-Control", fmt.Sprintf("max-age=%d", maxAge))
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, bodies[i])
	})
	return s
}

// ports are loopback web sites, one listener per port, that one handler
// serves: it is told which site (0 to n-1) a request came to.
type ports struct{ lns []net.Listener }

// servePorts starts n sites served by h; they close when the test ends.
func servePorts(t *testing.T, n int, h func(i int, w http.ResponseWriter, r *http.Request)) ports {
	var p ports
	site := make(map[int]int, n) // port -> site index
	for i := range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		p.lns = append(p.lns, ln)
		site[ln.Addr().(*net.TCPAddr).Port] = i
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h(site[r.Context().Value(http.LocalAddrContextKey).(net.Addr).(*net.TCPAddr).Port], w, r)
	})}
	for _, ln := range p.lns {
		go srv.Serve(ln)
	}
	t.Cleanup(func() { srv.Close() })
	return p
}

// url is site i's root URL, without the final "/".
func (p ports) url(i int) string { return "http://" + p.lns[i].Addr().String() }

// proc is one "sitetxt serve" process, which may be killed and started
// again (on another port).
type proc struct {
	t     testing.TB
	bin   string
	args  []string
	cur   atomic.Pointer[servetest.Process] // the process started last
	alive atomic.Bool
	mu    sync.Mutex // held by start, kill and memory: a kill waits for a start in progress
}

// start starts the process and waits until it listens. It may be called
// from any goroutine.
func (p *proc) start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	sp, err := servetest.Start(p.t, p.bin, append([]string{"serve", "--listen", "127.0.0.1:0"}, p.args...)...)
	if err != nil {
		return err
	}
	p.cur.Store(sp)
	p.alive.Store(true)
	return nil
}

// addr is the host:port the process listens on.
func (p *proc) addr() string { return p.cur.Load().Addr }

// log is what the process wrote to standard error.
func (p *proc) log() string { return p.cur.Load().Log() }

func (p *proc) kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.alive.Store(false)
	p.cur.Load().Kill()
}

// memory returns the process's peak and current resident set in MiB.
func (p *proc) memory() (peak, now float64) {
	p.mu.Lock()
	pid := p.cur.Load().Cmd.Process.Pid
	p.mu.Unlock()
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && (f[0] == "VmHWM:" || f[0] == "VmRSS:") {
			kb, _ := strconv.ParseFloat(f[1], 64)
			if f[0] == "VmHWM:" {
				peak = kb / 1024
			} else {
				now = kb / 1024
			}
		}
	}
	return peak, now
}

// metric returns the sum of the samples of a metric on /metrics.
func (p *proc) metric(name string) float64 {
	resp, err := http.Get("http://" + p.addr() + "/metrics")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	var sum float64
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, name+" ") || strings.HasPrefix(l, name+"{") {
			f := strings.Fields(l)
			v, _ := strconv.ParseFloat(f[len(f)-1], 64)
			sum += v
		}
	}
	return sum
}

type result struct {
	URL     string `json:"url"`
	Allowed bool   `json:"allowed"`
	Reason  string `json:"reason"`
	Fetch   *struct {
		Status int    `json:"status"`
		Error  string `json:"error"`
	} `json:"fetch"`
	CrawlDelay *float64 `json:"crawl_delay"`
}

// paths are the URL paths asked about, and whether each agent may fetch
// them (siteRobots).
var paths = []struct {
	path         string
	fleet, other bool
}{
	{"/", true, true},
	{"/private/x", true, false}, // FleetBot's own group has no /private/ rule
	{"/nobot/page", false, true},
	{"/private/open", true, true},
	{"/docs/a?b=c", true, true},
}

// TestFleetLoad asks three serve processes sharing one Redis for a million
// decisions on 1,000 sites while one process is killed and restarted and
// Redis restarts empty (docs/fleet.md, "The fleet load test"): every
// decision right, every site's robots.txt fetched once per max-age by the
// fleet (not once per process), and again once it has expired.
func TestFleetLoad(t *testing.T) {
	slowtest.Only(t, "a fleet of processes under load")
	if redistest.Path() == "" {
		t.Skip("redis-server is not installed (Debian package redis-server); skipping the fleet load test")
	}
	nSites := envInt(t, "SITETXT_FLEET_SITES", 1000)
	nDecisions := envInt(t, "SITETXT_FLEET_DECISIONS", 1000000)
	maxAge := envInt(t, "SITETXT_FLEET_MAXAGE", 3600) // seconds robots.txt may be cached
	const batch, workers, nProcs = 100, 12, 3
	bin := servetest.Build(t)
	rds := redistest.Start(t)
	r := &fleetLoad{t: t, nSites: nSites, maxAge: maxAge, batch: batch, workers: workers,
		nBatches: (nDecisions + batch - 1) / batch, rds: rds, st: startSites(t, nSites, maxAge),
		procs:  startFleet(t, bin, rds, nProcs),
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers, MaxConnsPerHost: 0}, Timeout: 60 * time.Second}}
	r.latencies = make([]time.Duration, 0, r.nBatches)
	r.run()
	fig := r.figures()
	t.Logf("fleet load test, %d CPUs:\n%s", runtime.NumCPU(), fig.report)
	defer func() {
		if t.Failed() && len(r.st.repeats) > 0 {
			t.Logf("repeated robots.txt requests (first 20 of %d): %s", len(r.st.repeats), strings.Join(r.st.repeats[:min(20, len(r.st.repeats))], "; "))
		}
	}()
	if path := os.Getenv("SITETXT_FLEET_REPORT"); path != "" {
		os.WriteFile(path, []byte(fig.report), 0o644)
	}
	r.check(fig)
}

// fleetLoad is one run of TestFleetLoad: batches of decisions asked of
// the fleet by concurrent workers, while processes and Redis are killed
// and restarted, and what came back.
type fleetLoad struct {
	t                                  *testing.T
	nSites, maxAge, batch, workers     int
	nBatches                           int
	rds                                *redistest.Server
	st                                 *sites
	procs                              []*proc
	client                             *http.Client
	next, done, wrong, failed, retried atomic.Int64
	redisAt                            atomic.Int64 // the batch at which Redis restarts
	mu                                 sync.Mutex
	latencies                          []time.Duration
	firstWrong                         string
	eventLog                           []string
	elapsed                            time.Duration
	endAt                              time.Duration // the run's end, from r.st.start
}

// ask sends batch b to a live process (the next one when a process is
// down or fails) and checks every decision against paths.
func (r *fleetLoad) ask(b int) {
	nProcs := len(r.procs)
	agent, fleet := "OtherBot", false
	if b%2 == 0 {
		agent, fleet = "FleetBot", true
	}
	urls := make([]string, 0, r.batch)
	want := make([]bool, 0, r.batch)
	for i := range r.batch {
		k := b*r.batch + i
		p := paths[(k/r.nSites)%len(paths)]
		urls = append(urls, r.st.url(k%r.nSites)+p.path)
		if fleet {
			want = append(want, p.fleet)
		} else {
			want = append(want, p.other)
		}
	}
	body, _ := json.Marshal(map[string]any{"agent": agent, "urls": urls})
	for attempt := 0; attempt < 2*nProcs; attempt++ {
		p := r.procs[(b+attempt)%nProcs]
		if !p.alive.Load() {
			continue
		}
		start := time.Now()
		resp, err := r.client.Post("http://"+p.addr()+"/v1/check", "application/json", bytes.NewReader(body))
		if err != nil {
			r.retried.Add(1)
			continue
		}
		var out struct{ Results []result }
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		d := time.Since(start)
		if err != nil || resp.StatusCode != 200 || len(out.Results) != len(urls) {
			r.retried.Add(1)
			continue
		}
		r.mu.Lock()
		r.latencies = append(r.latencies, d)
		r.mu.Unlock()
		for i, res := range out.Results {
			if res.URL != urls[i] || res.Allowed != want[i] || res.Fetch == nil || res.Fetch.Error != "" || res.CrawlDelay == nil && !fleet {
				if r.wrong.Add(1) == 1 {
					j, _ := json.Marshal(res)
					r.mu.Lock()
					r.firstWrong = fmt.Sprintf("%s as %s: got %s, want allowed %v", urls[i], agent, j, want[i])
					r.mu.Unlock()
				}
			}
		}
		r.done.Add(int64(len(urls)))
		return
	}
	r.failed.Add(1)
}

// expirySlack is how much longer than max-age a site may go without a
// robots.txt request in TestFleetLoad: the wait for a lease a killed
// process held (leases last 3 s) and the fetch's own time.
const expirySlack = 4 * time.Second

// fleetEvent is a disturbance, made at a batch of the run.
type fleetEvent struct {
	at   int
	what string
	do   func()
}

// run asks every batch, r.workers at a time; the worker that takes an
// event's batch makes the event happen, while the others go on.
func (r *fleetLoad) run() {
	t, nBatches := r.t, r.nBatches
	r.redisAt.Store(-1)
	events := []fleetEvent{
		{nBatches / 4, "kill -9 serve process 2", func() { r.procs[1].kill() }},
		{nBatches / 2, "restart serve process 2", func() {
			if err := r.procs[1].start(); err != nil {
				t.Error(err)
			}
			// Redis restarts empty, and a process asks it only about sites it
			// has not seen (the others it has decided on in memory). So that
			// every site is fetched once, process 2 sees every site before:
			// it gets every third batch, and ten batches cover 1,000 sites.
			r.redisAt.Store(int64(max(3*nBatches/4, int(r.next.Load())+3*(r.nSites+r.batch-1)/r.batch+2*r.workers)))
		}},
	}
	restartRedis := func() {
		if err := r.rds.Restart(); err != nil {
			t.Error(err)
		}
	}
	start := time.Now()
	at := map[int]fleetEvent{}
	for _, e := range events {
		at[e.at] = e
	}
	var wg sync.WaitGroup
	for range r.workers {
		wg.Go(func() {
			for {
				b := int(r.next.Add(1)) - 1
				if b >= nBatches {
					return
				}
				e, ok := at[b]
				if int64(b) == r.redisAt.Load() {
					e, ok = fleetEvent{b, "restart Redis (kill -9, start empty)", restartRedis}, true
				}
				if ok {
					t0 := time.Now()
					e.do()
					r.mu.Lock()
					r.eventLog = append(r.eventLog, fmt.Sprintf("%s at %.1f s (batch %d of %d), took %.0f ms",
						e.what, t0.Sub(start).Seconds(), b, nBatches, ms(time.Since(t0))))
					r.mu.Unlock()
				}
				r.ask(b)
			}
		})
	}
	wg.Wait()
	r.elapsed = time.Since(start)
	r.endAt = time.Since(r.st.start)
}

// fleetFigures are what a run measured: the report's table, the robots.txt
// requests per site (dist: how many sites made each count in keys), and
// the counts the checks read.
type fleetFigures struct {
	report      string
	keys        []int64
	dist        []string
	total       int64
	periods     int64
	redisErrors float64
	unasked     time.Duration // the longest a site went without a robots.txt request, after its first, to the run's end
	unaskedSite int
}

// figures measures the run and writes its report.
func (r *fleetLoad) figures() fleetFigures {
	var f fleetFigures
	slices.Sort(r.latencies)
	pct := func(p float64) time.Duration {
		if len(r.latencies) == 0 {
			return 0
		}
		return r.latencies[min(len(r.latencies)-1, int(p*float64(len(r.latencies))))]
	}
	perSite := map[int64]int{}
	for i := range r.st.requests {
		n := r.st.requests[i].Load()
		perSite[n]++
		f.total += n
		if n > 0 {
			if g := max(r.st.gap[i], r.endAt-r.st.last[i]); g > f.unasked {
				f.unasked, f.unaskedSite = g, i
			}
		}
	}
	var report strings.Builder
	fmt.Fprintf(&report, "| figure | value |\n|---|---|\n")
	fmt.Fprintf(&report, "| sites, decisions, batch size | %d, %d, %d URLs (%d concurrent clients) |\n", r.nSites, r.done.Load(), r.batch, r.workers)
	fmt.Fprintf(&report, "| wall time; robots.txt max-age | %.1f s; %d s |\n", r.elapsed.Seconds(), r.maxAge)
	fmt.Fprintf(&report, "| decisions per second | %.0f |\n", float64(r.done.Load())/r.elapsed.Seconds())
	fmt.Fprintf(&report, "| batch latency p50 / p99 / max | %.1f / %.1f / %.1f ms |\n", ms(pct(.5)), ms(pct(.99)), ms(pct(1)))
	for k := range perSite {
		f.keys = append(f.keys, k)
	}
	slices.Sort(f.keys)
	for _, k := range f.keys {
		f.dist = append(f.dist, fmt.Sprintf("%d sites: %d", perSite[k], k))
	}
	fmt.Fprintf(&report, "| robots.txt requests per site | %s (total %d) |\n", strings.Join(f.dist, ", "), f.total)
	f.periods = int64(r.elapsed.Seconds())/int64(r.maxAge) + 1 // max-age periods begun during the run
	fmt.Fprintf(&report, "| robots.txt requests per site per expiry | %.2f (%d max-age periods begun) |\n", float64(f.total)/float64(r.nSites)/float64(f.periods), f.periods)
	fmt.Fprintf(&report, "| longest time a site went without a robots.txt request | %.1f s (site %d) |\n", f.unasked.Seconds(), f.unaskedSite)
	fmt.Fprintf(&report, "| wrong or failed decisions | %d wrong, %d batches failed |\n", r.wrong.Load(), r.failed.Load())
	fmt.Fprintf(&report, "| requests retried on another process | %d (sent to the killed process) |\n", r.retried.Load())
	for i, p := range r.procs {
		f.redisErrors += p.metric("sitetxt_redis_errors_total")
		peak, now := p.memory()
		fmt.Fprintf(&report, "| process %d | peak RSS %.0f MiB, RSS at end %.0f MiB; fetched %.0f, lease waits %.0f, redis errors %.0f, fallbacks %.0f |\n",
			i+1, peak, now, p.metric("sitetxt_fetches_total"), p.metric("sitetxt_lease_waits_total"),
			p.metric("sitetxt_redis_errors_total"), p.metric("sitetxt_redis_fallbacks_total"))
	}
	for _, e := range r.eventLog {
		fmt.Fprintf(&report, "| event | %s |\n", e)
	}
	f.report = report.String()
	return f
}

// check fails the test when a decision was wrong or missing, when sites
// were asked for robots.txt more than the fleet's sharing allows, or when
// a process logged an error.
func (r *fleetLoad) check(f fleetFigures) {
	t, nProcs, nSites := r.t, int64(len(r.procs)), r.nSites
	if r.wrong.Load() != 0 || r.failed.Load() != 0 {
		t.Errorf("%d wrong decisions, %d failed batches; want none (first wrong: %s)", r.wrong.Load(), r.failed.Load(), r.firstWrong)
	}
	if r.done.Load() != int64(r.nBatches*r.batch) {
		t.Errorf("decisions = %d, want %d", r.done.Load(), r.nBatches*r.batch)
	}
	keys, dist := f.keys, strings.Join(f.dist, ", ")
	switch rounds := f.periods; {
	case rounds == 1 && f.redisErrors == 0:
		if len(keys) != 1 || keys[0] != 1 {
			t.Errorf("robots.txt requests per site: %s; want exactly 1 for every site (no expiry in the run)", dist)
		}
	case rounds == 1:
		// A Redis command failed (a starved process missing its deadline):
		// for 2 s that process fetched on its own, as designed.
		t.Logf("note: %v Redis commands failed; robots.txt requests per site: %s", f.redisErrors, dist)
		if keys[len(keys)-1] > nProcs || f.total > int64(nSites+nSites/2) {
			t.Errorf("robots.txt requests per site: %s; want at most %d, and at most %d in all (processes that never shared would make %d)",
				dist, nProcs, nSites+nSites/2, nProcs*int64(nSites))
		}
	case keys[len(keys)-1] > rounds+nProcs:
		// Each site is fetched about every maxAge seconds: at most rounds
		// times by the fleet, and while Redis is down (restart and backoff)
		// every process may fetch once on its own. Processes fetching on
		// their own all along would make nProcs requests per round.
		t.Errorf("robots.txt requests per site: %s; want at most %d (one per expiry, %d periods, and %d while Redis restarts)",
			dist, rounds+nProcs, rounds, nProcs)
	}
	// Each site is asked for robots.txt again once what the fleet holds has
	// expired: no site goes longer than max-age without a request, give or
	// take expirySlack.
	if limit := time.Duration(r.maxAge)*time.Second + expirySlack; keys[0] == 0 || f.unasked > limit {
		t.Errorf("robots.txt requests per site: %s, site %d went %.1f s without one; want every site asked at least once per max-age (%d s, and %v more)",
			dist, f.unaskedSite, f.unasked.Seconds(), r.maxAge, expirySlack)
	}
	for i, p := range r.procs {
		if strings.Contains(p.log(), `"level":"ERROR"`) {
			t.Errorf("process %d logged errors:\n%s", i+1, p.log())
		}
	}
}

// startFleet starts n "sitetxt serve" processes sharing rds, each with a
// 2 s Redis deadline (a starved process on a shared machine could miss
// the default 250 ms and, as designed, go on alone) and loopback sites
// allowed; they are killed when the test ends.
func startFleet(t *testing.T, bin string, rds *redistest.Server, n int) []*proc {
	return startFleetOn(t, bin, n, "--redis", rds.URL())
}

// startFleetOn starts n "sitetxt serve" processes as startFleet does, on
// the Redis the flags name (--redis-cluster ADDRS, say).
func startFleetOn(t *testing.T, bin string, n int, redisFlags ...string) []*proc {
	t.Helper()
	procs := make([]*proc, n)
	for i := range procs {
		procs[i] = &proc{t: t, bin: bin,
			args: append(append([]string{"--user-agent", fleetAgent}, redisFlags...),
				"--redis-timeout", "2s", "--allow-private", "--log-level", "info", "--log-format", "json")}
		if err := procs[i].start(); err != nil {
			t.Fatal(err)
		}
	}
	return procs
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
