package serve

import (
	"github.com/sitetxt/sitetxt/robots"
)

// Decision is one result of POST /v1/check: the decision object of
// "sitetxt check -o json" (docs/cli.md, the output contract), plus the
// agent's Crawl-delay and Request-rate, and Error for a URL that could not
// be decided at all (not an http or https URL).
//
// It mirrors the CLI's decision type field for field; when that type moves
// to a package both can import, this one goes.
type Decision struct {
	URL         string       `json:"url"`
	Agent       string       `json:"agent"`
	Profile     string       `json:"profile"`
	Allowed     bool         `json:"allowed"`
	Reason      string       `json:"reason"`
	Rule        *RuleJSON    `json:"rule"`
	Group       *GroupJSON   `json:"group"`
	Fetch       *FetchJSON   `json:"fetch,omitempty"`
	CrawlDelay  *float64     `json:"crawl_delay,omitempty"` // seconds
	RequestRate *RequestRate `json:"request_rate,omitempty"`
	Error       string       `json:"error,omitempty"`
}

// RuleJSON is the rule that decided, with its position in robots.txt
// (file is the robots.txt URL).
type RuleJSON struct {
	Directive string `json:"directive"`
	Pattern   string `json:"pattern"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
}

// GroupJSON is the group whose rules applied.
type GroupJSON struct {
	Agents []string `json:"agents"`
	File   string   `json:"file"`
	Line   int      `json:"line"`
	Column int      `json:"column"`
}

// FetchJSON is what fetching robots.txt gave.
type FetchJSON struct {
	URL     string `json:"url"`
	Status  int    `json:"status"`  // the HTTP status, 0 when there was no response
	Meaning string `json:"meaning"` // parse, allow-all, disallow-all, defer
	Error   string `json:"error"`   // why the fetch failed, "" when it did not
}

// RequestRate is a Request-rate line: at most Requests per Seconds.
type RequestRate struct {
	Requests int     `json:"requests"`
	Seconds  float64 `json:"seconds"`
}

// decisionOf builds the result for one URL from a Client's answer.
func decisionOf(url, agent string, prof robots.Profile, a *robots.Answer, err error) Decision {
	d := Decision{URL: url, Agent: agent, Profile: prof.String()}
	if err != nil {
		d.Reason, d.Error = "not an http or https URL", err.Error()
		return d
	}
	d.Allowed, d.Reason = a.Allowed, a.Reason
	d.Fetch = &FetchJSON{URL: a.RobotsURL, Status: a.HTTPStatus, Meaning: a.Status}
	if a.Err != nil {
		d.Fetch.Error = a.Err.Error()
	}
	if a.Decision == nil {
		return d
	}
	d.Reason = a.Decision.Reason
	if r := a.Decision.Rule; r != nil {
		p := r.Line.FieldPos()
		d.Rule = &RuleJSON{Directive: r.Directive(), Pattern: r.Pattern, File: a.RobotsURL, Line: p.Line, Column: p.Column}
	}
	if g := a.Decision.Group; g != nil {
		p := g.Pos()
		agents := g.Agents
		if agents == nil {
			agents = []string{}
		}
		d.Group = &GroupJSON{Agents: agents, File: a.RobotsURL, Line: p.Line, Column: p.Column}
		if g.CrawlDelay != nil {
			sec := g.CrawlDelay.Delay.Seconds()
			d.CrawlDelay = &sec
		}
		if rr := g.RequestRate; rr != nil {
			d.RequestRate = &RequestRate{Requests: rr.Requests, Seconds: rr.Period.Seconds()}
		}
	}
	return d
}
