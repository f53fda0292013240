package serve

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/pacetest"
	"github.com/sitetxt/sitetxt/pace"
)

func call(t *testing.T, s *Server, path, body string) (int, map[string]any) {
	t.Helper()
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	s.Handler().ServeHTTP(w, r)
	var out map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		t.Fatalf("POST %s %s = %d %q: %v", path, body, w.Code, w.Body, err)
	}
	return w.Code, out
}

func acquireBody(url string) string {
	b, _ := json.Marshal(map[string]any{"url": url, "agent": "ExampleBot"})
	return string(b)
}

// TestAcquire: /v1/acquire answers the /v1/check decision, and for an
// allowed URL the wait for the slot it reserved, spaced as the agent's
// group asks (siteRobots: Crawl-delay 2.5, Request-rate 1/10s: one every
// 10 s, and the default slack, 50 ms); a disallowed URL reserves nothing; a 429 reported pauses the
// site.
func TestAcquire(t *testing.T) {
	site, _ := newSite(t, nil, nil)
	clock := pacetest.NewClock()
	s := New(Config{AllowPrivate: true, Logger: quiet(), Pacer: pace.NewMemory(pace.Options{Now: clock.Now})})
	steps := []struct {
		path, body string
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
		{path: "/v1/report", body: `{"url":"` + site.URL + `/c","status":429,"retry_after":"60"}`, code: 200, pauseMS: 60000},
		{path: "/v1/acquire", body: acquireBody(site.URL + "/d"), code: 200, allowed: true, waitMS: 60000},
		{path: "/v1/report", body: `{"url":"` + site.URL + `/d","status":503,"retry_after":120}`, code: 200, pauseMS: 120000},
		{path: "/v1/report", body: `{"url":"` + site.URL + `/d","status":200}`, code: 200, pauseMS: 0},
		{path: "/v1/acquire", body: `{"url":"` + site.URL + `/e"}`, code: 400},
		{path: "/v1/acquire", body: `{"agent":"ExampleBot"}`, code: 400},
		{path: "/v1/acquire", body: `{"url":"ftp://example.org/","agent":"ExampleBot"}`, code: 200, allowed: false, waitMS: -1},
		{path: "/v1/report", body: `{"url":"` + site.URL + `/d","status":42}`, code: 400},
		{path: "/v1/report", body: `{"url":"/d","status":429}`, code: 400},
		{path: "/v1/report", body: `{"url":"` + site.URL + `/d","status":429,"retry_after":{}}`, code: 400},
	}
	for i, st := range steps {
		clock.Advance(st.advance)
		code, out := call(t, s, st.path, st.body)
		if code != st.code {
			t.Fatalf("step %d: POST %s %s = %d %v, want %d", i, st.path, st.body, code, out, st.code)
		}
		if code != 200 {
			continue
		}
		if st.path == "/v1/report" {
			if out["pause_ms"] != st.pauseMS || out["site"] != site.URL {
				t.Errorf("step %d: POST %s %s = %v, want pause_ms %v for %s", i, st.path, st.body, out, st.pauseMS, site.URL)
			}
			continue
		}
		w, hasWait := out["wait_ms"]
		if out["allowed"] != st.allowed || hasWait != (st.waitMS >= 0) || hasWait && w != st.waitMS {
			t.Errorf("step %d: POST %s %s = allowed %v wait_ms %v, want %v and %v", i, st.path, st.body, out["allowed"], w, st.allowed, st.waitMS)
		}
		if p, ok := out["pace"].(map[string]any); hasWait && (!ok || p["seconds"] != 10.0 || p["slack"] != 0.05 || p["source"] != "request-rate") {
			t.Errorf("step %d: pace = %v, want 10 s from request-rate", i, out["pace"])
		}
	}
	_, metrics := get(t, s.Handler(), "/metrics")
	for _, want := range []string{
		`sitetxt_pace_acquisitions_total{result="now"} 1`,
		`sitetxt_pace_acquisitions_total{result="wait"} 3`,
		`sitetxt_pace_acquisitions_total{result="disallowed"} 2`,
		`sitetxt_pace_pauses_total{cause="retry-after"} 2`,
		`sitetxt_pace_sites 1`,
		`sitetxt_pace_wait_seconds_count 4`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics has no %q", want)
		}
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
