package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/internal/pacetest"
	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/internal/sitetest"
	"github.com/sitetxt/sitetxt/pace"
	"github.com/sitetxt/sitetxt/pace/redispace"
)

func call(t *testing.T, s *Server, path, body string) (int, map[string]any) {
	t.Helper()
	code, _, out := callFrom(t, s, "192.0.2.1:1234", path, body)
	return code, out
}

// callFrom posts body to path as a client at remote would.
func callFrom(t *testing.T, s *Server, remote, path, body string) (int, http.Header, map[string]any) {
	t.Helper()
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", path, strings.NewReader(body))
	r.RemoteAddr = remote
	r.Header.Set("Content-Type", "application/json")
	s.Handler().ServeHTTP(w, r)
	var out map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		t.Fatalf("POST %s %s = %d %q: %v", path, body, w.Code, w.Body, err)
	}
	return w.Code, w.Header(), out
}

// TestAcquireBounds: one caller holds at most CallerSlots slots still to
// come for an agent at a site, and at most half the horizon's worth;
// past its bound, or past the horizon for everyone, a 429 with
// Retry-After, and nothing booked. Another caller (an address; an IPv6
// one by its /64) and another agent have their own.
func TestAcquireBounds(t *testing.T) {
	site := sitetest.New(t, map[string]string{"/robots.txt": "User-agent: SlowBot\nDisallow: /slow/\nCrawl-delay: 50\n\nUser-agent: MidBot\nDisallow: /mid/\nCrawl-delay: 3\n\nUser-agent: *\nDisallow: /private/\n"})
	clock := pacetest.NewClock()
	s := New(Config{AllowPrivate: true, Logger: quiet(), CallerSlots: 3, Pacer: pace.NewMemory(pace.Options{Now: clock.Now, Horizon: 10 * time.Second})})
	acquire := func(remote, agent string) (int, string, float64) {
		t.Helper()
		code, h, out := callFrom(t, s, remote, "/v1/acquire", `{"url":"`+site.URL+`/a","agent":"`+agent+`"}`)
		w, _ := out["wait_ms"].(float64)
		return code, h.Get("Retry-After"), w
	}
	for _, tc := range []struct {
		remote, agent string
		code          int
		retryAfter    string
		wait          float64
	}{
		{"192.0.2.1:1", "ExampleBot", 200, "", 0},
		{"192.0.2.1:2", "ExampleBot", 200, "", 1050},
		{"192.0.2.1:3", "ExampleBot", 200, "", 2100},
		{"192.0.2.1:4", "ExampleBot", 200, "", 3150},
		{"192.0.2.1:5", "ExampleBot", 429, "2", 0}, // three to come: the next starts in 1.05 s
		{"[2001:db8::1]:1", "ExampleBot", 200, "", 4200},
		{"[2001:db8::2]:1", "ExampleBot", 200, "", 5250}, // the same /64
		{"[2001:db8::3]:1", "ExampleBot", 200, "", 6300},
		{"[2001:db8::4]:1", "ExampleBot", 429, "5", 0},
		{"192.0.2.2:1", "ExampleBot", 200, "", 7350},
		{"192.0.2.3:1", "ExampleBot", 200, "", 8400},
		{"192.0.2.4:1", "ExampleBot", 200, "", 9450},
		{"192.0.2.5:1", "ExampleBot", 429, "1", 0}, // past the horizon of 10 s
		{"192.0.2.5:1", "OtherBot", 200, "", 0},    // a queue of its own
		{"192.0.2.1:1", "SlowBot", 200, "", 0},     // 50 s apart: half the horizon holds no slot to come
		{"192.0.2.1:1", "SlowBot", 429, "41", 0},   // the next is past the horizon, 50.05 s ahead
		{"192.0.2.2:1", "SlowBot", 429, "41", 0},   // for every caller
		{"192.0.2.1:1", "MidBot", 200, "", 0},
		{"192.0.2.1:1", "MidBot", 200, "", 3050},
		{"192.0.2.1:1", "MidBot", 429, "4", 0}, // one to come is half the horizon's worth of 3.05 s slots
		{"192.0.2.2:1", "MidBot", 200, "", 6100},
		{"192.0.2.3:1", "MidBot", 200, "", 9150},
	} {
		code, ra, wait := acquire(tc.remote, tc.agent)
		if code != tc.code || ra != tc.retryAfter || wait != tc.wait {
			t.Errorf("POST /v1/acquire from %s as %s = %d, Retry-After %q, wait_ms %v; want %d, %q, %v", tc.remote, tc.agent, code, ra, wait, tc.code, tc.retryAfter, tc.wait)
		}
	}
	clock.Advance(1100 * time.Millisecond) // the first caller's second slot has started
	if code, _, w := acquire("192.0.2.1:6", "ExampleBot"); code != 200 || w != 9450-1100+1050 {
		t.Errorf("the first caller, a slot later: %d, wait_ms %v; want 200, %v", code, w, 9450-1100+1050)
	}
	_, metrics := get(t, s.Handler(), "/metrics")
	for _, want := range []string{`sitetxt_pace_acquisitions_total{result="caller"} 3`, `sitetxt_pace_acquisitions_total{result="horizon"} 3`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics has no %q", want)
		}
	}
}

func acquireBody(url string) string {
	b, _ := json.Marshal(map[string]any{"url": url, "agent": "ExampleBot"})
	return string(b)
}

// reportBody is a report of ExampleBot's fetch of url with ticket.
func reportBody(url string, status int, retryAfter any, ticket string) string {
	m := map[string]any{"url": url, "agent": "ExampleBot", "status": status, "ticket": ticket}
	if retryAfter != nil {
		m["retry_after"] = retryAfter
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// TestAcquire: /v1/acquire answers the /v1/check decision, and for an
// allowed URL the wait for the slot it reserved, spaced as the agent's
// group asks (siteRobots: Crawl-delay 2.5, Request-rate 1/10s: one every
// 10 s, and the default slack, 50 ms), and its ticket; a disallowed URL
// reserves nothing; a 429 reported with a ticket pauses the site, and a
// report says the pause in force.
func TestAcquire(t *testing.T) {
	site, _ := newSite(t, nil, nil)
	clock := pacetest.NewClock()
	s := New(Config{AllowPrivate: true, Logger: quiet(), Pacer: pace.NewMemory(pace.Options{Now: clock.Now})})
	tickets := map[string]string{} // by the URL acquired
	steps := []struct {
		path, body string
		ticket     string // for a report: the ticket of this URL's acquire
		advance    time.Duration
		code       int
		allowed    bool
		waitMS     float64 // -1: no wait_ms
		pauseMS    float64
	}{
		{path: "/v1/acquire", body: acquireBody(site.URL + "/a"), code: 200, allowed: true, waitMS: 0},
		{path: "/v1/acquire", body: acquireBody(site.URL + "/b"), code: 200, allowed: true, waitMS: 10050},
		{path: "/v1/acquire", body: acquireBody(site.URL + "/private/x"), code: 200, allowed: false, waitMS: -1},
		{path: "/v1/acquire", body: acquireBody(site.URL + "/c"), advance: 4 * time.Second, code: 200, allowed: true, waitMS: 16100},
		{path: "/v1/report", body: reportBody(site.URL+"/a", 429, "60", ""), ticket: "/a", code: 200, pauseMS: 60000},
		{path: "/v1/acquire", body: acquireBody(site.URL + "/d"), code: 200, allowed: true, waitMS: 60000},
		{path: "/v1/report", body: reportBody(site.URL+"/d", 503, 120, ""), ticket: "/d", advance: time.Minute, code: 200, pauseMS: 120000},
		{path: "/v1/report", body: reportBody(site.URL+"/d", 200, nil, ""), ticket: "/d", code: 200, pauseMS: 120000},
		{path: "/v1/acquire", body: `{"url":"` + site.URL + `/e"}`, code: 400},
		{path: "/v1/acquire", body: `{"agent":"ExampleBot"}`, code: 400},
		{path: "/v1/acquire", body: `{"url":"ftp://example.org/","agent":"ExampleBot"}`, code: 200, allowed: false, waitMS: -1},
		{path: "/v1/report", body: reportBody(site.URL+"/d", 42, nil, ""), ticket: "/d", code: 400},
		{path: "/v1/report", body: reportBody("/d", 429, nil, ""), ticket: "/d", code: 400},
		{path: "/v1/report", body: reportBody(site.URL+"/d", 429, map[string]any{}, ""), ticket: "/d", code: 400},
	}
	for i, st := range steps {
		clock.Advance(st.advance)
		body := st.body
		if st.ticket != "" {
			body = strings.Replace(body, `"ticket":""`, `"ticket":"`+tickets[st.ticket]+`"`, 1)
		}
		code, out := call(t, s, st.path, body)
		if code != st.code {
			t.Fatalf("step %d: POST %s %s = %d %v, want %d", i, st.path, body, code, out, st.code)
		}
		if code != 200 {
			continue
		}
		if st.path == "/v1/report" {
			if out["pause_ms"] != st.pauseMS || out["site"] != site.URL {
				t.Errorf("step %d: POST %s %s = %v, want pause_ms %v for %s", i, st.path, body, out, st.pauseMS, site.URL)
			}
			continue
		}
		w, hasWait := out["wait_ms"]
		if out["allowed"] != st.allowed || hasWait != (st.waitMS >= 0) || hasWait && w != st.waitMS {
			t.Errorf("step %d: POST %s %s = allowed %v wait_ms %v, want %v and %v", i, st.path, body, out["allowed"], w, st.allowed, st.waitMS)
		}
		if p, ok := out["pace"].(map[string]any); hasWait && (!ok || p["seconds"] != 10.0 || p["slack"] != 0.05 || p["source"] != "request-rate") {
			t.Errorf("step %d: pace = %v, want 10 s from request-rate", i, out["pace"])
		}
		if tk, _ := out["ticket"].(string); hasWait != (tk != "") {
			t.Errorf("step %d: ticket %q, want one exactly when a slot was reserved", i, tk)
		} else if hasWait {
			var u struct{ URL string }
			json.Unmarshal([]byte(body), &u)
			tickets[strings.TrimPrefix(u.URL, site.URL)] = tk
		}
	}
	_, metrics := get(t, s.Handler(), "/metrics")
	for _, want := range []string{
		`sitetxt_pace_acquisitions_total{result="now"} 1`,
		`sitetxt_pace_acquisitions_total{result="wait"} 3`,
		`sitetxt_pace_acquisitions_total{result="disallowed"} 2`,
		`sitetxt_pace_pauses_total{cause="retry-after"} 3`,
		`sitetxt_pace_reports_total{result="taken"} 3`,
		`sitetxt_pace_sites 1`,
		`sitetxt_pace_wait_seconds_count 4`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics has no %q", want)
		}
	}
}

// TestReportTickets: a report is taken only with a ticket the fleet gave
// for a slot of that site and agent, from shortly before the slot starts
// until ticketLife after; without one it is refused (400, 403) and
// changes nothing. The fleet's processes share the secret (Config's, or
// the Redis one of TestFleetTickets).
func TestReportTickets(t *testing.T) {
	site, _ := newSite(t, nil, nil)
	other := sitetest.New(t, map[string]string{"/robots.txt": "User-agent: *\nAllow: /\n"})
	clock := pacetest.NewClock()
	secret := []byte("a secret of the fleet's, 32 byte")
	newProc := func(secret []byte) *Server {
		return New(Config{AllowPrivate: true, Logger: quiet(), PaceSecret: secret, Pacer: pace.NewMemory(pace.Options{Now: clock.Now})})
	}
	s1, s2, stranger := newProc(secret), newProc(secret), newProc([]byte("another secret, another fleet..."))
	_, a := call(t, s1, "/v1/acquire", acquireBody(site.URL+"/a"))
	_, b := call(t, s1, "/v1/acquire", acquireBody(site.URL+"/b")) // a slot 10.05 s ahead
	_, o := call(t, s1, "/v1/acquire", `{"url":"`+other.URL+`/a","agent":"ExampleBot"}`)
	_, st := call(t, stranger, "/v1/acquire", acquireBody(site.URL+"/a"))
	ticket := a["ticket"].(string)
	forged := []byte(ticket)
	forged[len(forged)-1] ^= 1
	for _, tc := range []struct {
		name    string
		s       *Server
		body    string
		advance time.Duration
		code    int
	}{
		{"no ticket", s2, `{"url":"` + site.URL + `/a","agent":"ExampleBot","status":429,"retry_after":"99999999"}`, 0, 400},
		{"a ticket not of base64url", s2, reportBody(site.URL+"/a", 429, "60", "not a ticket!"), 0, 403},
		{"a forged ticket", s2, reportBody(site.URL+"/a", 429, "60", string(forged)), 0, 403},
		{"another fleet's ticket", s2, reportBody(site.URL+"/a", 429, "60", st["ticket"].(string)), 0, 403},
		{"another site's ticket", s2, reportBody(site.URL+"/a", 429, "60", o["ticket"].(string)), 0, 403},
		{"another agent's report", s2, strings.Replace(reportBody(site.URL+"/a", 429, "60", ticket), "ExampleBot", "OtherBot", 1), 0, 403},
		{"no agent", s2, strings.Replace(reportBody(site.URL+"/a", 429, "60", ticket), `"agent":"ExampleBot",`, "", 1), 0, 400},
		{"a slot that has not started", s2, reportBody(site.URL+"/b", 429, "60", b["ticket"].(string)), 0, 403},
		{"the slot's own ticket, on another process of the fleet", s2, reportBody(site.URL+"/a", 200, nil, ticket), 0, 200},
		{"the ticket again, later", s1, reportBody(site.URL+"/a", 200, nil, ticket), 9 * time.Minute, 200},
		{"an expired ticket", s1, reportBody(site.URL+"/a", 429, "60", ticket), 2 * time.Minute, 403},
	} {
		clock.Advance(tc.advance)
		if code, out := call(t, tc.s, "/v1/report", tc.body); code != tc.code {
			t.Errorf("%s: POST /v1/report %s = %d %v, want %d", tc.name, tc.body, code, out, tc.code)
		} else if code != 200 && (!strings.Contains(out["error"].(string), "ticket") && !strings.Contains(out["error"].(string), "agent")) {
			t.Errorf("%s: error %q does not say what was wrong", tc.name, out["error"])
		}
	}
	// Nothing the refused reports said was taken: the next slot of each
	// process comes at its own pace (s1's second slot, then the interval).
	if _, out := call(t, s2, "/v1/acquire", acquireBody(site.URL+"/c")); out["wait_ms"] != 0.0 {
		t.Errorf("after refused reports, process 2's first slot waits %v ms, want 0 (no pause)", out["wait_ms"])
	}
}

// TestAcquireDecisionAsCheck: the decision part of /v1/acquire is the
// /v1/check result for the URL, key for key (but fetch.from_cache).
func TestAcquireDecisionAsCheck(t *testing.T) {
	site, _ := newSite(t, nil, nil)
	s := New(Config{AllowPrivate: true, Logger: quiet()})
	for _, path := range []string{"/private/ok", "/private/x", "/public"} {
		_, _, body := post(t, s.Handler(), checkBody("ExampleBot", site.URL+path), "")
		var check struct{ Results []map[string]any }
		json.Unmarshal([]byte(body), &check)
		_, acq := call(t, s, "/v1/acquire", acquireBody(site.URL+path))
		delete(acq, "wait_ms")
		delete(acq, "pace")
		delete(acq, "ticket")
		// Whether the robots.txt came from the cache is this request's
		// own fact: /v1/check fetched it, /v1/acquire found it cached.
		for _, v := range []map[string]any{acq, check.Results[0]} {
			if f, ok := v["fetch"].(map[string]any); ok {
				delete(f, "from_cache")
			}
		}
		a, _ := json.Marshal(acq)
		c, _ := json.Marshal(check.Results[0])
		if string(a) != string(c) {
			t.Errorf("%s: /v1/acquire decision %s, want the /v1/check result %s", path, a, c)
		}
	}
}

// TestAcquireProfileReading: under google the site's Crawl-delay is not
// honoured (the default pace, with a diagnostic at the line) unless the
// reading says always.
func TestAcquireProfileReading(t *testing.T) {
	site, _ := newSite(t, nil, nil)
	for _, tc := range []struct {
		lines   pace.Lines
		seconds float64
		source  string
		diags   int
	}{
		{pace.ByProfile, 1, "default", 2},
		{pace.Always, 10, "request-rate", 0},
	} {
		s := New(Config{AllowPrivate: true, Logger: quiet(), Pace: pace.Reading{Lines: tc.lines}})
		_, out := call(t, s, "/v1/acquire", `{"url":"`+site.URL+`/a","agent":"ExampleBot","profile":"google"}`)
		p, _ := out["pace"].(map[string]any)
		diags, _ := p["diagnostics"].([]any)
		if p == nil || p["seconds"] != tc.seconds || p["source"] != tc.source || len(diags) != tc.diags {
			t.Errorf("google, --pace-lines %s: pace = %v, want %v s from %s with %d diagnostics", tc.lines, p, tc.seconds, tc.source, tc.diags)
		}
	}
}

// TestFleetTickets: two serve processes on one Redis share the tickets'
// secret through it: a slot taken through one is reported through the
// other, the first tickets included, signed while the secret was being
// made (20 at once).
func TestFleetTickets(t *testing.T) {
	srv := redistest.Start(t)
	site := sitetest.New(t, map[string]string{"/robots.txt": "User-agent: *\nDisallow: /private/\n"})
	newProc := func() *Server {
		rc, err := rediscache.Open(srv.URL(), rediscache.Options{Logger: quiet(), Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rc.Close() })
		return New(Config{AllowPrivate: true, Logger: quiet(), Cache: rc, Redis: rc, Pacer: redispace.Via(rc, pace.Options{})})
	}
	s1, s2 := newProc(), newProc()
	tickets := make([]string, 20)
	var wg sync.WaitGroup
	for i := range tickets {
		wg.Go(func() {
			_, _, out := callFrom(t, s1, fmt.Sprintf("192.0.2.%d:1", i+1), "/v1/acquire", acquireBody(site.URL+"/a"))
			tickets[i], _ = out["ticket"].(string)
		})
	}
	wg.Wait()
	// The tickets are for slots a second apart, the last about 20 s
	// ahead: process 2 verifies them as if they had all come.
	s2.tickets.now = func() time.Time { return time.Now().Add(20 * time.Second) }
	for i, tk := range tickets {
		if code, out := call(t, s2, "/v1/report", reportBody(site.URL+"/a", 200, nil, tk)); code != 200 {
			t.Errorf("ticket %d of process 1 reported through process 2, in its slot: %d %v; want 200", i, code, out)
		}
	}
}

// TestAcquirePerCrawler: each crawler has its own queue at a site, and a
// report says the pause in force (a new user's trial: OtherBot, whose
// group asks for nothing, waited 4,100 ms behind two slots of FooBot's
// Crawl-delay: 2; a 200 reported during a 120 s pause answered
// pause_ms 0).
func TestAcquirePerCrawler(t *testing.T) {
	site := sitetest.New(t, map[string]string{"/robots.txt": "User-agent: FooBot\nDisallow: /foo/\nCrawl-delay: 2\n\nUser-agent: *\nDisallow: /private/\n"})
	clock := pacetest.NewClock()
	s := New(Config{AllowPrivate: true, Logger: quiet(), Pacer: pace.NewMemory(pace.Options{Now: clock.Now})})
	acquire := func(agent string) map[string]any {
		_, out := call(t, s, "/v1/acquire", `{"url":"`+site.URL+`/a","agent":"`+agent+`"}`)
		return out
	}
	foo := acquire("FooBot/2.1 (+https://foo.example/bot)")
	if w := acquire("FooBot")["wait_ms"]; w != 2050.0 {
		t.Errorf("FooBot's second slot waits %v ms, want 2050", w)
	}
	if w := acquire("OtherBot")["wait_ms"]; w != 0.0 {
		t.Errorf("OtherBot after two slots of FooBot's waits %v ms, want 0 (a queue of its own)", w)
	}
	report := func(status int, retryAfter string) map[string]any {
		body := strings.Replace(reportBody(site.URL+"/a", status, retryAfter, foo["ticket"].(string)), `"ExampleBot"`, `"FooBot"`, 1)
		code, out := call(t, s, "/v1/report", body)
		if code != 200 {
			t.Fatalf("POST /v1/report %s = %d %v", body, code, out)
		}
		return out
	}
	report(429, "120")
	clock.Advance(20 * time.Second)
	if out := report(200, ""); out["pause_ms"] != 100000.0 || out["cause"] != "retry-after" {
		t.Errorf("a 200 reported 20 s into a 120 s pause = %v, want pause_ms 100000 by retry-after", out)
	}
	if w := acquire("OtherBot")["wait_ms"]; w != 0.0 {
		t.Errorf("OtherBot while FooBot is paused waits %v ms, want 0", w)
	}
}
