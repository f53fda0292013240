package robots

import (
	"fmt"
	"sort"
)

// Explanation is what a policy means for one crawler, as sitetxt explain
// prints it: the groups that apply and why, the rules in the order the
// profile tries them, the groups' delays, and the file-wide Sitemap and
// Host lines.
type Explanation struct {
	// Agent is the crawler's name or User-Agent header, as given;
	// Profile the policy's profile.
	Agent   string
	Profile Profile
	// Why says in one sentence why Groups apply: a User-agent line names
	// the crawler, or none does and the "*" group applies, or no group
	// applies.
	Why string
	// Global is set when the crawler fell back to the "*" group(s).
	Global bool
	// Groups holds the groups that apply, in file order; none when no
	// group applies (everything is allowed).
	Groups []*Group
	// Order says how the profile tries Rules ("in file order; the first
	// match decides").
	Order string
	// Rules holds the rules that apply, in the order tried: the first
	// that matches a URL decides it.
	Rules []*Rule
	// CrawlDelay, RequestRate and VisitTime are the first valid ones of
	// the groups, or nil.
	CrawlDelay  *CrawlDelay
	RequestRate *RequestRate
	VisitTime   *VisitTime
	// UsageRules are the Content-Usage rules of the groups, longest path
	// first and path-less ones last (the order Agent.Usage prefers them);
	// Signals the Content-Signal lines that apply: the whole origin's
	// (Policy.Signals), then the groups'.
	UsageRules []*UsageRule
	Signals    []*Signal
	// Sitemaps and Host are the file's, whatever group they stand in.
	Sitemaps []Sitemap
	Host     *Host
}

// Explain explains the policy for the crawler named agent (a name or a
// User-Agent header, as Policy.Agent takes it).
func (pol *Policy) Explain(agent string) Explanation {
	a := pol.Agent(agent)
	d := pol.profile.desc()
	var usage []*UsageRule
	signals := append([]*Signal(nil), pol.Signals()...)
	for _, g := range a.Groups() {
		usage = append(usage, g.Usage...)
		signals = append(signals, g.Signals...)
	}
	sort.SliceStable(usage, func(i, j int) bool { return usage[i].rank() > usage[j].rank() })
	return Explanation{
		UsageRules: usage, Signals: signals,
		Agent: agent, Profile: pol.profile, Why: why(pol.profile, agent, a), Global: a.Global(),
		Groups: a.Groups(), Order: d.ruleOrder(), Rules: a.Rules(),
		CrawlDelay: a.CrawlDelay(), RequestRate: a.RequestRate(), VisitTime: a.VisitTime(),
		Sitemaps: pol.Sitemaps(), Host: pol.Host(),
	}
}

// why says why a's groups apply to agent.
func why(p Profile, agent string, a *Agent) string {
	switch {
	case len(a.Groups()) == 0:
		return fmt.Sprintf("no group names %q and there is no \"*\" group: everything is allowed", agent)
	case a.Global() && agent == "*":
		return `the "*" group applies`
	case a.Global():
		return fmt.Sprintf("no User-agent line names %q, so the \"*\" group applies", agent)
	}
	if name, _ := p.CrawlerName(agent); name != agent {
		return fmt.Sprintf("a User-agent line names %q, the product token of %q", name, agent)
	}
	return fmt.Sprintf("a User-agent line names %q", agent)
}
