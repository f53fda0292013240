package sitetxtcolly

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/gocolly/colly/v2"
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
// again after its Retry-After; the report sends the agent and the ticket
// only when the acquire's answer had one; a disallowed URL says its rule;
// an error answer says serve's words.
func TestRemote(t *testing.T) {
	s := &standIn{
		statuses: []int{429, 200, 200, 200, 400},
		acquires: []string{
			`{"error":"booked; later"}`,
			`{"allowed":true,"wait_ms":0,"ticket":"t1"}`,
			`{"allowed":true,"wait_ms":0}`,
			`{"allowed":false,"reason":"rule matched","rule":{"directive":"Disallow","pattern":"/private/","line":2}}`,
			`{"error":"bad request body: no \"url\""}`,
		},
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	r := &remote{url: srv.URL, agent: "ExampleBot", profile: "rfc9309", hc: srv.Client()}
	ctx := context.Background()
	for _, ticket := range []string{"t1", ""} {
		g, err := r.acquire(ctx, "http://a/x")
		if err != nil || !g.allowed || g.ticket != ticket {
			t.Fatalf("acquire = %+v, %v; want allowed with ticket %q", g, err, ticket)
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
