package audit

import (
	"fmt"
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/decision"
	"github.com/sitetxt/sitetxt/robots"
)

// Options set what File audits.
type Options struct {
	// Registry is the crawlers to check; nil means DefaultRegistry.
	Registry *Registry
	// Paths are checked besides "/" (which always comes first).
	Paths []string
	// Profile is the profile the main answers use; the others are
	// compared with it. Each reads as much of the file as it does
	// (robots.Compile reads a file parsed short of that again).
	Profile robots.Profile
}

// Report is the audit of one file.
type Report struct {
	Source     string            `json:"file"`
	Profile    string            `json:"profile"`
	Paths      []string          `json:"paths"`
	Crawlers   []*CrawlerReport  `json:"crawlers"`
	Categories []*CategoryReport `json:"categories"`
	Licenses   []Line            `json:"licenses"`
	// Disagree is how many crawlers the profiles disagree about.
	Disagree int `json:"disagreements"`
}

// CrawlerReport is what one crawler may do under a file.
type CrawlerReport struct {
	Token      string `json:"token"`
	Operator   string `json:"operator"`
	Category   string `json:"category"`
	ValidToken bool   `json:"valid_token"`
	// The answer for "/" under the main profile, as the decision object
	// of docs/cli.md.
	Verdict
	// Paths holds the answers for every path, "/" first.
	Paths []*PathReport `json:"by_path"`
	// Disagree is set when the profiles answer any path differently
	// (allowed, or the usage preference).
	Disagree bool `json:"disagree"`
}

// PathReport is the answer for one path: under the main profile, and the
// verdict of each profile.
type PathReport struct {
	Path string `json:"path"`
	Verdict
	Profiles []ProfileVerdict `json:"profiles"`
	Disagree bool             `json:"disagree"`
	// Why says, for each profile that answers differently from the main
	// one, which rule of which profile makes the difference, or which
	// lines each reads for the usage preference.
	Why []string `json:"why,omitempty"`
}

// ProfileVerdict is one profile's short answer.
type ProfileVerdict struct {
	Profile string `json:"profile"`
	Allowed bool   `json:"allowed"`
	// Usage says what the usage lines state under this profile, each
	// field in its own terms ("content-usage: train-ai=n; content-signal:
	// search=yes"), "" when the path may not be fetched.
	Usage string `json:"usage_text"`
}

// Verdict is a decision with its usage preference: the decision object of
// docs/cli.md (package decision: url, agent, profile, allowed, reason,
// rule, group) plus "usage".
type Verdict struct {
	decision.Decision
	Usage *UsageView `json:"usage"` // null when the path is disallowed
}

// Line is a line of the file that says something file-wide or about
// usage, with its position.
type Line struct {
	Value  string `json:"value"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// CategoryReport is the one-line verdict of a category: how many of its
// crawlers may not fetch "/".
type CategoryReport struct {
	Category string `json:"category"`
	Crawlers int    `json:"crawler_count"`
	Blocked  int    `json:"blocked"`
	Verdict  string `json:"verdict"`
}

// File audits one parsed robots.txt file for every crawler of the
// registry.
func File(f *grammar.File, opts Options) *Report {
	reg := opts.Registry
	if reg == nil {
		reg = DefaultRegistry()
	}
	paths := append([]string{"/"}, opts.Paths...)
	pols := make([]*robots.Policy, len(robots.Profiles))
	order := []robots.Profile{opts.Profile}
	for _, p := range robots.Profiles {
		if p != opts.Profile {
			order = append(order, p)
		}
	}
	for i, p := range order {
		pols[i] = robots.Compile(f, p)
	}
	rep := &Report{Source: f.Name, Profile: opts.Profile.String(), Paths: paths, Licenses: []Line{}}
	for _, l := range pols[0].Licenses() {
		rep.Licenses = append(rep.Licenses, lineRef(f.Name, l.Line, l.URL))
	}
	for i := range reg.Crawlers {
		c := &reg.Crawlers[i]
		cr := &CrawlerReport{Token: c.Token, Operator: c.Operator, Category: c.Category, ValidToken: c.ValidToken()}
		agents := make([]*robots.Agent, len(pols))
		for j, pol := range pols {
			agents[j] = pol.Agent(c.Token)
		}
		for _, path := range paths {
			pr := &PathReport{Path: path}
			var first robots.UsageDecision
			for j, a := range agents {
				d := a.Decide(path)
				u := a.Usage(path)
				pv := ProfileVerdict{Profile: order[j].String(), Allowed: d.Allowed}
				if u.Applies {
					pv.Usage = usageSummary(u)
				}
				pr.Profiles = append(pr.Profiles, pv)
				if j == 0 {
					pr.Verdict = verdict(f.Name, d, u, c)
					pr.URL, pr.Agent, pr.Profile = path, c.Token, order[0].String()
					first = u
					continue
				}
				if pv != (ProfileVerdict{Profile: pv.Profile, Allowed: pr.Profiles[0].Allowed, Usage: pr.Profiles[0].Usage}) {
					pr.Disagree = true
					if pv.Allowed == pr.Profiles[0].Allowed {
						pr.Why = append(pr.Why, usageWhy(order[0], first, order[j], u))
					}
				}
			}
			if pr.Disagree {
				cmp := robots.Compare(pols, c.Token, path)
				pr.Why = append(cmp.Why, pr.Why...)
			}
			if pr.Disagree {
				cr.Disagree = true
			}
			cr.Paths = append(cr.Paths, pr)
		}
		cr.Verdict = cr.Paths[0].Verdict
		if cr.Disagree {
			rep.Disagree++
		}
		rep.Crawlers = append(rep.Crawlers, cr)
	}
	for _, cat := range Categories {
		cp := &CategoryReport{Category: cat}
		for _, cr := range rep.Crawlers {
			if cr.Category != cat {
				continue
			}
			cp.Crawlers++
			if !cr.Allowed {
				cp.Blocked++
			}
		}
		if cp.Crawlers == 0 {
			continue
		}
		cp.Verdict = fmt.Sprintf("%s: %d of %d blocked from /", CategoryTitle(cat), cp.Blocked, cp.Crawlers)
		rep.Categories = append(rep.Categories, cp)
	}
	return rep
}

// verdict builds the decision object of one answer.
func verdict(file string, d robots.Decision, u robots.UsageDecision, c *Crawler) Verdict {
	v := Verdict{Decision: decision.Decision{Allowed: d.Allowed, Reason: d.Reason,
		Rule: decision.RuleOf(d.Rule, file), Group: decision.GroupOf(d.Group, file)}}
	v.Usage = UsageOf(file, u, c)
	return v
}

// usageWhy says why two profiles that both allow a path read different
// usage preferences for it: the lines each reads.
func usageWhy(p0 robots.Profile, u0 robots.UsageDecision, p robots.Profile, u robots.UsageDecision) string {
	return fmt.Sprintf("%s reads %s where %s reads %s", p, usageLinesOf(u), p0, usageLinesOf(u0))
}

// usageLinesOf names the usage lines a decision came from.
func usageLinesOf(u robots.UsageDecision) string {
	var ls []string
	for _, r := range u.Rules {
		ls = append(ls, fmt.Sprintf("Content-Usage line %d (%s)", r.Line.Pos.Line, orNone(r.Usage.String())))
	}
	for _, s := range u.Signals {
		ls = append(ls, fmt.Sprintf("Content-Signal line %d (%s)", s.Line.Pos.Line, orNone(s.Signals.Words())))
	}
	if len(ls) == 0 {
		return "none of its usage lines (the groups it applies have none that match)"
	}
	return strings.Join(ls, ", ")
}

func orNone(s string) string {
	if s == "" {
		return "states nothing"
	}
	return s
}

// usageSummary says a usage decision in one line, each field in its own
// terms, for comparing profiles.
func usageSummary(u robots.UsageDecision) string {
	return "content-usage: " + u.Usage.String() + "; content-signal: " + u.Signal.Words()
}
