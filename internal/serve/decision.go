package serve

import (
	"context"
	"errors"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/internal/audit"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/robots"
)

// Result is one result of POST /v1/check: the decision object of
// "sitetxt check -o json" (package jsonview, the output contract), plus
// the agent's Crawl-delay and Request-rate, and Error for a URL that could
// not be decided at all (not an http or https URL).
type Result struct {
	jsonview.Decision
	CrawlDelay  *float64              `json:"crawl_delay,omitempty"` // seconds
	RequestRate *jsonview.RequestRate `json:"request_rate,omitempty"`
	// Usage is the usage preference, as check -o json gives it, when a
	// usage line applies to the URL and it may be fetched.
	Usage *jsonview.Usage `json:"usage,omitempty"`
	Error string          `json:"error,omitempty"`
	// Truncated names the parts of the site's text this result shortened
	// ("rule.pattern", "group.agents", "usage.content_usage.lines",
	// "usage.content_signal.lines"), so that no robots.txt makes every
	// result of a request large (bound).
	Truncated []string `json:"truncated,omitempty"`
}

// decisionOf builds the result for one URL from a Client's answer. A
// fetch that failed below HTTP is told in public words (publicError); its
// detail goes to the log.
func (s *Server) decisionOf(url, agent string, prof robots.Profile, a *robots.Answer, err error) Result {
	if err != nil {
		return undecided(url, agent, prof, notHTTP, err.Error())
	}
	d := Result{Decision: jsonview.Decision{URL: url, Agent: agent, Profile: prof.String()}}
	d.Allowed, d.Reason = a.Allowed, a.Reason
	d.Fetch = jsonview.FetchOfAnswer(a)
	if a.Err != nil {
		d.Fetch.Error, d.Reason = s.fetchError(a)
	}
	if a.Decision == nil {
		return d
	}
	d.Decision = jsonview.DecisionOf(url, agent, prof, a.RobotsURL, *a.Decision, d.Fetch)
	d.fill(a.RobotsURL, *a.Decision, a.Usage)
	return d
}

// notHTTP is the reason of a URL that could not be decided at all: the
// words of fetch's error for it.
var notHTTP = fetch.ErrNotHTTP.Error()

// undecided is the result of a URL that was not decided: the reason, and
// the error msg saying why.
func undecided(url, agent string, prof robots.Profile, reason, msg string) Result {
	return Result{Decision: jsonview.Decision{URL: url, Agent: agent, Profile: prof.String(), Reason: reason}, Error: msg}
}

// fill sets the parts of r, a decision object of package jsonview, that
// serve adds: the group's pace, and the usage preference u (nil when the
// file has no usage lines; none is shown when no line applies to the URL,
// jsonview.DecisionUsage); the site's text in them bounded (bound).
func (r *Result) fill(file string, d robots.Decision, u *robots.UsageDecision) {
	r.CrawlDelay, r.RequestRate = jsonview.Pace(d.Group)
	if u != nil {
		r.Usage = jsonview.DecisionUsage(file, *u, audit.DefaultRegistry().Find(r.Agent))
	}
	bound(r)
}

// fetchError returns what a client is told of a fetch that failed, and
// the reason without its cause when the cause is not for a stranger.
// What a site said over HTTP (its status, a redirect it sent) is the
// site's own public answer and is told as it is; a failure below HTTP
// (a connection refused, reset or timed out, a name that does not
// resolve, a TLS handshake, a service that is not HTTP, an address the
// guard refused) is told in public words, its detail logged; a request
// that ended first says so.
func (s *Server) fetchError(a *robots.Answer) (msg, reason string) {
	var ne *fetch.NetError
	switch {
	case errors.Is(a.Err, context.DeadlineExceeded) && !errors.As(a.Err, &ne):
		return "the request's time ran out before robots.txt came", publicReason(a.Reason, a.Err)
	case errors.Is(a.Err, context.Canceled):
		return "the request ended before robots.txt came", publicReason(a.Reason, a.Err)
	case errors.As(a.Err, &ne) || a.HTTPStatus == 0:
		s.log.Info("fetch failed", "robots", a.RobotsURL, "err", a.Err.Error())
		return publicError(a.RobotsURL, a.Err), publicReason(a.Reason, a.Err)
	}
	return a.Err.Error(), a.Reason
}
