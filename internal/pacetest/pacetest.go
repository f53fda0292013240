// Package pacetest holds the cases every pace.Pacer must pass, so that the
// in-process pacer and the Redis one are held to one table: on a clock the
// test moves, each case asks for slots and reports answers and checks the
// waits and pauses.
package pacetest

import (
	"context"
	"errors"
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
	crawler    string // when set, the queue is pace.Queue(site, crawler)
	pace       pace.Pace
	status     int
	retryAfter string
	want       time.Duration // the wait, or the pause of a Report
	cause      string        // of a Report
	refused    time.Duration // when set, Acquire refuses: a *pace.HorizonError with this Next
}

func every(d time.Duration) pace.Pace { return pace.Pace{Interval: d} }

func window(d time.Duration, from, to int) pace.Pace {
	return pace.Pace{Interval: d, Window: &pace.Window{From: from, To: to}}
}

// Cases are the cases Run runs, by name, each on a Pacer with the
// horizon given (0: none) and the default PauseMax.
var cases = []struct {
	name    string
	horizon time.Duration
	steps   []step
}{
	{"slots spaced by the interval", 0, []step{
		{pace: every(time.Second), want: 0},
		{pace: every(time.Second), want: time.Second},
		{pace: every(time.Second), want: 2 * time.Second},
		{advance: 2500 * time.Millisecond, pace: every(time.Second), want: 500 * time.Millisecond},
	}},
	{"an idle site's slot is now", 0, []step{
		{pace: every(time.Second)},
		{advance: 5 * time.Second, pace: every(time.Second)},
	}},
	{"fractions of a second", 0, []step{
		{pace: every(250 * time.Millisecond)},
		{pace: every(250 * time.Millisecond), want: 250 * time.Millisecond},
		{pace: every(250 * time.Millisecond), want: 500 * time.Millisecond},
	}},
	{"each caller's own interval after the last slot", 0, []step{
		{pace: every(10 * time.Second)},
		{pace: every(time.Second), want: time.Second},
	}},
	{"sites apart", 0, []step{
		{pace: every(time.Second)},
		{site: "b", pace: every(time.Second)},
		{pace: every(time.Second), want: time.Second},
	}},
	{"slack after a non-zero interval", 0, []step{
		{pace: pace.Pace{Interval: time.Second, Slack: 50 * time.Millisecond}},
		{pace: pace.Pace{Interval: time.Second, Slack: 50 * time.Millisecond}, want: 1050 * time.Millisecond},
		{pace: pace.Pace{Slack: 50 * time.Millisecond}, want: 1050 * time.Millisecond},
		{pace: pace.Pace{Slack: 50 * time.Millisecond}, want: 1050 * time.Millisecond},
	}},
	{"no interval", 0, []step{
		{pace: every(0)},
		{pace: every(0)},
	}},
	{"visit-time: wait for the window", 0, []step{
		{pace: window(time.Second, 11*60, 12*60), want: time.Hour},
		{pace: window(time.Second, 11*60, 12*60), want: time.Hour + time.Second},
	}},
	{"visit-time: in the window", 0, []step{
		{pace: window(time.Second, 9*60, 10*60+1)},
		{pace: window(time.Second, 9*60, 10*60+1), want: time.Second},
	}},
	{"visit-time: the window closes, the next day's", 0, []step{
		{pace: window(40*time.Second, 9*60, 10*60+1)},
		{pace: window(40*time.Second, 9*60, 10*60+1), want: 40 * time.Second},
		{pace: window(40*time.Second, 9*60, 10*60+1), want: 23 * time.Hour},
	}},
	{"visit-time across midnight", 0, []step{
		{pace: window(time.Second, 22*60, 2*60), want: 12 * time.Hour},
	}},
	{"429 with Retry-After seconds pauses", 0, []step{
		{status: 429, retryAfter: "3", want: 3 * time.Second, cause: "retry-after"},
		{pace: every(time.Second), want: 3 * time.Second},
		{pace: every(time.Second), want: 4 * time.Second},
	}},
	{"the pause ends on time", 0, []step{
		{status: 503, retryAfter: "3", want: 3 * time.Second, cause: "retry-after"},
		{advance: 3 * time.Second, pace: every(time.Second)},
	}},
	{"Retry-After as an HTTP date", 0, []step{
		{status: 429, retryAfter: NewClock().Now().Add(10 * time.Second).Format(http.TimeFormat), want: 10 * time.Second, cause: "retry-after"},
		{pace: every(time.Second), want: 10 * time.Second},
	}},
	{"a pause is never shortened", 0, []step{
		{status: 429, retryAfter: "60", want: time.Minute, cause: "retry-after"},
		{status: 429, retryAfter: "1", want: time.Minute, cause: "retry-after"},
		{pace: every(time.Second), want: time.Minute},
	}},
	{"server errors back off, doubling", 0, []step{
		{status: 500, want: 2 * time.Second, cause: "backoff"},
		{advance: 2 * time.Second, status: 502, want: 4 * time.Second, cause: "backoff"},
		{advance: 4 * time.Second, status: 503, want: 8 * time.Second, cause: "backoff"},
		{pace: every(time.Second), want: 8 * time.Second},
	}},
	{"a fine answer ends the backoff", 0, []step{
		{status: 500, want: 2 * time.Second, cause: "backoff"},
		{advance: 2 * time.Second, status: 500, want: 4 * time.Second, cause: "backoff"},
		{advance: 4 * time.Second, status: 200},
		{status: 500, want: 2 * time.Second, cause: "backoff"},
	}},
	{"a 404 is fine", 0, []step{
		{status: 404},
		{pace: every(time.Second)},
	}},
	{"429 without Retry-After backs off", 0, []step{
		{status: 429, retryAfter: "soon", want: 2 * time.Second, cause: "backoff"},
	}},
	{"the backoff is bounded", 0, backoffSteps(12)},
	{"a fine answer says the pause in force", 0, []step{
		{status: 429, retryAfter: "60", want: time.Minute, cause: "retry-after"},
		{advance: 10 * time.Second, status: 200, want: 50 * time.Second, cause: "retry-after"},
		{status: 200, site: "b"},
	}},
	{"a backoff does not shorten a Retry-After", 0, []step{
		{status: 503, retryAfter: "60", want: time.Minute, cause: "retry-after"},
		{status: 500, want: time.Minute, cause: "retry-after"},
	}},
	{"Retry-After at most PauseMax", 0, []step{
		{status: 429, retryAfter: "99999999", want: pace.DefaultPauseMax, cause: "retry-after"},
		{advance: pace.DefaultPauseMax, pace: every(time.Second)},
	}},
	{"crawlers' queues apart", 0, []step{
		{crawler: "FooBot", pace: every(2 * time.Second)},
		{crawler: "FooBot/2.1 (+https://foo.example/bot)", pace: every(2 * time.Second), want: 2 * time.Second},
		{crawler: "OtherBot", pace: every(time.Second)},
		{crawler: "otherbot", pace: every(time.Second), want: time.Second},
		{crawler: "FooBot", status: 429, retryAfter: "30", want: 30 * time.Second, cause: "retry-after"},
		{crawler: "OtherBot", pace: every(time.Second), want: 2 * time.Second},
		{crawler: "FooBot", pace: every(2 * time.Second), want: 30 * time.Second},
	}},
	{"horizon: a slot past it is refused and nothing booked", 3 * time.Second, []step{
		{pace: every(time.Second)},
		{pace: every(time.Second), want: time.Second},
		{pace: every(time.Second), want: 2 * time.Second},
		{pace: every(time.Second), want: 3 * time.Second},
		{pace: every(time.Second), refused: 4 * time.Second},
		{pace: every(time.Second), refused: 4 * time.Second},
		{advance: time.Second, pace: every(time.Second), want: 3 * time.Second},
	}},
	{"horizon: a pause past it refuses every slot", 3 * time.Second, []step{
		{status: 429, retryAfter: "10", want: 10 * time.Second, cause: "retry-after"},
		{pace: every(time.Second), refused: 10 * time.Second},
		{advance: 7 * time.Second, pace: every(time.Second), want: 3 * time.Second},
	}},
	{"horizon: a Visit-time window past it", 3 * time.Second, []step{
		{pace: window(time.Second, 11*60, 12*60), refused: time.Hour},
	}},
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
			horizon := c.horizon
			if horizon == 0 {
				horizon = -1 // none
			}
			p := newPacer(t, pace.Options{Now: clock.Now, Horizon: horizon})
			ctx := context.Background()
			for i, s := range c.steps {
				clock.Advance(s.advance)
				site := "http://" + t.Name() + "-a.example"
				if s.site != "" {
					site = "http://" + t.Name() + "-" + s.site + ".example"
				}
				if s.crawler != "" {
					site = pace.Queue(site, s.crawler)
				}
				if s.status != 0 {
					got, err := p.Report(ctx, site, s.status, s.retryAfter)
					if err != nil || got.Wait != s.want || got.Cause != s.cause {
						t.Errorf("step %d: Report(%q, %d, %q) = %+v, %v; want {Wait:%v Cause:%s}", i, site, s.status, s.retryAfter, got, err, s.want, s.cause)
					}
					continue
				}
				got, err := p.Acquire(ctx, site, s.pace)
				var he *pace.HorizonError
				switch {
				case s.refused != 0:
					if !errors.As(err, &he) || he.Next != s.refused || he.Horizon != c.horizon {
						t.Errorf("step %d: Acquire(%q, %+v) = %v, %v; want a HorizonError{Next: %v, Horizon: %v}", i, site, s.pace, got, err, s.refused, c.horizon)
					}
				case err != nil || got != s.want:
					t.Errorf("step %d: Acquire(%q, %+v) = %v, %v; want %v", i, site, s.pace, got, err, s.want)
				}
			}
		})
	}
}
