// Package pace spaces a crawler's requests to each site as the site asks.
//
// A robots.txt group may ask crawlers to slow down: "Crawl-delay: 2.5"
// (seconds between two requests), "Request-rate: 2/1s" (at most two
// requests a second; sitetxt spaces them evenly, one every half second)
// and "Visit-time: 0600-0845" (crawl only between these UTC times). The
// lines have no standard: RFC 9309 leaves them out, Google's crawlers
// ignore them, most others honour Crawl-delay. Parsers read the values and
// leave the pacing to each crawler, which gets it wrong as soon as several
// processes crawl the same site. Package pace does the pacing:
//
//   - Reading.Of reads the pace a site asks of one crawler from its
//     compiled robots.txt (the crawler's own group), with a default when
//     the site says nothing, a cap on absurd values (with a diagnostic at
//     the line) and each profile's reading (robots.Profile.PaceLines).
//   - A Pacer hands out slots per queue (a site, or one crawler's requests
//     to a site: Queue): Acquire reserves the queue's next slot and says
//     how long to wait for it (0: fetch now), and books none past a
//     horizon (Options.Horizon, two minutes); Report feeds back what the
//     fetch answered: a 429 or 503 with Retry-After pauses the queue (at
//     most Options.PauseMax, an hour), repeated 5xx answers back off
//     exponentially up to a bound, and any other answer ends the backoff.
//
// Memory is the Pacer of one process, and of crawlers that already send
// each host to one worker. Package pace/redispace is the Pacer of a fleet:
// one Lua script reserves a slot atomically in Redis, so that the site
// sees its requests spaced as it asked however many processes crawl it
// (docs/fleet.md).
package pace

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/robots"
)

// A Pacer hands out fetch slots per queue. A queue is a site (an origin
// as Site writes it), whose requests it paces whichever crawler sends
// them, or one crawler's requests to a site (Queue), paced apart from
// other crawlers'. Implementations are safe for concurrent use.
type Pacer interface {
	// Acquire reserves the queue's next slot for one request paced by p
	// and returns how long to wait before sending it (0: now). The slot is
	// the caller's: the next caller for the queue gets the one after it.
	// A slot that would start more than the Pacer's horizon from now
	// (Options.Horizon) is not booked: the error is a *HorizonError.
	Acquire(ctx context.Context, queue string, p Pace) (time.Duration, error)
	// Report feeds back the HTTP status of a request of the queue and its
	// Retry-After header ("" when none). It returns the pause in force for
	// the queue after the answer (Pause.Wait 0 when none): the one this
	// answer put on it, or one in force already.
	Report(ctx context.Context, queue string, status int, retryAfter string) (Pause, error)
}

// Queue returns the queue of one crawler's requests to site (a site as
// Site writes it): a Pacer paces them apart from other crawlers' requests
// to the site, so that a Crawl-delay its robots.txt asks of one crawler
// does not hold back another. agent is the crawler's product token or
// User-Agent header; its product token (robots.ProductToken), in lower
// case, names the queue, "*" when it gives none.
func Queue(site, agent string) string {
	crawler := strings.ToLower(robots.ProductToken(agent))
	if crawler == "" {
		crawler = "*"
	}
	return site + " " + crawler
}

// SplitQueue returns the site and the crawler of a queue: those Queue was
// given, or the site alone and "" for a queue that is a site.
func SplitQueue(queue string) (site, crawler string) {
	site, crawler, _ = strings.Cut(queue, " ")
	return site, crawler
}

// HorizonError is Acquire's refusal of a slot past the Pacer's horizon:
// the queue's next slot would start Next from now, more than Horizon
// ahead. Nothing was booked.
type HorizonError struct {
	Next, Horizon time.Duration
}

func (e *HorizonError) Error() string {
	return fmt.Sprintf("the next slot starts in %s, past the horizon of %s: nothing was booked", e.Next.Round(time.Millisecond), e.Horizon)
}

// RetryAfter is how long until the queue's next slot would be within the
// horizon, if no one else books one meanwhile.
func (e *HorizonError) RetryAfter() time.Duration { return max(e.Next-e.Horizon, 0) }

// Pace is how often one crawler may send a request to one site.
type Pace struct {
	// Interval is the least time between the starts of two requests.
	Interval time.Duration
	// Slack is added to a non-zero Interval between two slots: a site
	// measures when requests arrive, and the time between a Pacer's
	// answer and the request it allows varies (scheduling, the network),
	// so a request that leaves late would bring the next one closer than
	// asked. With Slack s, two requests arrive at least Interval apart
	// while their delays differ by less than s.
	Slack time.Duration
	// Window, when set, is the time of day requests may start in
	// (Visit-time); outside it a slot waits for the window to open.
	Window *Window
	// Source names what set Interval: "crawl-delay", "request-rate" or
	// "default" (the site asked for nothing, or its lines are not read).
	Source string
	// Line is the robots.txt line Source names, nil for "default".
	Line *grammar.Line
	// Diagnostics say where the pace differs from what the file asks: a
	// value over the cap, lines the reading ignores.
	Diagnostics grammar.Diagnostics
}

// Spacing is the time a Pacer leaves between two slots: Interval plus
// Slack, or 0 when Interval is 0.
func (p Pace) Spacing() time.Duration {
	if p.Interval <= 0 {
		return 0
	}
	return p.Interval + p.Slack
}

// Window is a Visit-time window: From and To are minutes after midnight
// UTC; To less than From is a window across midnight. A request may start
// from From up to, not including, To.
type Window struct{ From, To int }

const day = 24 * time.Hour

// Next returns t if it falls in the window, else the window's next
// opening after t (to the minute). A window whose ends are equal is the
// whole day.
func (w *Window) Next(t time.Time) time.Time {
	if w == nil || w.From == w.To {
		return t
	}
	t = t.UTC()
	m := t.Hour()*60 + t.Minute()
	if w.From < w.To && m >= w.From && m < w.To || w.From > w.To && (m >= w.From || m < w.To) {
		return t
	}
	return t.Truncate(time.Minute).Add(time.Duration((w.From-m+1440)%1440) * time.Minute)
}

// Defaults of Reading.
const (
	// DefaultInterval is the pace of a site that asks for none.
	DefaultInterval = time.Second
	// DefaultMax caps what a site may ask: a slower pace is read as this.
	DefaultMax = time.Minute
	// DefaultSlack is Pace.Slack unless Reading says otherwise.
	DefaultSlack = 50 * time.Millisecond
)

// Lines says which sites' pace lines a Reading honours.
type Lines uint8

// The readings of a site's Crawl-delay, Request-rate and Visit-time.
const (
	// ByProfile honours them under the profiles whose crawlers do
	// (robots.Profile.PaceLines: rfc9309, draft, norobots) and ignores
	// them under google, as Google's crawlers do.
	ByProfile Lines = iota
	// Always honours them under every profile.
	Always
	// Never ignores them: every site gets the default pace.
	Never
)

var linesNames = [...]string{ByProfile: "profile", Always: "always", Never: "never"}

// String returns "profile", "always" or "never".
func (l Lines) String() string {
	if int(l) < len(linesNames) {
		return linesNames[l]
	}
	return fmt.Sprintf("lines(%d)", int(l))
}

// ParseLines reads "profile", "always" or "never", in any case.
func ParseLines(s string) (Lines, error) {
	for i, n := range linesNames {
		if strings.EqualFold(s, n) {
			return Lines(i), nil
		}
	}
	return 0, fmt.Errorf("unknown pace reading %q (want profile, always or never)", s)
}

// Reading says how a site's pace is read. The zero value honours the
// lines by profile, with DefaultInterval and DefaultMax.
type Reading struct {
	// Default is the interval of a site that asks for nothing; 0 means
	// DefaultInterval, negative none (0 s).
	Default time.Duration
	// Max caps the interval a site may ask for; 0 means DefaultMax.
	Max time.Duration
	// Lines says whether the site's lines are honoured.
	Lines Lines
	// Slack is the Pace's Slack; 0 means DefaultSlack, negative none.
	Slack time.Duration
}

func (r Reading) defaults() Reading {
	r.Default = orNone(r.Default, DefaultInterval)
	if r.Max <= 0 {
		r.Max = DefaultMax
	}
	r.Default = min(r.Default, r.Max)
	r.Slack = orNone(r.Slack, DefaultSlack)
	return r
}

// orNone reads a duration of the options: 0 means def, negative none
// (0).
func orNone(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}

// Of returns the pace pol asks of agent: the larger of the intervals its
// Crawl-delay and Request-rate ask for (a rate of n per period is one
// request every period/n), at most Max, and its Visit-time window; the
// Default when it asks for neither, or when its lines are not read. A nil
// pol (no robots.txt, or one that does not parse) gets the Default.
func (r Reading) Of(pol *robots.Policy, agent string) Pace {
	r = r.defaults()
	p := Pace{Interval: r.Default, Slack: r.Slack, Source: "default"}
	if pol == nil {
		return p
	}
	a := pol.Agent(agent)
	cd, rr, vt := a.CrawlDelay(), a.RequestRate(), a.VisitTime()
	if cd == nil && rr == nil && vt == nil {
		return p
	}
	if r.Lines == Never || r.Lines == ByProfile && !pol.Profile().PaceLines() {
		var lines []*grammar.Line
		if cd != nil {
			lines = append(lines, cd.Line)
		}
		if rr != nil {
			lines = append(lines, rr.Line)
		}
		if vt != nil {
			lines = append(lines, vt.Line)
		}
		for _, l := range lines {
			p.Diagnostics = append(p.Diagnostics, diag(pol.Name(), l, "pace-ignored", r.ignored(pol.Profile(), l)))
		}
		return p
	}
	if cd != nil {
		p.Interval, p.Source, p.Line = cd.Delay, "crawl-delay", cd.Line
	}
	if rr != nil {
		if d := rr.Period / time.Duration(rr.Requests); cd == nil || d > p.Interval {
			p.Interval, p.Source, p.Line = d, "request-rate", rr.Line
		}
	}
	if vt != nil {
		p.Window = &Window{From: vt.From, To: vt.To}
	}
	if p.Interval > r.Max {
		p.Diagnostics = append(p.Diagnostics, diag(pol.Name(), p.Line, "pace-capped",
			fmt.Sprintf("%s asks for one request every %s; paced at the cap, one every %s (--pace-max)", p.Line.Field, p.Interval, r.Max)))
		p.Interval = r.Max
	}
	return p
}

// ignored says why a pace line is not honoured.
func (r Reading) ignored(prof robots.Profile, l *grammar.Line) string {
	if r.Lines == Never {
		return fmt.Sprintf("%s is not honoured (--pace-lines never): paced at the default, one request every %s", l.Field, r.Default)
	}
	return fmt.Sprintf("%s is not honoured under the %s profile, as its crawlers ignore it: paced at the default, one request every %s (--pace-lines always honours it)", l.Field, prof, r.Default)
}

func diag(file string, l *grammar.Line, code, summary string) *grammar.Diagnostic {
	return &grammar.Diagnostic{Severity: grammar.Warning, Code: code, Summary: summary, Filename: file,
		Range: grammar.Range{Start: l.Pos, End: l.End()}}
}

// Site returns the site a URL is on, as Pacers key it: its origin written
// one way (scheme, lower-case host, port only when not the default), as
// fetch.ManifestURL writes a robots.txt URL, without the path.
func Site(rawURL string) (string, error) {
	u, err := fetch.ManifestURL(rawURL, "robots.txt")
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(u, "/robots.txt"), nil
}

// Pause is the pause in force for a queue after a Report.
type Pause struct {
	// Wait is how long the queue is paused from now; 0 when it is not.
	Wait time.Duration
	// Cause is what set the pause: "retry-after" (the site said how long)
	// or "backoff" (repeated server errors), "" when Wait is 0.
	Cause string
}

// The causes of a Pause.
const (
	CauseRetryAfter = "retry-after"
	CauseBackoff    = "backoff"
)

// Backoff is how long a site is paused after server errors: Base after
// the first, doubling with each one after it, at most Max. An answer that
// is not a server error ends it.
type Backoff struct {
	Base, Max time.Duration
}

// Defaults of Backoff.
const (
	DefaultBackoffBase = 2 * time.Second
	DefaultBackoffMax  = 10 * time.Minute
)

// WithDefaults returns b with DefaultBackoffBase for a Base and
// DefaultBackoffMax for a Max that is not positive, and Base at most Max:
// the Backoff a Pacer applies.
func (b Backoff) WithDefaults() Backoff {
	if b.Base <= 0 {
		b.Base = DefaultBackoffBase
	}
	if b.Max <= 0 {
		b.Max = DefaultBackoffMax
	}
	b.Base = min(b.Base, b.Max)
	return b
}

// After returns the pause after the n-th server error in a row (n >= 1).
func (b Backoff) After(n int) time.Duration {
	b = b.WithDefaults()
	d := b.Base
	for i := 1; i < n && d < b.Max; i++ {
		d *= 2
	}
	return min(d, b.Max)
}

// Outcome is what a reported answer means for the site's pace.
type Outcome uint8

// The outcomes of Classify.
const (
	// Fine: the site answered; an ongoing backoff ends.
	Fine Outcome = iota
	// Paused: the site said how long to wait (Retry-After).
	Paused
	// Failed: a server error without Retry-After; the site backs off.
	Failed
)

// Classify reads a reported answer: a 429 or 5xx with a Retry-After
// (seconds, or an HTTP date taken relative to now; at most
// fetch.MaxRetry) pauses the site that long; a 429 or 5xx without one,
// or status 0 (no answer), is a failure; anything else is fine.
func Classify(status int, retryAfter string, now time.Time) (Outcome, time.Duration) {
	if status != 0 && status != 429 && status < 500 {
		return Fine, 0
	}
	if d, ok := fetch.ParseRetryAfter(retryAfter, now); ok && status != 0 {
		return Paused, d
	}
	return Failed, 0
}

// Defaults of Options.
const (
	// DefaultHorizon is how far ahead a Pacer books slots: a queue whose
	// next slot is further away than that is full for now.
	DefaultHorizon = 2 * time.Minute
	// DefaultPauseMax caps the pause one answer puts on a queue.
	DefaultPauseMax = time.Hour
	// DefaultMaxQueues bounds the queues a Memory keeps state for.
	DefaultMaxQueues = 1 << 18
)

// Options configure a Pacer.
type Options struct {
	// Backoff paces a queue after server errors.
	Backoff Backoff
	// Now is the clock; nil means time.Now (for a Redis pacer: Redis's
	// own clock, one for the whole fleet). Tests set it.
	Now func() time.Time
	// Horizon bounds how far ahead a slot is booked: Acquire books none
	// that would start later than Horizon from now (a *HorizonError), so
	// that no caller books a queue's slots for hours. 0 means
	// DefaultHorizon, negative none.
	Horizon time.Duration
	// PauseMax caps the pause one reported answer puts on a queue (a
	// Retry-After of a day pauses it for PauseMax); 0 means
	// DefaultPauseMax.
	PauseMax time.Duration
	// MaxQueues bounds the queues a Memory keeps state for: past it, the
	// states that would expire soonest are dropped first (one request of
	// such a queue may then come early). 0 means DefaultMaxQueues.
	MaxQueues int
}

// WithDefaults returns o with the defaults of its zero fields and its
// Backoff's, a PauseMax of at least the Backoff's Base and a Horizon of 0
// when there is none: the Options a Pacer applies.
func (o Options) WithDefaults() Options {
	o.Backoff = o.Backoff.WithDefaults()
	if o.Now == nil {
		o.Now = time.Now
	}
	o.Horizon = orNone(o.Horizon, DefaultHorizon)
	if o.PauseMax <= 0 {
		o.PauseMax = DefaultPauseMax
	}
	o.PauseMax = max(o.PauseMax, o.Backoff.Base)
	if o.MaxQueues <= 0 {
		o.MaxQueues = DefaultMaxQueues
	}
	return o
}

// CheckHorizon returns the *HorizonError Acquire answers for a slot next
// from now past the horizon of o (o with its defaults: a Horizon of 0 is
// none), nil for a slot within it.
func (o Options) CheckHorizon(next time.Duration) error {
	if o.Horizon > 0 && next > o.Horizon {
		return &HorizonError{Next: next, Horizon: o.Horizon}
	}
	return nil
}
