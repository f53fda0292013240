package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/internal/sitetest"
	"github.com/sitetxt/sitetxt/internal/slowtest"
	"github.com/sitetxt/sitetxt/pace"
	"github.com/sitetxt/sitetxt/pace/redispace"
)

// clientFrom is an HTTP client whose connections come from ip (any
// 127.0.0.0/8 address is this host's loopback): a caller of its own.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 64}, Timeout: time.Minute}
}

// answer is what postTo got: the status, Retry-After and the JSON object.
type answer struct {
	code       int
	retryAfter int
	out        map[string]any
}

func postTo(t *testing.T, c *http.Client, url string, body any) answer {
	b, _ := json.Marshal(body)
	resp, err := c.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Error(err)
		return answer{}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	a := answer{code: resp.StatusCode}
	a.retryAfter, _ = strconv.Atoi(resp.Header.Get("Retry-After"))
	json.Unmarshal(raw, &a.out)
	return a
}

func (a answer) waitMS() float64 { w, _ := a.out["wait_ms"].(float64); return w }

// TestHostileAcquireFlood (slow tier): a caller sends 30,000 POST
// /v1/acquire for one site (Disallow only: the default pace, 1 s and
// 50 ms). Before: every one was a slot, the last 8.75 h ahead, and the
// next crawler's wait_ms was 31,496,892 (OtherBot's too). Now the caller
// holds --pace-caller-slots (8) slots to come and is answered 429 for
// the rest; another caller's slot comes after those 8, another agent's
// at once. Then 30,000 from 50 addresses: no slot is booked past the
// horizon (2 min), and past it a 429 says when to come back.
func TestHostileAcquireFlood(t *testing.T) {
	slowtest.Only(t, "30,000 acquisitions from one caller, then from 50")
	site := sitetest.New(t, map[string]string{"/robots.txt": "User-agent: *\nDisallow: /private/\n"})
	base := "http://" + serveLoopback(t, New(Config{AllowPrivate: true, Logger: quiet()}))
	flood := func(addrs []string, n int) (slots, refused, badRefusal int64, maxWait float64) {
		var mu sync.Mutex
		var next atomic.Int64
		var wg sync.WaitGroup
		clients := make([]*http.Client, len(addrs))
		for i, a := range addrs {
			clients[i] = clientFrom(a)
		}
		for w := range 16 {
			wg.Go(func() {
				for i := next.Add(1); i <= int64(n); i = next.Add(1) {
					a := postTo(t, clients[(int(i)+w)%len(clients)], base+"/v1/acquire", map[string]any{"url": site.URL + "/x", "agent": "ExampleBot"})
					mu.Lock()
					switch {
					case a.code == 200:
						slots++
						maxWait = max(maxWait, a.waitMS())
					case a.code == 429 && a.retryAfter >= 1 && a.retryAfter <= 3600:
						refused++
					default:
						badRefusal++
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		return
	}
	start := time.Now()
	slots, refused, bad, maxWait := flood([]string{"127.0.0.1"}, 30000)
	took := time.Since(start)
	victim := clientFrom("127.0.0.2")
	same := postTo(t, victim, base+"/v1/acquire", map[string]any{"url": site.URL + "/y", "agent": "ExampleBot"})
	other := postTo(t, victim, base+"/v1/acquire", map[string]any{"url": site.URL + "/y", "agent": "OtherBot"})
	t.Logf("one caller, 30,000 acquisitions in %v: %d slots (the last %.0f ms ahead), %d refused with 429 and Retry-After, %d otherwise; "+
		"then another caller's wait_ms %v (ExampleBot), %v (OtherBot)", took.Round(time.Millisecond), slots, maxWait, refused, bad, same.out["wait_ms"], other.out["wait_ms"])
	// The caller's slots: the one now, 8 to come, and one more for each
	// slot that started while the flood went on.
	most := int64(DefaultCallerSlots + 2 + int(took/(1050*time.Millisecond)))
	ahead, limit := float64(DefaultCallerSlots*1050), float64(DefaultCallerSlots+1)*1050
	if bad != 0 || slots > most || maxWait > ahead || same.code != 200 || same.waitMS() > limit || other.code != 200 || other.waitMS() != 0 {
		t.Errorf("one caller's flood: %d slots, the last %.0f ms ahead, %d bad refusals; the next caller waits %v ms, OtherBot %v ms; "+
			"want at most %d slots, none past %.0f ms, none bad, at most %.0f ms and 0", slots, maxWait, bad, same.waitMS(), other.waitMS(), most, ahead, limit)
	}

	var addrs []string
	for i := range 50 {
		addrs = append(addrs, fmt.Sprintf("127.0.0.%d", 10+i))
	}
	start = time.Now()
	slots, refused, bad, maxWait = flood(addrs, 30000)
	took = time.Since(start)
	late := postTo(t, victim, base+"/v1/acquire", map[string]any{"url": site.URL + "/y", "agent": "ExampleBot"})
	t.Logf("50 callers, 30,000 acquisitions in %v: %d slots (the last %.0f ms ahead), %d refused with 429 and Retry-After, %d otherwise; "+
		"then another caller: %d, wait_ms %v, Retry-After %d s", took.Round(time.Millisecond), slots, maxWait, refused, bad, late.code, late.out["wait_ms"], late.retryAfter)
	horizon := float64(pace.DefaultHorizon / time.Millisecond)
	if bad != 0 || maxWait > horizon || late.code == 200 && late.waitMS() > horizon || late.code == 429 && late.retryAfter > 130 {
		t.Errorf("50 callers' flood: %d bad refusals, a slot %.0f ms ahead; then %d wait %v Retry-After %d; want none, none past %.0f ms",
			bad, maxWait, late.code, late.out["wait_ms"], late.retryAfter, horizon)
	}
}

// TestHostileReports (slow tier): POST /v1/report of a 429 with
// Retry-After: 99999999, for a site the caller never acquired and for
// one serve never fetched. Before: each paused its site for 24 h
// (pause_ms 86,400,000), and the next slot waited 86,399,999 ms. Now
// each is refused (400 without a ticket, 403 with a forged one or
// another site's) and the next slot is now; with the ticket of a real
// slot the pause is at most --pace-pause-max (1 h), a later 200 report
// says it is still in force, and no slot is booked during it (429, past
// the horizon).
func TestHostileReports(t *testing.T) {
	slowtest.Only(t, "hostile reports on loopback")
	site := sitetest.New(t, map[string]string{"/robots.txt": "User-agent: *\nDisallow: /private/\n"})
	other := sitetest.New(t, map[string]string{"/robots.txt": "User-agent: *\nDisallow: /private/\n"})
	base := "http://" + serveLoopback(t, New(Config{AllowPrivate: true, Logger: quiet()}))
	c := clientFrom("127.0.0.1")
	acq := func(u string) answer {
		return postTo(t, c, base+"/v1/acquire", map[string]any{"url": u, "agent": "ExampleBot"})
	}
	report := func(u string, status int, ticket string) answer {
		return postTo(t, c, base+"/v1/report", map[string]any{"url": u, "agent": "ExampleBot", "status": status, "retry_after": "99999999", "ticket": ticket})
	}
	mine := acq(site.URL + "/a")
	theirs := acq(other.URL + "/a")
	forged := []byte(mine.out["ticket"].(string))
	forged[3] ^= 1
	for _, tc := range []struct {
		name, url, ticket string
		code              int
	}{
		{"no ticket, a site acquired by another", site.URL + "/a", "", 400},
		{"no ticket, a site serve never fetched", "http://never-fetched.example/", "", 400},
		{"a forged ticket", site.URL + "/a", string(forged), 403},
		{"another site's ticket", site.URL + "/a", theirs.out["ticket"].(string), 403},
	} {
		a := report(tc.url, 429, tc.ticket)
		t.Logf("%s: %d %v", tc.name, a.code, a.out)
		if a.code != tc.code {
			t.Errorf("report 429 Retry-After 99999999, %s: %d %v; want %d", tc.name, a.code, a.out, tc.code)
		}
	}
	if a := acq(site.URL + "/b"); a.code != 200 || a.waitMS() > 1100 {
		t.Errorf("the slot after the refused reports: %d wait_ms %v; want the site's own pace (at most 1.05 s)", a.code, a.out["wait_ms"])
	}
	taken := report(site.URL+"/a", 429, mine.out["ticket"].(string))
	later := report(site.URL+"/a", 200, mine.out["ticket"].(string))
	next := acq(site.URL + "/c")
	t.Logf("with the slot's ticket: %d pause_ms %v; a 200 after it: pause_ms %v; the next acquisition: %d, Retry-After %d s",
		taken.code, taken.out["pause_ms"], later.out["pause_ms"], next.code, next.retryAfter)
	hour := float64(pace.DefaultPauseMax / time.Millisecond)
	if p, _ := taken.out["pause_ms"].(float64); taken.code != 200 || p > hour || p < hour-5000 {
		t.Errorf("report 429 Retry-After 99999999 with the slot's ticket = %d %v; want pause_ms at most --pace-pause-max, 3,600,000", taken.code, taken.out)
	}
	if p, _ := later.out["pause_ms"].(float64); later.code != 200 || p < hour-5000 {
		t.Errorf("a 200 report during the pause = %d %v; want the pause in force", later.code, later.out)
	}
	if next.code != 429 || next.retryAfter < 3300 || next.retryAfter > 3480 {
		t.Errorf("an acquisition during the pause = %d, Retry-After %d; want 429 and the pause less the horizon (3,480 s)", next.code, next.retryAfter)
	}
}

// TestHostilePaceState (slow tier): a serve of --max-memory 64MiB is sent
// 360,000 reports of 429 for distinct sites, then 360,000 acquisitions at
// one site for distinct agents (each its own queue); with Redis, 100,000
// of each. Before: the reports
// alone left state for 360,000 sites (heap 87 MiB at its peak; with Redis
// 0.9 to 67 MB). Now the reports are refused (no ticket), and the
// queues held stay within the pace share of the budget (PaceQueues), in
// memory and, with Redis, there: each key expires after its slot.
func TestHostilePaceState(t *testing.T) {
	slowtest.Only(t, "720,000 requests for pace state")
	site := sitetest.New(t, map[string]string{"/robots.txt": "User-agent: *\nDisallow: /private/\n"})
	const budget = 64 << 20
	srv := redistest.Start(t)
	rc, err := rediscache.Open(srv.URL(), rediscache.Options{Logger: quiet(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	used := func() int64 {
		var n int64
		rc.Do(context.Background(), func(ctx context.Context, rdb redis.UniversalClient) error {
			s, err := rdb.Info(ctx, "memory").Result()
			for _, l := range strings.Split(s, "\n") {
				if v, ok := strings.CutPrefix(strings.TrimSpace(l), "used_memory:"); ok {
					n, _ = strconv.ParseInt(v, 10, 64)
				}
			}
			return err
		})
		return n
	}
	for _, withRedis := range []bool{false, true} {
		cfg := Config{AllowPrivate: true, Logger: quiet(), MaxMemory: budget}
		n := 360000
		if withRedis {
			n = 100000 // a Redis script each: slower on a shared machine
			cfg.Cache, cfg.Redis, cfg.Pacer = rc, rc, redispace.Via(rc, pace.Options{MaxQueues: PaceQueues(budget)})
		}
		s := New(cfg)
		h := s.Handler()
		before := used()
		peakOf := sampleMemory(func(ms *runtime.MemStats) uint64 { return ms.HeapInuse })
		var refused, slots atomic.Int64
		// send posts n bodies to path from 4 goroutines, each from its own
		// address, and counts the answers of status code.
		send := func(path string, n int, body func(i int) string, code int, count *atomic.Int64) {
			var next atomic.Int64
			var wg sync.WaitGroup
			for g := range 4 {
				wg.Go(func() {
					for i := next.Add(1); i <= int64(n); i = next.Add(1) {
						w := httptest.NewRecorder()
						r := jsonRequest("POST", path, strings.NewReader(body(int(i))))
						r.RemoteAddr = fmt.Sprintf("192.0.2.%d:1", g+1)
						h.ServeHTTP(w, r)
						if w.Code == code {
							count.Add(1)
						}
					}
				})
			}
			wg.Wait()
		}
		start := time.Now()
		send("/v1/report", n, func(i int) string {
			return fmt.Sprintf(`{"url":"http://s%d.example/","agent":"ExampleBot","status":429,"retry_after":"3600"}`, i)
		}, 400, &refused)
		reports := time.Since(start)
		afterReports := s.pacer.(interface{ Len() int }).Len()
		start = time.Now()
		send("/v1/acquire", n, func(i int) string {
			return fmt.Sprintf(`{"url":"%s/x","agent":"Bot%d"}`, site.URL, i)
		}, 200, &slots)
		acquires := time.Since(start)
		peak := peakOf()
		held := s.pacer.(interface{ Len() int }).Len()
		t.Logf("redis %v: %d reports in %v, %d refused, queues held after them %d; %d acquisitions for distinct agents in %v, %d slots, queues held %d (at most %d), callers' entries %d; "+
			"peak heap in use %d MiB (--max-memory %d MiB); Redis used_memory %d -> %d bytes",
			withRedis, n, reports.Round(time.Millisecond), refused.Load(), afterReports, n, acquires.Round(time.Millisecond), slots.Load(), held, PaceQueues(budget),
			s.callers.Len(), peak>>20, budget>>20, before, used())
		if refused.Load() != int64(n) || afterReports != 0 || held > PaceQueues(budget) || s.callers.Len() > PaceQueues(budget) || peak > budget {
			t.Errorf("redis %v: %d reports refused, %d queues after them, %d after the acquisitions, %d callers' entries, peak %d MiB; want %d, 0, at most %d, at most %d, under %d MiB",
				withRedis, refused.Load(), afterReports, held, s.callers.Len(), peak>>20, n, PaceQueues(budget), PaceQueues(budget), budget>>20)
		}
	}
}
