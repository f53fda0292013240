package sitetxtcolly

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocolly/colly/v2"
	"github.com/sitetxt/sitetxt/pace"
	"github.com/sitetxt/sitetxt/robots"
)

// TestAttachOptions: the agent comes from Options or the Collector's
// User-Agent and must be a product token; the profile must be known.
func TestAttachOptions(t *testing.T) {
	tests := []struct {
		userAgent string
		opts      Options
		agent     string // "" when Attach must fail
	}{
		{"ExampleBot/1.0 (+https://example.org/bot)", Options{}, "ExampleBot"},
		{"ExampleBot/1.0", Options{Agent: "OtherBot", Profile: "google"}, "OtherBot"},
		{"ExampleBot/1.0", Options{Agent: "OtherBot/2.0"}, ""},
		{"*", Options{}, ""},
		{"ExampleBot/1.0", Options{Profile: "nope"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.userAgent+" "+tt.opts.Agent+" "+tt.opts.Profile, func(t *testing.T) {
			c := colly.NewCollector(colly.UserAgent(tt.userAgent))
			c.IgnoreRobotsTxt = false
			tr, err := attach(c, tt.opts)
			switch {
			case tt.agent == "" && err == nil:
				t.Fatalf("Attach(%q, %+v) = nil, want an error", tt.userAgent, tt.opts)
			case tt.agent == "":
				return
			case err != nil:
				t.Fatalf("Attach(%q, %+v) = %v", tt.userAgent, tt.opts, err)
			}
			if got := tr.pacer.(*local).agent; got != tt.agent {
				t.Errorf("Attach(%q, %+v): agent %q, want %q", tt.userAgent, tt.opts, got, tt.agent)
			}
			if !c.IgnoreRobotsTxt {
				t.Errorf("Attach left colly's own robots.txt check on")
			}
		})
	}
}

// standIn is a stand-in serve that answers /v1/acquire with the answers
// given in turn (status, Retry-After, body) and /v1/report with a pause,
// and records the bodies of the reports.
type standIn struct {
	mu       sync.Mutex
	acquires []string // bodies, in turn
	statuses []int
	reports  []map[string]any
}

func (s *standIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	defer s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/v1/acquire":
		status, body := s.statuses[0], s.acquires[0]
		s.statuses, s.acquires = s.statuses[1:], s.acquires[1:]
		if status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "1")
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	case "/v1/report":
		var m map[string]any
		json.Unmarshal(b, &m)
		s.reports = append(s.reports, m)
		io.WriteString(w, `{"site":"x","pause_ms":0}`)
	}
}

// TestRemote: through serve, an acquire answered "429: later" is asked
// again after its Retry-After (by the transport); the report sends the agent and the ticket
// only when the acquire's answer had one; a disallowed URL says its rule;
// an error answer says serve's words.
func TestRemote(t *testing.T) {
	s := &standIn{
		statuses: []int{429, 200, 200, 200, 400},
		acquires: []string{
			`{"error":"booked; later"}`,
			`{"allowed":true,"wait_ms":0,"ticket":"t1","pace":{"seconds":1,"slack":0.05,"source":"crawl-delay"}}`,
			`{"allowed":true,"wait_ms":0}`,
			`{"allowed":false,"reason":"rule matched","rule":{"directive":"Disallow","pattern":"/private/","line":2}}`,
			`{"error":"bad request body: no \"url\""}`,
		},
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	r := &remote{url: srv.URL, agent: "ExampleBot", profile: "rfc9309", hc: srv.Client()}
	tr := &transport{pacer: r}
	ctx := context.Background()
	for _, ticket := range []string{"t1", ""} {
		g, err := tr.acquire(ctx, "http://a/x")
		if err != nil || !g.allowed || g.ticket != ticket {
			t.Fatalf("acquire = %+v, %v; want allowed with ticket %q", g, err, ticket)
		}
		if want := (pace.Pace{Interval: time.Second, Slack: 50 * time.Millisecond}); ticket != "" && (g.pace.Interval != want.Interval || g.pace.Slack != want.Slack) {
			t.Errorf("acquire's pace = %v + %v, want %v + %v", g.pace.Interval, g.pace.Slack, want.Interval, want.Slack)
		}
		if err := r.report(ctx, "http://a/x", g, 429, "3"); err != nil {
			t.Fatalf("report: %v", err)
		}
	}
	want := []map[string]any{
		{"url": "http://a/x", "status": 429.0, "retry_after": "3", "agent": "ExampleBot", "ticket": "t1"},
		{"url": "http://a/x", "status": 429.0, "retry_after": "3"},
	}
	if !reflect.DeepEqual(s.reports, want) {
		t.Errorf("reports sent %v, want %v", s.reports, want)
	}
	g, err := r.acquire(ctx, "http://a/private/x")
	if err != nil || g.allowed || g.reason != "disallowed by line 2: Disallow: /private/" {
		t.Errorf("acquire of a disallowed URL = %+v, %v", g, err)
	}
	if _, err := r.acquire(ctx, "http://a/x"); err == nil || !strings.Contains(err.Error(), `answered 400: bad request body: no "url"`) {
		t.Errorf("acquire answered 400: error %v, want serve's words", err)
	}
}

// scripted is a pacer answering acquires with the grants and errors given
// in turn, and recording the grants reported.
type scripted struct {
	mu       sync.Mutex
	grants   []grant
	errs     []error
	acquires int
	reported []grant
}

func (p *scripted) acquire(context.Context, string) (grant, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := min(p.acquires, len(p.grants)-1)
	p.acquires++
	g := p.grants[i]
	if g.at.IsZero() {
		g.at = time.Now()
	}
	return g, p.errs[i]
}

func (p *scripted) report(_ context.Context, _ string, g grant, _ int, _ string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reported = append(p.reported, g)
	return nil
}

// TestTransportSlot: the transport asks a busy pacer again after its
// RetryAfter (serve's 429, an in-process pace.HorizonError); a slot the
// request would leave on later than its pace allows is given up and a new
// one acquired (the request goes once, on the new slot, and its report
// carries the new slot's ticket); a request late for maxStale slots in a
// row fails with a *LateError, and nothing is sent.
func TestTransportSlot(t *testing.T) {
	paced := pace.Pace{Interval: time.Second, Slack: 50 * time.Millisecond}
	long := time.Now().Add(-time.Second) // an answer a second old: its slot is stale
	ok := grant{allowed: true, pace: paced, ticket: "fresh"}
	stale := grant{allowed: true, at: long, pace: paced, ticket: "stale"}
	tests := []struct {
		name     string
		grants   []grant
		errs     []error
		acquires int
		ticket   string // reported; "" when the request must fail
		err      any    // the error's type, when it must fail
	}{
		{"on time", []grant{ok}, []error{nil}, 1, "fresh", nil},
		{"busy through serve", []grant{{}, ok}, []error{&busyError{time.Millisecond}, nil}, 2, "fresh", nil},
		{"past the horizon in process", []grant{{}, ok}, []error{&pace.HorizonError{Next: 61 * time.Millisecond, Horizon: 60 * time.Millisecond}, nil}, 2, "fresh", nil},
		{"late once", []grant{stale, ok}, []error{nil, nil}, 2, "fresh", nil},
		{"late without a pace", []grant{{allowed: true, at: long, ticket: "unpaced"}}, []error{nil}, 1, "unpaced", nil},
		{"late every time", []grant{stale}, []error{nil}, maxStale, "", new(*LateError)},
		{"disallowed", []grant{{reason: "no"}}, []error{nil}, 1, "", new(*DisallowedError)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sent atomic.Int64
			site := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { sent.Add(1) }))
			defer site.Close()
			p := &scripted{grants: tt.grants, errs: tt.errs}
			tr := &transport{base: site.Client().Transport, pacer: p, log: slog.New(slog.DiscardHandler)}
			req, _ := http.NewRequest(http.MethodGet, site.URL+"/x", nil)
			resp, err := tr.RoundTrip(req)
			if resp != nil {
				resp.Body.Close()
			}
			if p.acquires != tt.acquires {
				t.Errorf("RoundTrip acquired %d slots, want %d", p.acquires, tt.acquires)
			}
			if tt.err != nil {
				if !errors.As(err, tt.err) || sent.Load() != 0 {
					t.Errorf("RoundTrip = %v with %d requests sent; want a %T and none", err, sent.Load(), tt.err)
				}
				return
			}
			if err != nil || sent.Load() != 1 || len(p.reported) != 1 || p.reported[0].ticket != tt.ticket {
				t.Errorf("RoundTrip = %v, %d requests sent, reports %+v; want one request, reported with ticket %q", err, sent.Load(), p.reported, tt.ticket)
			}
		})
	}
}

// TestLocalQueue: in process, a crawler's slots are kept in its own queue
// at the site, pace.Queue(site, agent), as serve keeps them.
func TestLocalQueue(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nCrawl-delay: 1\n")
	}))
	defer site.Close()
	l := newLocal("ExampleBot", robots.RFC9309, "ExampleBot/1.0", site.Client().Transport)
	g, err := l.acquire(context.Background(), site.URL+"/a")
	if err != nil || !g.allowed {
		t.Fatalf("acquire = %+v, %v", g, err)
	}
	s, _ := pace.Site(site.URL)
	if want := pace.Queue(s, "ExampleBot"); g.queue != want {
		t.Errorf("acquire's queue = %q, want %q", g.queue, want)
	}
	if g.pace.Interval != time.Second {
		t.Errorf("acquire's pace = %v, want the Crawl-delay, 1s", g.pace.Interval)
	}
}
