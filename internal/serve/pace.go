package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/pace"
)

// acquireRequest is the body of POST /v1/acquire: the URL a crawler is
// about to fetch, its agent, and the profile (default: Config.Profile).
type acquireRequest struct {
	URL     string  `json:"url"`
	Agent   *string `json:"agent"`
	Profile string  `json:"profile"`
}

// acquireResponse is the answer of POST /v1/acquire: the /v1/check result
// for the URL and, when it may be fetched, the slot reserved for the
// caller: wait_ms (0: fetch now), the pace it was spaced by, and the
// ticket POST /v1/report asks back (ticket.go). A URL that may not be
// fetched reserves nothing and has none of them.
type acquireResponse struct {
	Result
	WaitMS *int64    `json:"wait_ms,omitempty"`
	Pace   *paceView `json:"pace,omitempty"`
	Ticket string    `json:"ticket,omitempty"`
}

// paceView is a pace.Pace in JSON: the interval in seconds, the slack
// added between two slots (seconds), what set the interval
// ("crawl-delay", "request-rate", "default"), the Visit-time window
// ("HH:MM" UTC) and the diagnostics of the reading (a capped value, lines
// not honoured under the profile).
type paceView struct {
	Seconds     float64               `json:"seconds"`
	Slack       float64               `json:"slack"`
	Source      string                `json:"source"`
	VisitTime   *visitTimeView        `json:"visit_time,omitempty"`
	Diagnostics []jsonview.Diagnostic `json:"diagnostics,omitempty"`
}

type visitTimeView struct {
	From string `json:"from"`
	To   string `json:"to"`
}

func paceViewOf(p pace.Pace) *paceView {
	v := &paceView{Seconds: p.Interval.Seconds(), Slack: p.Slack.Seconds(), Source: p.Source}
	if w := p.Window; w != nil {
		hm := func(m int) string { return fmt.Sprintf("%02d:%02d", m/60, m%60) }
		v.VisitTime = &visitTimeView{From: hm(w.From), To: hm(w.To)}
	}
	if len(p.Diagnostics) > 0 {
		v.Diagnostics = jsonview.Diagnostics(p.Diagnostics)
	}
	return v
}

// runAcquire decides the URL as /v1/check does and, when it may be
// fetched, reserves the next slot of the agent's queue at the site for
// the caller (reserve), with its ticket. The gate has bounded the agent,
// and its context carries the fetch cap and the caller.
func (s *Server) runAcquire(ctx context.Context, req *acquireRequest) (*acquireResponse, *apiError) {
	if req.Agent == nil {
		return nil, badRequest(`bad request body: no "agent" (the crawler's product token: its group's pace applies)`)
	}
	agent := *req.Agent
	if req.URL == "" {
		return nil, badRequest(`bad request body: no "url" (the URL about to be fetched)`)
	}
	prof, aerr := s.profileOf(req.Profile)
	if aerr != nil {
		return nil, aerr
	}
	res, a := s.decideOne(ctx, s.clients[prof], prof, agent, req.URL)
	resp := &acquireResponse{Result: res}
	if a == nil || !res.Allowed {
		s.metrics.pace.acquired.WithLabelValues("disallowed").Inc()
		return resp, nil
	}
	p := s.cfg.Pace.Of(a.Policy(), agent)
	q := pace.Queue(strings.TrimSuffix(a.RobotsURL, "/robots.txt"), agent)
	wait, aerr := s.reserve(ctx, q, p)
	if aerr != nil {
		return nil, aerr
	}
	result := "now"
	if wait > 0 {
		result = "wait"
	}
	s.metrics.pace.acquired.WithLabelValues(result).Inc()
	s.metrics.pace.wait.Observe(wait.Seconds())
	ms := int64((wait + time.Millisecond - 1) / time.Millisecond)
	resp.WaitMS, resp.Pace = &ms, paceViewOf(p)
	resp.Ticket = s.tickets.sign(ctx, q, s.paceNow().Add(wait))
	return resp, nil
}

// reserve books the next slot of queue for the request's caller, within
// the caller's bound (callers.go) and the Pacer's horizon: past either, a
// 429 with Retry-After, and nothing booked.
func (s *Server) reserve(ctx context.Context, q string, p pace.Pace) (time.Duration, *apiError) {
	caller := callerFrom(ctx)
	n := limit(s.cfg.CallerSlots, p.Spacing(), s.horizon)
	if w, ok := s.callers.hold(caller, q, n, s.paceNow()); !ok {
		s.metrics.pace.acquired.WithLabelValues("caller").Inc()
		return 0, tooMany(w, "this caller holds %d slots still to come for this agent at this site, its most "+
			"(--pace-caller-slots, and at most half of --pace-horizon's worth); its next starts in %s", n, roundUp(w))
	}
	wait, err := s.pacer.Acquire(ctx, q, p)
	var he *pace.HorizonError
	switch {
	case errors.As(err, &he):
		s.callers.settle(caller, q, time.Time{})
		s.metrics.pace.acquired.WithLabelValues("horizon").Inc()
		return 0, tooMany(he.RetryAfter(), "the next slot for this agent at this site starts in %s, past the horizon of %s (--pace-horizon): nothing was booked",
			roundUp(he.Next), he.Horizon)
	case err != nil:
		s.callers.settle(caller, q, time.Time{})
		return 0, &apiError{code: http.StatusServiceUnavailable, msg: "the request ended before a slot was reserved"}
	}
	s.callers.settle(caller, q, s.paceNow().Add(wait))
	return wait, nil
}

// tooMany is a 429 whose Retry-After is wait (in whole seconds, at least
// one).
func tooMany(wait time.Duration, format string, args ...any) *apiError {
	return &apiError{code: http.StatusTooManyRequests, msg: fmt.Sprintf(format, args...), retryAfter: max(wait, time.Second)}
}

// roundUp rounds d up to a second, as Retry-After says it.
func roundUp(d time.Duration) time.Duration { return (d + time.Second - 1).Truncate(time.Second) }

// reportRequest is the body of POST /v1/report: what a fetch of url by
// agent answered, its status and its Retry-After header as the site sent
// it (a number of seconds may come as a JSON number), and the ticket of
// the slot the fetch was sent in.
type reportRequest struct {
	URL        string     `json:"url"`
	Agent      *string    `json:"agent"`
	Status     int        `json:"status"`
	RetryAfter flexString `json:"retry_after"`
	Ticket     string     `json:"ticket"`
}

// flexString is a JSON string, or a number taken as its text.
type flexString string

func (f *flexString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] != '"' && !bytes.Equal(b, []byte("null")) {
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return &fieldError{"retry_after", "seconds or an HTTP date, as a string or a number"}
		}
		*f = flexString(n)
		return nil
	}
	return json.Unmarshal(b, (*string)(f))
}

// reportResponse is the answer of POST /v1/report: the site, and the
// pause in force for the agent's queue at it after the report (pause_ms
// 0: none), with its cause ("retry-after", "backoff").
type reportResponse struct {
	Site    string `json:"site"`
	PauseMS int64  `json:"pause_ms"`
	Cause   string `json:"cause,omitempty"`
}

// runReport feeds a fetch's answer back to the pacer, when its ticket is
// one the fleet gave for a slot of the agent's queue at the URL's site
// (ticket.go); else it changes nothing.
func (s *Server) runReport(ctx context.Context, req *reportRequest) (*reportResponse, *apiError) {
	if req.Status < 100 || req.Status > 599 {
		return nil, badRequest(`bad request body: "status" %d is not an HTTP status (100 to 599)`, req.Status)
	}
	if len(req.RetryAfter) > 64 {
		return nil, badRequest(`bad request body: "retry_after" is %d bytes long; at most 64 (seconds or an HTTP date)`, len(req.RetryAfter))
	}
	if req.Agent == nil {
		return nil, badRequest(`bad request body: no "agent" (the agent the slot was acquired for)`)
	}
	site, err := pace.Site(req.URL)
	if err != nil {
		return nil, badRequest(`bad request body: "url" %s is not an http or https URL`, strconv.Quote(truncate(req.URL, 100)))
	}
	q := pace.Queue(site, *req.Agent)
	if aerr := s.tickets.verify(ctx, req.Ticket, q); aerr != nil {
		s.metrics.pace.reports.WithLabelValues("refused").Inc()
		return nil, aerr
	}
	p, err := s.pacer.Report(ctx, q, req.Status, string(req.RetryAfter))
	if err != nil {
		return nil, &apiError{code: http.StatusServiceUnavailable, msg: "the request ended before the report was taken"}
	}
	s.metrics.pace.reports.WithLabelValues("taken").Inc()
	if p.Wait > 0 {
		s.metrics.pace.pauses.WithLabelValues(p.Cause).Inc()
	}
	return &reportResponse{Site: site, PauseMS: p.Wait.Milliseconds(), Cause: p.Cause}, nil
}

// paceMetrics are the pacer's metrics.
type paceMetrics struct {
	acquired *prometheus.CounterVec // by result: now, wait, disallowed, horizon, caller
	wait     prometheus.Histogram
	pauses   *prometheus.CounterVec // by cause
	reports  *prometheus.CounterVec // by result: taken, refused
}

// registerPace adds the pacer's metrics to reg; the sites it paces when
// it counts them.
func registerPace(reg *prometheus.Registry, p pace.Pacer) paceMetrics {
	m := paceMetrics{
		acquired: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sitetxt_pace_acquisitions_total", Help: "POST /v1/acquire answers: now (a slot to use at once), wait (a slot later), disallowed (no slot: robots.txt disallows the URL), horizon (no slot: the next is past --pace-horizon), caller (no slot: the caller holds its most, --pace-caller-slots).",
		}, []string{"result"}),
		wait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "sitetxt_pace_wait_seconds", Help: "The waits POST /v1/acquire handed out (0 for a slot to use at once).",
			Buckets: []float64{0, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300, 3600},
		}),
		pauses: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sitetxt_pace_pauses_total", Help: "Reports that left a site paused, by cause: retry-after (429 or 5xx with Retry-After), backoff (server errors).",
		}, []string{"cause"}),
	}
	m.reports = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sitetxt_pace_reports_total", Help: "POST /v1/report answers: taken, refused (no ticket, or one not the fleet's for this site and agent, or not for now).",
	}, []string{"result"})
	reg.MustRegister(m.acquired, m.wait, m.pauses, m.reports)
	if n, ok := p.(interface{ Len() int }); ok {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "sitetxt_pace_sites", Help: "Queues (a site and a crawler) this process paced lately: whose pace state it holds.",
		}, func() float64 { return float64(n.Len()) }))
	}
	if e, ok := p.(interface{ Evicted() int64 }); ok {
		reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "sitetxt_pace_evicted_total", Help: "Queues whose pace state this process dropped before it expired, for room (the share of --max-memory pace state has).",
		}, func() float64 { return float64(e.Evicted()) }))
	}
	return m
}
