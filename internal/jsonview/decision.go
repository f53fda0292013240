// The decision object: the JSON shape of a robots.txt decision that every
// sitetxt output shares (docs/cli.md, the output contract, item 5): check
// -o json, diff's verdicts, matrix's cells, and the results of sitetxt
// serve. A decision says whether an agent may fetch a URL under a profile,
// why (the reason), which rule and which group decided, with their
// positions in the robots.txt, and, for a robots.txt fetched over HTTP,
// what the fetch gave.
//
// RuleOf and GroupOf build the parts that name a robots.txt line, so that
// every output places them the same way; DecisionOf and Views put the
// object together, once for the CLI and serve. A robots.txt fetched over
// HTTP, whose status may decide every URL before its rules do, is decided
// by robots.Reading.

package jsonview

import (
	"time"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/robots"
)

// Decision is one URL's verdict. Rule and Group are null when no rule or
// group applied; Fetch is left out when the robots.txt was not fetched.
type Decision struct {
	URL     string `json:"url"`
	Agent   string `json:"agent"`
	Profile string `json:"profile"`
	Allowed bool   `json:"allowed"`
	Reason  string `json:"reason"`
	Rule    *Rule  `json:"rule"`
	Group   *Group `json:"group"`
	Fetch   *Fetch `json:"fetch,omitempty"`
}

// Rule is the rule that decided, where it is.
type Rule struct {
	Directive string `json:"directive"`
	Pattern   string `json:"pattern"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
}

// Group is the group whose rules applied, where it starts.
type Group struct {
	Agents []string `json:"agents"`
	File   string   `json:"file"`
	Line   int      `json:"line"`
	Column int      `json:"column"`
}

// Fetch is what fetching the robots.txt gave, and how fresh it is: an
// answer from a cache says so (FromCache), with when the response was
// fetched and when it expires ("fetched_at", "expires": the keys and
// types of "sitetxt fetch -o json").
type Fetch struct {
	URL       string     `json:"url"`
	Status    int        `json:"http_status"` // the HTTP status, 0 when there was no response
	Meaning   string     `json:"meaning"`     // parse, allow-all, disallow-all, defer
	Error     string     `json:"error"`       // why the fetch failed, "" when it did not
	FromCache bool       `json:"from_cache"`
	FetchedAt *time.Time `json:"fetched_at,omitempty"`
	Expires   *time.Time `json:"expires,omitempty"`
}

// FetchOf returns the fetch part of a decision for r, nil for a source
// that was not fetched.
func FetchOf(r *fetch.Result) *Fetch {
	if r == nil {
		return nil
	}
	v := &Fetch{URL: r.URL, Status: r.HTTPStatus, Meaning: r.Status.String(), FromCache: r.FromCache,
		FetchedAt: TimeOf(r.FetchedAt), Expires: TimeOf(r.Expires)}
	if r.Err != nil {
		v.Error = r.Err.Error()
	}
	return v
}

// TimeOf returns t in UTC, truncated to the second; nil for the zero time.
func TimeOf(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC().Truncate(time.Second)
	return &u
}

// DecisionOf returns the decision object of d, the decision for url and
// agent under prof by the rules of file (f the fetch part, nil for a file
// not fetched). Every output builds its decision objects here or through
// Views, which gives the same object.
func DecisionOf(url, agent string, prof robots.Profile, file string, d robots.Decision, f *Fetch) Decision {
	return build(url, agent, prof.String(), d, RuleOf(d.Rule, file), GroupOf(d.Group, file), f)
}

// build is the one place a decision object is put together.
func build(url, agent, prof string, d robots.Decision, r *Rule, g *Group, f *Fetch) Decision {
	return Decision{URL: url, Agent: agent, Profile: prof, Allowed: d.Allowed, Reason: d.Reason, Rule: r, Group: g, Fetch: f}
}

// Views builds the decision objects of one robots.txt under one profile,
// making each rule's and group's part once: a stream of a million URLs
// decided by a handful of rules allocates them a handful of times (check,
// diff, matrix, sitemaps).
type Views struct {
	file, profile string
	fetch         *Fetch
	rules         map[*robots.Rule]*Rule
	groups        map[*robots.Group]*Group
}

// NewViews returns the views of file read under prof, f its fetch part.
func NewViews(file string, prof robots.Profile, f *Fetch) *Views {
	return &Views{file: file, profile: prof.String(), fetch: f,
		rules: map[*robots.Rule]*Rule{}, groups: map[*robots.Group]*Group{}}
}

// Profile returns the profile's name the views write.
func (v *Views) Profile() string { return v.profile }

// Of returns the decision object of d for url and agent, as DecisionOf
// does.
func (v *Views) Of(url, agent string, d robots.Decision) Decision {
	return build(url, agent, v.profile, d, v.rule(d.Rule), v.group(d.Group), v.fetch)
}

func (v *Views) rule(r *robots.Rule) *Rule {
	if r == nil {
		return nil
	}
	if j, ok := v.rules[r]; ok {
		return j
	}
	j := RuleOf(r, v.file)
	v.rules[r] = j
	return j
}

func (v *Views) group(g *robots.Group) *Group {
	if g == nil {
		return nil
	}
	if j, ok := v.groups[g]; ok {
		return j
	}
	j := GroupOf(g, v.file)
	v.groups[g] = j
	return j
}

// FetchOfAnswer returns the fetch part of a decision a robots.Client
// answered: what the robots.txt response meant, and how fresh it is.
func FetchOfAnswer(a *robots.Answer) *Fetch {
	f := &Fetch{URL: a.RobotsURL, Status: a.HTTPStatus, Meaning: a.Status.String(), FromCache: a.FromCache,
		FetchedAt: TimeOf(a.FetchedAt), Expires: TimeOf(a.Expires)}
	if a.Err != nil {
		f.Error = a.Err.Error()
	}
	return f
}

// RuleOf returns the rule part of a decision: r's directive and pattern,
// and where its field starts in file; nil when no rule decided.
func RuleOf(r *robots.Rule, file string) *Rule {
	if r == nil {
		return nil
	}
	p := r.Line.FieldPos()
	return &Rule{Directive: r.Directive(), Pattern: r.Pattern, File: file, Line: p.Line, Column: p.Column}
}

// GroupOf returns the group part of a decision: g's User-agent values
// (an empty list, never null) and where its first User-agent line starts
// in file; nil when no group applied.
func GroupOf(g *robots.Group, file string) *Group {
	if g == nil {
		return nil
	}
	p := g.Pos()
	// A copy: the group's own slice may share its policy's allocation,
	// which a kept answer would then keep whole.
	agents := append(make([]string, 0, len(g.Agents)), g.Agents...)
	return &Group{Agents: agents, File: file, Line: p.Line, Column: p.Column}
}

// RequestRate is a group's Request-rate line: at most Requests per Seconds.
// "crawl_delay" (seconds) and "request_rate" are the keys every output
// that carries a group's pace uses (serve, explain).
type RequestRate struct {
	Requests int     `json:"requests"`
	Seconds  float64 `json:"seconds"`
}

// Pace returns a group's Crawl-delay in seconds and its Request-rate, each
// nil when the group has none (or g is nil).
func Pace(g *robots.Group) (*float64, *RequestRate) {
	if g == nil {
		return nil, nil
	}
	var cd *float64
	if g.CrawlDelay != nil {
		s := g.CrawlDelay.Delay.Seconds()
		cd = &s
	}
	var rr *RequestRate
	if r := g.RequestRate; r != nil {
		rr = &RequestRate{Requests: r.Requests, Seconds: r.Period.Seconds()}
	}
	return cd, rr
}
