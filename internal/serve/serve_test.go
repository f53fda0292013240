package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/internal/sitetest"
)

const siteRobots = `User-agent: ExampleBot
Crawl-delay: 2.5
Request-rate: 1/10s
Disallow: /private/
Allow: /private/ok

User-agent: *
Disallow: /
`

// newSite serves siteRobots, counting robots.txt requests; block, when
// not nil, holds each robots.txt response until it is closed.
func newSite(t *testing.T, block chan struct{}, started chan<- struct{}) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		n.Add(1)
		if started != nil {
			started <- struct{}{}
		}
		if block != nil {
			<-block
		}
		io.WriteString(w, siteRobots)
	}))
	t.Cleanup(s.Close)
	return s, &n
}

func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }

// jsonRequest is a request to the JSON API as a client sends it: with
// Content-Type: application/json.
func jsonRequest(method, target string, body io.Reader) *http.Request {
	return jsonRequestWithContext(context.Background(), method, target, body)
}

func jsonRequestWithContext(ctx context.Context, method, target string, body io.Reader) *http.Request {
	r := httptest.NewRequestWithContext(ctx, method, target, body)
	r.Header.Set("Content-Type", "application/json")
	return r
}

// post sends body to /v1/check of h and returns the status and decoded
// response.
func post(t *testing.T, h http.Handler, body, token string) (int, checkResponse, string) {
	t.Helper()
	req := jsonRequest("POST", "/v1/check", strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	var resp checkResponse
	if w.Code == 200 {
		if err := json.Unmarshal(w.Body.Bytes(), &resp); err != nil {
			t.Fatalf("response %q: %v", w.Body.String(), err)
		}
	}
	return w.Code, resp, w.Body.String()
}

func checkBody(agent string, urls ...string) string {
	b, _ := json.Marshal(map[string]any{"agent": agent, "urls": urls})
	return string(b)
}

func TestCheck(t *testing.T) {
	site, n := newSite(t, nil, nil)
	h := New(Config{AllowPrivate: true, Logger: quiet()}).Handler()
	tests := []struct {
		url        string
		allowed    bool
		reason     string
		ruleLine   int
		directive  string
		groupLine  int
		crawlDelay float64
	}{
		{site.URL + "/private/x", false, "rule matched", 4, "Disallow", 1, 2.5},
		{site.URL + "/private/ok", true, "rule matched", 5, "Allow", 1, 2.5},
		{site.URL + "/public", true, "no rule matched", 0, "", 1, 2.5},
		{"ftp://example.org/x", false, "not an http or https URL", 0, "", 0, 0},
	}
	var urls []string
	for _, tc := range tests {
		urls = append(urls, tc.url)
	}
	code, resp, body := post(t, h, checkBody("ExampleBot", urls...), "")
	if code != 200 || len(resp.Results) != len(tests) {
		t.Fatalf("POST /v1/check = %d %s, want 200 and %d results", code, body, len(tests))
	}
	for i, tc := range tests {
		t.Run(tc.url, func(t *testing.T) {
			d := resp.Results[i]
			if d.URL != tc.url || d.Allowed != tc.allowed || d.Reason != tc.reason || d.Agent != "ExampleBot" || d.Profile != "rfc9309" {
				t.Errorf("result %d = %+v, want url %q allowed %v reason %q", i, d, tc.url, tc.allowed, tc.reason)
			}
			if (d.Rule != nil) != (tc.ruleLine > 0) || d.Rule != nil && (d.Rule.Line != tc.ruleLine || d.Rule.Directive != tc.directive || d.Rule.Column != 1 || d.Rule.File != site.URL+"/robots.txt") {
				t.Errorf("rule = %+v, want line %d %s", d.Rule, tc.ruleLine, tc.directive)
			}
			if (d.Group != nil) != (tc.groupLine > 0) || d.Group != nil && (d.Group.Line != tc.groupLine || len(d.Group.Agents) != 1 || d.Group.Agents[0] != "ExampleBot") {
				t.Errorf("group = %+v, want line %d", d.Group, tc.groupLine)
			}
			if tc.crawlDelay > 0 {
				if d.CrawlDelay == nil || *d.CrawlDelay != tc.crawlDelay || d.RequestRate == nil || *d.RequestRate != (jsonview.RequestRate{Requests: 1, Seconds: 10}) {
					t.Errorf("crawl_delay %v, request_rate %v; want %v and 1/10s", d.CrawlDelay, d.RequestRate, tc.crawlDelay)
				}
			}
			if tc.ruleLine > 0 && (d.Fetch == nil || d.Fetch.Status != 200 || d.Fetch.Meaning != "parse" || d.Fetch.Error != "" ||
				d.Fetch.FetchedAt == nil || d.Fetch.Expires == nil || !d.Fetch.Expires.After(*d.Fetch.FetchedAt)) {
				t.Errorf("fetch = %+v, want status 200, parse, fetched_at and expires after it (the contract's fetch object)", d.Fetch)
			}
		})
	}
	if got := n.Load(); got != 1 {
		t.Errorf("robots.txt requests = %d, want 1", got)
	}
	// The keys are those of the contract's decision object.
	var raw struct{ Results []map[string]any }
	_, _, body = post(t, h, checkBody("ExampleBot", site.URL+"/private/x"), "")
	json.Unmarshal([]byte(body), &raw)
	for _, k := range []string{"url", "agent", "profile", "allowed", "reason", "rule", "group", "fetch", "crawl_delay", "request_rate"} {
		if _, ok := raw.Results[0][k]; !ok {
			t.Errorf("result has no %q: %s", k, body)
		}
	}
}

func TestRefusal(t *testing.T) {
	for _, tc := range []struct {
		addr    string
		refused bool
	}{
		{"127.0.0.1", true}, {"127.8.9.10", true}, {"::1", true}, {"::ffff:127.0.0.1", true},
		{"10.1.2.3", true}, {"172.16.0.1", true}, {"172.31.255.255", true}, {"192.168.1.1", true},
		{"169.254.169.254", true}, {"fe80::1", true}, {"fc00::1", true}, {"fd12:3456::1", true},
		{"100.64.0.1", true}, {"0.0.0.0", true}, {"::", true}, {"224.0.0.1", true}, {"255.255.255.255", true},
		{"64:ff9b::a00:1", true}, {"64:ff9b::5db8:d822", false},
		{"93.184.216.34", false}, {"172.32.0.1", false}, {"8.8.8.8", false}, {"2606:4700::1", false},
	} {
		if got := refusal(netip.MustParseAddr(tc.addr)) != ""; got != tc.refused {
			t.Errorf("refusal(%s) refuses = %v, want %v", tc.addr, got, tc.refused)
		}
	}
}

// TestPrivateRefused: without AllowPrivate, a loopback site is not asked,
// whether named by address or by a name that resolves to it; the answer
// is RFC 9309's for an unreachable robots.txt.
func TestPrivateRefused(t *testing.T) {
	site, n := newSite(t, nil, nil)
	h := New(Config{Logger: quiet()}).Handler()
	byName := strings.Replace(site.URL, "127.0.0.1", "localhost", 1)
	_, resp, body := post(t, h, checkBody("ExampleBot", site.URL+"/public", byName+"/public"), "")
	if len(resp.Results) != 2 {
		t.Fatalf("response %s, want 2 results", body)
	}
	// The address given in the URL is named as not public; a name is not
	// told from one that does not resolve (no map of internal names).
	for i, want := range []string{notPublic, noAnswer} {
		d := resp.Results[i]
		if d.Allowed || d.Fetch == nil || d.Fetch.Meaning != "disallow-all" || d.Fetch.Error != want || strings.Contains(d.Reason, "127.0.0.1") {
			t.Errorf("Check(%q) = allowed %v, fetch %+v, reason %q; want disallowed, %q", d.URL, d.Allowed, d.Fetch, d.Reason, want)
		}
	}
	if got := n.Load(); got != 0 {
		t.Errorf("robots.txt requests to a private address = %d, want 0", got)
	}
}

func TestLimits(t *testing.T) {
	h := New(Config{MaxURLs: 3, MaxBody: 200, Logger: quiet()}).Handler()
	for _, tc := range []struct {
		name, method, body string
		code               int
		msg                string
	}{
		{"too many urls", "POST", checkBody("a", "http://x/1", "http://x/2", "http://x/3", "http://x/4"), 413, "at most 3"},
		{"body too large", "POST", checkBody("a", strings.Repeat("x", 300)), 413, "larger than 200 bytes"},
		{"not json", "POST", "agent=a", 400, "bad request body"},
		{"two values", "POST", `{"agent":"a","urls":[]} {}`, 400, "more than one JSON value"},
		{"unknown field", "POST", `{"agent":"a","url":"http://x/"}`, 400, "unknown field"},
		{"no agent", "POST", `{"urls":["http://x/"]}`, 400, `no \"agent\"`},
		{"bad profile", "POST", `{"agent":"a","urls":[],"profile":"bing"}`, 400, "unknown profile"},
		{"get", "GET", "", 405, ""},
		{"empty batch", "POST", `{"agent":"a","urls":[]}`, 200, `{"results":[]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, jsonRequest(tc.method, "/v1/check", strings.NewReader(tc.body)))
			if w.Code != tc.code || !strings.Contains(w.Body.String(), tc.msg) {
				t.Errorf("%s /v1/check %q = %d %q, want %d containing %q", tc.method, tc.body, w.Code, w.Body.String(), tc.code, tc.msg)
			}
		})
	}
}

func TestToken(t *testing.T) {
	h := New(Config{Token: "s3cret", Logger: quiet()}).Handler()
	for _, tc := range []struct {
		method, path, auth string
		code               int
	}{
		{"POST", "/v1/check", "", 401},
		{"POST", "/v1/check", "Bearer wrong", 401},
		{"POST", "/v1/check", "s3cret", 401},
		{"POST", "/v1/check", "Bearer s3cret", 200},
		{"GET", "/metrics", "", 401},
		{"GET", "/metrics", "Bearer s3cret", 200},
		{"GET", "/healthz", "", 200},
	} {
		req := jsonRequest(tc.method, tc.path, strings.NewReader(`{"agent":"a","urls":[]}`))
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != tc.code {
			t.Errorf("%s %s with Authorization %q = %d, want %d", tc.method, tc.path, tc.auth, w.Code, tc.code)
		}
	}
}

func get(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
	return w.Code, w.Body.String()
}

func TestHealthz(t *testing.T) {
	srv := redistest.Start(t)
	up, err := rediscache.Open(srv.URL(), rediscache.Options{Logger: quiet(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer up.Close()
	down, _ := rediscache.Open(fmt.Sprintf("redis://127.0.0.1:%d/0", sitetest.RefusedPort(t)), rediscache.Options{Logger: quiet()})
	defer down.Close()
	site, n := newSite(t, nil, nil)
	for _, tc := range []struct {
		name string
		rc   *rediscache.Cache
		want string
	}{
		{"none", nil, `{"status":"ok","redis":"none"}`},
		{"up", up, `{"status":"ok","redis":"up"}`},
		{"down", down, `{"status":"ok","redis":"down","redis_cause":"unreachable"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{Logger: quiet(), Redis: tc.rc, AllowPrivate: true}
			if tc.rc != nil {
				cfg.Cache = tc.rc
			}
			h := New(cfg).Handler()
			code, body := get(t, h, "/healthz")
			if code != 200 || strings.TrimSpace(body) != tc.want {
				t.Errorf("GET /healthz = %d %s, want 200 %s", code, body, tc.want)
			}
			// Decisions come whatever Redis's state.
			before := n.Load()
			_, resp, body := post(t, h, checkBody("ExampleBot", site.URL+"/private/x", site.URL+"/public"), "")
			if len(resp.Results) != 2 || resp.Results[0].Allowed || !resp.Results[1].Allowed {
				t.Errorf("POST /v1/check with redis %s = %s, want disallowed, allowed", tc.name, body)
			}
			if got := n.Load() - before; got != 1 {
				t.Errorf("robots.txt requests with redis %s = %d, want 1", tc.name, got)
			}
			if tc.rc == up {
				// Another server (its own connection and local copy) on the
				// same Redis reads what this one stored.
				other, err := rediscache.Open(srv.URL(), rediscache.Options{Logger: quiet(), Timeout: 5 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				defer other.Close()
				post(t, New(Config{Logger: quiet(), Redis: other, Cache: other, AllowPrivate: true}).Handler(),
					checkBody("ExampleBot", site.URL+"/private/x"), "")
				if got := n.Load() - before; got != 1 {
					t.Errorf("robots.txt requests from two servers sharing Redis = %d, want 1", got)
				}
			}
		})
	}
}

// TestMetricsAndLogs: the metrics count what happened, and each request
// makes one log line.
func TestMetricsAndLogs(t *testing.T) {
	site, _ := newSite(t, nil, nil)
	var logs bytes.Buffer
	var mu sync.Mutex
	s := New(Config{AllowPrivate: true, Logger: slog.New(slog.NewJSONHandler(&lockedWriter{w: &logs, mu: &mu}, nil))})
	h := s.Handler()
	post(t, h, checkBody("ExampleBot", site.URL+"/private/y"), "")
	post(t, h, checkBody("ExampleBot", site.URL+"/private/x", site.URL+"/public", "ftp://x/"), "")
	_, metrics := get(t, h, "/metrics")
	for _, want := range []string{
		`sitetxt_decisions_total{verdict="allowed"} 1`,
		`sitetxt_decisions_total{verdict="disallowed"} 2`,
		`sitetxt_decisions_total{verdict="error"} 1`,
		`sitetxt_fetches_total{outcome="2xx"} 1`,
		`sitetxt_cache_lookups_total{result="hit"} 2`,
		`sitetxt_cache_lookups_total{result="miss"} 1`,
		`sitetxt_http_requests_total{code="200",path="/v1/check"} 2`,
		`sitetxt_http_request_duration_seconds_count{path="/v1/check"} 2`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 2 { // the /metrics request logs at debug level
		t.Fatalf("log lines = %d, want 2:\n%s", len(lines), logs.String())
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil || rec["path"] != "/v1/check" || rec["status"] != float64(200) || rec["urls"] != float64(1) {
		t.Errorf("log line %s, want path /v1/check, status 200, urls 1", lines[0])
	}
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// TestShutdown: once shutdown starts, the request in flight still gets
// its answer, and no new connection is accepted.
func TestShutdown(t *testing.T) {
	block, started := make(chan struct{}), make(chan struct{}, 1)
	site, _ := newSite(t, block, started)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := New(Config{AllowPrivate: true, Logger: quiet()})
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln, 30*time.Second) }()
	base := "http://" + ln.Addr().String()
	type reply struct {
		code int
		body string
		err  error
	}
	inflight := make(chan reply, 1)
	go func() {
		resp, err := http.Post(base+"/v1/check", "application/json", strings.NewReader(checkBody("ExampleBot", site.URL+"/private/x")))
		if err != nil {
			inflight <- reply{err: err}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		inflight <- reply{code: resp.StatusCode, body: string(b)}
	}()
	<-started // the request is in flight, waiting for robots.txt
	cancel()
	for !s.draining.Load() {
		time.Sleep(time.Millisecond)
	}
	// The listener closes as shutdown starts.
	for i := 0; ; i++ {
		c, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second)
		if err != nil {
			break
		}
		c.Close()
		if i > 1000 {
			t.Fatal("new connections still accepted after shutdown started")
		}
		time.Sleep(time.Millisecond)
	}
	close(block)
	r := <-inflight
	if r.err != nil || r.code != 200 || !strings.Contains(r.body, `"allowed":false`) {
		t.Errorf("request in flight during shutdown = %d %q (err %v), want 200 with its decision", r.code, r.body, r.err)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve() = %v, want nil after a graceful shutdown", err)
	}
}

// TestRequestTimeout: URLs still waiting for robots.txt when the request's
// time is up are answered, disallowed, with the reason.
func TestRequestTimeout(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	site, _ := newSite(t, block, nil)
	h := New(Config{AllowPrivate: true, RequestTimeout: 200 * time.Millisecond, Logger: quiet()}).Handler()
	code, resp, body := post(t, h, checkBody("ExampleBot", site.URL+"/public"), "")
	if code != 200 || len(resp.Results) != 1 {
		t.Fatalf("POST /v1/check = %d %s, want 200 and 1 result", code, body)
	}
	if d := resp.Results[0]; d.Allowed || d.Fetch == nil || d.Fetch.Error == "" {
		t.Errorf("result after the request's deadline = %s, want disallowed with a fetch error", body)
	}
}
