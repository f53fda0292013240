// Package pacetest holds the cases every pace.Pacer must pass, so that the
// in-process pacer and the Redis one are held to one table: on a clock the
// test moves, each case asks for slots and reports answers and checks the
// waits and pauses.
package pacetest

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/clocktest"
	"github.com/sitetxt/sitetxt/pace"
)

// NewClock returns a clock at 2026-01-01 10:00 UTC.
func NewClock() *clocktest.Clock {
	return clocktest.New(time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
}

// step is one action of a case: an Acquire (Report when status is set)
// after advancing the clock, and what it must answer.
type step struct {
	advance    time.Duration
	site       string // "" means "a"
	pace       pace.Pace
	status     int
	retryAfter string
	want       time.Duration // the wait, or the pause of a Report
	cause      string        // of a Report
}

func every(d time.Duration) pace.Pace { return pace.Pace{Interval: d} }

func window(d time.Duration, from, to int) pace.Pace {
	return pace.Pace{Interval: d, Window: &pace.Window{From: from, To: to}}
}

// Cases are the cases Run runs, by name.
var cases = []struct {
	name  string
	steps []step
}{
	{"slots spaced by the interval", []step{
		{pace: every(time.Second), want: 0},
		{pace: every(time.Second), want: time.Second},
		{pace: every(time.Second), want: 2 * time.Second},
		{advance: 2500 * time.Millisecond, pace: every(time.Second), want: 500 * time.Millisecond},
	}},
	{"an idle site's slot is now", []step{
		{pace: every(time.Second)},
		{advance: 5 * time.Second, pace: every(time.Second)},
	}},
	{"fractions of a second", []step{
		{pace: every(250 * time.Millisecond)},
		{pace: every(250 * time.Millisecond), want: 250 * time.Millisecond},
		{pace: every(250 * time.Millisecond), want: 500 * time.Millisecond},
	}},
	{"each caller's own interval after the last slot", []step{
		{pace: every(10 * time.Second)},
		{pace: every(time.Second), want: time.Second},
	}},
	{"sites apart", []step{
		{pace: every(time.Second)},
		{site: "b", pace: every(time.Second)},
		{pace: every(time.Second), want: time.Second},
	}},
	{"slack after a non-zero interval", []step{
		{pace: pace.Pace{Interval: time.Second, Slack: 50 * time.Millisecond}},
		{pace: pace.Pace{Interval: time.Second, Slack: 50 * time.Millisecond}, want: 1050 * time.Millisecond},
		{pace: pace.Pace{Slack: 50 * time.Millisecond}, want: 1050 * time.Millisecond},
		{pace: pace.Pace{Slack: 50 * time.Millisecond}, want: 1050 * time.Millisecond},
	}},
	{"no interval", []step{
		{pace: every(0)},
		{pace: every(0)},
	}},
	{"visit-time: wait for the window", []step{
		{pace: window(time.Second, 11*60, 12*60), want: time.Hour},
		{pace: window(time.Second, 11*60, 12*60), want: time.Hour + time.Second},
	}},
	{"visit-time: in the window", []step{
		{pace: window(time.Second, 9*60, 10*60+1)},
		{pace: window(time.Second, 9*60, 10*60+1), want: time.Second},
	}},
	{"visit-time: the window closes, the next day's", []step{
		{pace: window(40*time.Second, 9*60, 10*60+1)},
		{pace: window(40*time.Second, 9*60, 10*60+1), want: 40 * time.Second},
		{pace: window(40*time.Second, 9*60, 10*60+1), want: 23 * time.Hour},
	}},
	{"visit-time across midnight", []step{
		{pace: window(time.Second, 22*60, 2*60), want: 12 * time.Hour},
	}},
	{"429 with Retry-After seconds pauses", []step{
		{status: 429, retryAfter: "3", want: 3 * time.Second, cause: "retry-after"},
		{pace: every(time.Second), want: 3 * time.Second},
		{pace: every(time.Second), want: 4 * time.Second},
	}},
	{"the pause ends on time", []step{
		{status: 503, retryAfter: "3", want: 3 * time.Second, cause: "retry-after"},
		{advance: 3 * time.Second, pace: every(time.Second)},
	}},
	{"Retry-After as an HTTP date", []step{
		{status: 429, retryAfter: NewClock().Now().Add(10 * time.Second).Format(http.TimeFormat), want: 10 * time.Second, cause: "retry-after"},
		{pace: every(time.Second), want: 10 * time.Second},
	}},
	{"a pause is never shortened", []step{
		{status: 429, retryAfter: "60", want: time.Minute, cause: "retry-after"},
		{status: 429, retryAfter: "1", want: time.Minute, cause: "retry-after"},
		{pace: every(time.Second), want: time.Minute},
	}},
	{"server errors back off, doubling", []step{
		{status: 500, want: 2 * time.Second, cause: "backoff"},
		{advance: 2 * time.Second, status: 502, want: 4 * time.Second, cause: "backoff"},
		{advance: 4 * time.Second, status: 503, want: 8 * time.Second, cause: "backoff"},
		{pace: every(time.Second), want: 8 * time.Second},
	}},
	{"a fine answer ends the backoff", []step{
		{status: 500, want: 2 * time.Second, cause: "backoff"},
		{advance: 2 * time.Second, status: 500, want: 4 * time.Second, cause: "backoff"},
		{advance: 4 * time.Second, status: 200},
		{status: 500, want: 2 * time.Second, cause: "backoff"},
	}},
	{"a 404 is fine", []step{
		{status: 404},
		{pace: every(time.Second)},
	}},
	{"429 without Retry-After backs off", []step{
		{status: 429, retryAfter: "soon", want: 2 * time.Second, cause: "backoff"},
	}},
	{"the backoff is bounded", backoffSteps(12)},
}

func backoffSteps(n int) []step {
	var s []step
	want := 2 * time.Second
	for i := range n {
		var adv time.Duration
		if i > 0 {
			adv = s[i-1].want
		}
		s = append(s, step{advance: adv, status: 500, want: want, cause: "backoff"})
		want = min(2*want, pace.DefaultBackoffMax)
	}
	return s
}

// Run runs the cases on Pacers made by newPacer, each on the clock it is
// given (opts.Now) and with the default backoff.
func Run(t *testing.T, newPacer func(t *testing.T, opts pace.Options) pace.Pacer) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clock := NewClock()
			p := newPacer(t, pace.Options{Now: clock.Now})
			ctx := context.Background()
			for i, s := range c.steps {
				clock.Advance(s.advance)
				site := "http://" + t.Name() + "-a.example"
				if s.site != "" {
					site = "http://" + t.Name() + "-" + s.site + ".example"
				}
				if s.status != 0 {
					got, err := p.Report(ctx, site, s.status, s.retryAfter)
					if err != nil || got.Wait != s.want || got.Cause != s.cause {
						t.Errorf("step %d: Report(%q, %d, %q) = %+v, %v; want {Wait:%v Cause:%s}", i, site, s.status, s.retryAfter, got, err, s.want, s.cause)
					}
					continue
				}
				got, err := p.Acquire(ctx, site, s.pace)
				if err != nil || got != s.want {
					t.Errorf("step %d: Acquire(%q, %+v) = %v, %v; want %v", i, site, s.pace, got, err, s.want)
				}
			}
		})
	}
}
