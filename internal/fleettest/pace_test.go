package fleettest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
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
	"github.com/sitetxt/sitetxt/pace"
)

// pacedSites are loopback sites whose robots.txt asks for a pace: the
// even ones "Crawl-delay: 1", the odd ones "Request-rate: 2/1s" (one
// request every 500 ms). Each records when every page request arrived.
type pacedSites struct {
	ports
	interval []time.Duration
	mu       sync.Mutex
	arrivals [][]arrival
}

// arrival is when a page request arrived at its site, and the bounds of
// its slot on the client's clock, each sent with the request in Unix
// nanoseconds: the slot, the time serve answered plus the wait it gave,
// is at or after X-Slot-Earliest (the time the client asked, plus the
// wait) and at or before X-Slot (the time the answer came, plus the
// wait). On a loaded machine an answer can take 100 ms to reach its
// client: a slot estimated from either end alone would blame the pacer
// for the machine. asked is when the client asked for its slot
// (X-Slot-Asked).
type arrival struct{ at, earliest, latest, asked time.Time }

// late is the most the client can have been late: the time from the
// earliest its slot can have been to its request's arrival.
func (a arrival) late() time.Duration { return a.at.Sub(a.earliest) }

func startPacedSites(t *testing.T, n int) *pacedSites { return startPacedSitesEvery(t, n, false) }

// startPacedSitesEvery starts n paced sites; with crawlDelayOnly all of
// them ask for "Crawl-delay: 1".
func startPacedSitesEvery(t *testing.T, n int, crawlDelayOnly bool) *pacedSites {
	s := &pacedSites{arrivals: make([][]arrival, n)}
	bodies := make([]string, n)
	for i := range n {
		if i%2 == 0 || crawlDelayOnly {
			bodies[i], s.interval = "User-agent: *\nDisallow: /private/\nCrawl-delay: 1\n", append(s.interval, time.Second)
		} else {
			bodies[i], s.interval = "User-agent: *\nDisallow: /private/\nRequest-rate: 2/1s\n", append(s.interval, 500*time.Millisecond)
		}
	}
	s.ports = servePorts(t, n, func(i int, w http.ResponseWriter, r *http.Request) {
		at := time.Now()
		if r.URL.Path == "/robots.txt" {
			w.Header().Set("Cache-Control", "max-age=3600")
			io.WriteString(w, bodies[i])
			return
		}
		earliest, _ := strconv.ParseInt(r.Header.Get("X-Slot-Earliest"), 10, 64)
		latest, _ := strconv.ParseInt(r.Header.Get("X-Slot"), 10, 64)
		asked, _ := strconv.ParseInt(r.Header.Get("X-Slot-Asked"), 10, 64)
		s.mu.Lock()
		s.arrivals[i] = append(s.arrivals[i], arrival{at, time.Unix(0, earliest), time.Unix(0, latest), time.Unix(0, asked)})
		s.mu.Unlock()
		io.WriteString(w, "a page\n")
	})
	return s
}

// acquired is the part of a /v1/acquire answer the clients read.
type acquired struct {
	Allowed bool   `json:"allowed"`
	WaitMS  *int64 `json:"wait_ms"`
	Ticket  string `json:"ticket"`
	Error   string `json:"error"`
}

// acquire asks serve at url for a slot for page, again after Retry-After
// while it answers 429 (the site's horizon, or the caller's bound: every
// client of the test is one caller, 127.0.0.1), at most ten times.
func acquire(c *http.Client, url, page string) (acquired, error) {
	var a acquired
	for range 10 {
		err := postJSON(c, url, map[string]any{"url": page, "agent": "PaceBot"}, &a)
		var busy *tooMany
		if !errors.As(err, &busy) {
			return a, err
		}
		time.Sleep(busy.retryAfter)
	}
	return a, fmt.Errorf("%s: 429 ten times", page)
}

// tooMany is a 429 postJSON got, and its Retry-After.
type tooMany struct {
	msg        string
	retryAfter time.Duration
}

func (e *tooMany) Error() string { return e.msg }

func postJSON(c *http.Client, url string, body any, out any) error {
	b, _ := json.Marshal(body)
	resp, err := c.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(resp.Body)
		err := fmt.Errorf("POST %s = %d %s", url, resp.StatusCode, msg)
		if resp.StatusCode == http.StatusTooManyRequests {
			ra, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			return &tooMany{err.Error(), time.Duration(ra) * time.Second}
		}
		return err
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// TestFleetPace: Redis and two serve processes; 32 concurrent clients,
// each asking a process for a slot (POST /v1/acquire) at one of 20
// loopback sites, waiting wait_ms, fetching the page and reporting the
// answer (POST /v1/report). At every site, the slots the fleet handed out
// and the requests that arrived are spaced at least as its robots.txt
// asks, less 30 ms: 0 violations. An arrival closer than that is counted
// against the fleet unless the request before it arrived more than the
// slack after its slot (each request carries its slot's bounds,
// X-Slot-Earliest and X-Slot): on the
// shared 2-core machine (load average about 20) a client is sometimes
// starved for 100 ms; the log shows each such case. Then a 429 with
// Retry-After: 3 reported through one process pauses the site for both.
func TestFleetPace(t *testing.T) {
	slowtest.Only(t, "a fleet pacing 20 sites for about 15 s")
	if redistest.Path() == "" {
		t.Skip("redis-server is not installed (Debian package redis-server); skipping the fleet pace test")
	}
	const nSites, clients = 20, 32
	f := startPaceFleet(t, nSites, clients)
	perClient := envInt(t, "SITETXT_FLEET_PACE_FETCHES", 8)
	start := time.Now()
	r := f.runClients(clients, perClient)
	elapsed := time.Since(start)

	f.sites.mu.Lock()
	sp := measureSpacing(f.sites.arrivals, f.sites.interval, paceTolerance, paceSlack)
	f.sites.mu.Unlock()
	t.Logf("fleet pace, %d CPUs: %d clients, %d fetches at %d sites in %.1f s through 2 processes (--pace-slack %v); "+
		"spacing below the site's interval less %v: %d between the slots the fleet handed out, %d between arrivals at the sites "+
		"(%d of them after a request its client sent more than the slack late); the closest two arrivals came %v from the interval; "+
		"longest wait %d ms; a request's delay after its slot (at most: the answer's way back, the client's sleep and request) p50 %v, p99 %v, max %v; failures %d",
		runtime.NumCPU(), clients, sp.fetches, nSites, elapsed.Seconds(), paceSlack, paceTolerance, sp.slotViolations, sp.arrivalViolations,
		sp.clientLate, sp.closest.Round(time.Millisecond), r.maxWait.Load(), sp.late(.5), sp.late(.99), sp.late(1), r.failures.Load())
	if r.failures.Load() != 0 {
		t.Errorf("%d requests failed; the first: %v", r.failures.Load(), r.firstFailure.Load())
	}
	if sp.fetches != clients*perClient-int(r.failures.Load()) {
		t.Errorf("%d fetches arrived, want %d", sp.fetches, clients*perClient)
	}
	if sp.slotViolations != 0 || sp.arrivalViolations != sp.clientLate {
		t.Errorf("requests came closer than their site asked:\n%s", sp.report.String())
	} else if sp.arrivalViolations != 0 {
		t.Logf("arrivals closer than asked, each after a request its client sent late (the machine's load, not the pacer's slots):\n%s", sp.report.String())
	}
	f.checkPause(t)
}

// paceTolerance is how much closer than its interval two slots or
// arrivals at a site may come; paceSlack is serve's --pace-slack.
const (
	paceTolerance = 30 * time.Millisecond
	paceSlack     = pace.DefaultSlack
)

// paceFleet is TestFleetPace's set-up: Redis, two serve processes, the
// paced sites and an HTTP client for them all.
type paceFleet struct {
	procs []*proc
	sites *pacedSites
	hc    *http.Client
}

func startPaceFleet(t *testing.T, nSites, clients int) *paceFleet {
	bin := servetest.Build(t)
	rds := redistest.Start(t)
	return &paceFleet{
		procs: startFleet(t, bin, rds, 2),
		sites: startPacedSites(t, nSites),
		hc:    &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}, Timeout: time.Minute},
	}
}

// acquireURL and reportURL are the endpoints of process c%2.
func (f *paceFleet) acquireURL(c int) string { return "http://" + f.procs[c%2].addr() + "/v1/acquire" }
func (f *paceFleet) reportURL(c int) string  { return "http://" + f.procs[c%2].addr() + "/v1/report" }

// clientRun is what the clients counted: the requests that failed (and
// the first one's error) and the longest wait, in ms.
type clientRun struct {
	failures     atomic.Int64
	firstFailure atomic.Value
	maxWait      atomic.Int64
}

func (r *clientRun) fail(err error) {
	if r.failures.Add(1) == 1 {
		r.firstFailure.Store(err.Error())
	}
}

// runClients runs the clients, each taking perClient slots at random
// sites through either process: it waits wait_ms, fetches the page with
// its slot in X-Slot and reports the answer.
func (f *paceFleet) runClients(clients, perClient int) *clientRun {
	return f.runClientsWhile(clients, func(k int) bool { return k < perClient })
}

// runClientsWhile runs the clients as runClients does, each taking its
// slot k while more(k).
func (f *paceFleet) runClientsWhile(clients int, more func(k int) bool) *clientRun {
	r := &clientRun{}
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(c), 38))
			for k := 0; more(k); k++ {
				page := fmt.Sprintf("%s/page/%d/%d", f.sites.url(rng.IntN(len(f.sites.interval))), c, k)
				if err := f.fetchPaced(r, page, c+k); err != nil {
					r.fail(err)
				}
			}
		})
	}
	wg.Wait()
	return r
}

// fetchPaced takes a slot for page through process p, waits for it,
// fetches the page and reports the answer through the other process.
func (f *paceFleet) fetchPaced(r *clientRun, page string, p int) error {
	asked := time.Now()
	a, err := acquire(f.hc, f.acquireURL(p), page)
	if err != nil {
		return err
	}
	if !a.Allowed || a.WaitMS == nil {
		return fmt.Errorf("%s: allowed %v, wait_ms %v, error %q; want a slot", page, a.Allowed, a.WaitMS, a.Error)
	}
	wait := time.Duration(*a.WaitMS) * time.Millisecond
	earliest, latest := asked.Add(wait), time.Now().Add(wait)
	time.Sleep(wait)
	if *a.WaitMS > r.maxWait.Load() {
		r.maxWait.Store(*a.WaitMS)
	}
	req, _ := http.NewRequest("GET", page, nil)
	req.Header.Set("X-Slot-Earliest", strconv.FormatInt(earliest.UnixNano(), 10))
	req.Header.Set("X-Slot", strconv.FormatInt(latest.UnixNano(), 10))
	req.Header.Set("X-Slot-Asked", strconv.FormatInt(asked.UnixNano(), 10))
	resp, err := f.hc.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	var out struct{}
	return postJSON(f.hc, f.reportURL(p+1), map[string]any{"url": page, "agent": "PaceBot", "status": resp.StatusCode, "ticket": a.Ticket}, &out)
}

// checkPause: a 429 with Retry-After: 3 reported through process 1
// pauses the site for process 2 and process 1 alike.
func (f *paceFleet) checkPause(t *testing.T) {
	site := f.sites.url(1) // one every 500 ms; idle now
	var p struct {
		PauseMS int64  `json:"pause_ms"`
		Cause   string `json:"cause"`
	}
	// The report needs a ticket of the site's: a slot taken through
	// process 2, its fetch answered 429.
	x, err := acquire(f.hc, f.acquireURL(1), site+"/x")
	if err != nil || x.WaitMS == nil {
		t.Fatalf("acquire through process 2 before the 429: %+v, %v", x, err)
	}
	time.Sleep(time.Duration(*x.WaitMS) * time.Millisecond)
	reported := time.Now()
	if err := postJSON(f.hc, f.reportURL(0), map[string]any{"url": site + "/x", "agent": "PaceBot", "status": 429, "retry_after": "3", "ticket": x.Ticket}, &p); err != nil || p.PauseMS < 2900 || p.PauseMS > 3000 || p.Cause != "retry-after" {
		t.Fatalf("report 429 through process 1 = %+v, %v; want a 3 s pause", p, err)
	}
	for n, c := range []int{1, 0} {
		a, err := acquire(f.hc, f.acquireURL(c), site+"/y")
		if err != nil || a.WaitMS == nil {
			t.Fatalf("acquire through process %d after the 429: %+v, %v", c+1, a, err)
		}
		// The slot is 3 s after the report, less the time since (on
		// Redis's clock), and the second one 500 ms and the slack
		// (--pace-slack, 50 ms) after the first.
		since := time.Since(reported)
		want := 3*time.Second + time.Duration(n)*(500*time.Millisecond+paceSlack) - since
		if got := time.Duration(*a.WaitMS) * time.Millisecond; got < want-paceTolerance || got > want+500*time.Millisecond {
			t.Errorf("acquire through process %d %v after a 429 reported through process 1: wait %v, want about %v", c+1, since.Round(time.Millisecond), got, want.Round(time.Millisecond))
		}
	}
}

// spacingFrom measures the spacing of what the sites saw, and says when
// the first of the last pair closer than asked was asked for, from
// origin (the recovery of a Redis, named by what).
func (f *paceFleet) spacingFrom(origin time.Time, what string) (*spacing, string) {
	f.sites.mu.Lock()
	sp := measureSpacing(f.sites.arrivals, f.sites.interval, paceTolerance, paceSlack)
	f.sites.mu.Unlock()
	if sp.lastPairAsked.IsZero() {
		return sp, "none"
	}
	return sp, fmt.Sprintf("asked for %+.1f s from %s", sp.lastPairAsked.Sub(origin).Seconds(), what)
}

// spacing is what measureSpacing found.
type spacing struct {
	fetches int
	// slotViolations count two slots at a site (when their clients were
	// told to go) closer than its interval less the tolerance, however
	// far apart their bounds let them be: the fleet's doing.
	// arrivalViolations count two requests arriving closer than that;
	// clientLate those of them whose earlier request arrived more than
	// the slack after the earliest its slot can have been (its client,
	// or the answer to it, was late).
	slotViolations, arrivalViolations, clientLate int
	// lastPairAsked is, of the pairs counted against the fleet (slots,
	// or arrivals whose earlier client was on time), the latest time the
	// first of a pair to be asked for was asked for: from just after it,
	// slots asked for came spaced as asked.
	lastPairAsked time.Time
	closest       time.Duration
	lateness      []time.Duration // sorted
	report        strings.Builder
}

func (sp *spacing) late(p float64) time.Duration {
	if len(sp.lateness) == 0 {
		return 0
	}
	return sp.lateness[min(len(sp.lateness)-1, int(p*float64(len(sp.lateness))))].Round(time.Millisecond)
}

// measureSpacing checks, at each site, the time between consecutive
// slots and between consecutive arrivals against the site's interval.
func measureSpacing(arrivals [][]arrival, interval []time.Duration, tolerance, slack time.Duration) *spacing {
	sp := &spacing{closest: time.Hour}
	for i, at := range arrivals {
		sp.fetches += len(at)
		slots := slices.Clone(at)
		// Two slots at a site are at least the interval apart, much more
		// than the bounds of one (a round trip to serve): in the order of
		// their earliest bounds, each pair can be as far apart as the later
		// one's latest bound from the earlier one's earliest.
		slices.SortFunc(slots, func(a, b arrival) int { return a.earliest.Compare(b.earliest) })
		for k := 1; k < len(slots); k++ {
			if gap := slots[k].latest.Sub(slots[k-1].earliest); gap < interval[i]-tolerance {
				sp.slotViolations++
				sp.lastPairAsked = later(sp.lastPairAsked, earlier(slots[k-1].asked, slots[k].asked))
				fmt.Fprintf(&sp.report, "site %d (one every %v): slots %d and %d %v apart\n", i, interval[i], k-1, k, gap)
			}
		}
		slices.SortFunc(at, func(a, b arrival) int { return a.at.Compare(b.at) })
		for k := range at {
			sp.lateness = append(sp.lateness, at[k].late())
			if k == 0 {
				continue
			}
			gap := at[k].at.Sub(at[k-1].at)
			sp.closest = min(sp.closest, gap-interval[i])
			if gap >= interval[i]-tolerance {
				continue
			}
			sp.arrivalViolations++
			if at[k-1].late() > slack {
				sp.clientLate++
			} else {
				sp.lastPairAsked = later(sp.lastPairAsked, earlier(at[k-1].asked, at[k].asked))
			}
			fmt.Fprintf(&sp.report, "site %d (one every %v): requests %d and %d arrived %v apart; their clients sent them %v and %v after their slots\n",
				i, interval[i], k-1, k, gap, at[k-1].late().Round(time.Millisecond), at[k].late().Round(time.Millisecond))
		}
	}
	slices.Sort(sp.lateness)
	return sp
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// TestMeasureSpacing: the check TestFleetPace makes counts what a pacer
// that never waits gives (slots and arrivals together) against the fleet,
// excuses an arrival only after a request its client sent late, and finds
// nothing in requests spaced as asked.
func TestMeasureSpacing(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	// at returns a request whose slot was ms after t0, known to within 2
	// ms, asked for a second before it, and which arrived late ms after it.
	at := func(ms, late int) arrival {
		slot := t0.Add(time.Duration(ms) * time.Millisecond)
		return arrival{at: slot.Add(time.Duration(late) * time.Millisecond), earliest: slot, latest: slot.Add(2 * time.Millisecond), asked: slot.Add(-time.Second)}
	}
	tests := []struct {
		name                  string
		arrivals              []arrival
		slots, arrive, excuse int
		last                  int // ms after t0 when the first of the last pair counted against the fleet was asked for; 0: none
	}{
		{"spaced as asked", []arrival{at(0, 5), at(1050, 5), at(2100, 5)}, 0, 0, 0, 0},
		{"a pacer that never waits", []arrival{at(0, 5), at(1, 5), at(2, 5)}, 2, 2, 0, -999},
		{"a client late, then one on time", []arrival{at(0, 200), at(1050, 5)}, 0, 1, 1, 0},
		{"on time, then a client early", []arrival{at(0, 5), at(1050, -200)}, 0, 1, 0, -1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp := measureSpacing([][]arrival{tt.arrivals}, []time.Duration{time.Second}, paceTolerance, paceSlack)
			if sp.fetches != len(tt.arrivals) || sp.slotViolations != tt.slots || sp.arrivalViolations != tt.arrive || sp.clientLate != tt.excuse {
				t.Errorf("measureSpacing = %d fetches, %d slot and %d arrival violations, %d excused; want %d, %d, %d, %d\n%s",
					sp.fetches, sp.slotViolations, sp.arrivalViolations, sp.clientLate, len(tt.arrivals), tt.slots, tt.arrive, tt.excuse, sp.report.String())
			}
			want := time.Time{}
			if tt.last != 0 {
				want = t0.Add(time.Duration(tt.last) * time.Millisecond)
			}
			if !sp.lastPairAsked.Equal(want) {
				t.Errorf("measureSpacing's last pair asked for at %v, want %v", sp.lastPairAsked, want)
			}
		})
	}
}
