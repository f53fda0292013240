package audit

import (
	"fmt"

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
	Source     string            `json:"source"`
	Profile    string            `json:"profile"`
	Paths      []string          `json:"paths"`
	Crawlers   []*CrawlerReport  `json:"crawlers"`
	Categories []*CategoryReport `json:"categories"`
	Licenses   []Line            `json:"licenses"`
	// Disagree is how many crawlers the profiles disagree about.
	Disagree int `json:"disagree"`
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
	Paths []*PathReport `json:"paths"`
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
}

// ProfileVerdict is one profile's short answer.
type ProfileVerdict struct {
	Profile string `json:"profile"`
	Allowed bool   `json:"allowed"`
	Usage   string `json:"usage"` // Usage.String() of the combined preference, "" if none
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

// UsageView is the usage preference of a path: per category allow,
// disallow or unknown, from the Content-Usage and Content-Signal lines
// combined most restrictively, and the lines it came from.
type UsageView struct {
	TrainAI string `json:"train_ai"`
	AIUse   string `json:"ai_use"`
	Search  string `json:"search"`
	// FromContentUsage and FromSignal are the two statements before they
	// are combined, in the vocabulary's format ("train-ai=n, search=y";
	// "" when a statement says nothing).
	FromContentUsage string `json:"from_content_usage"`
	FromSignal       string `json:"from_content_signal"`
	ContentUsage     []Line `json:"content_usage"`
	Signal           []Line `json:"content_signal"`
}

// CategoryReport is the one-line verdict of a category: how many of its
// crawlers may not fetch "/".
type CategoryReport struct {
	Category string `json:"category"`
	Crawlers int    `json:"crawlers"`
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
	rep := &Report{Source: f.Name, Profile: opts.Profile.String(), Paths: paths}
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
			for j, a := range agents {
				d := a.Decide(path)
				u := a.Usage(path)
				pv := ProfileVerdict{Profile: order[j].String(), Allowed: d.Allowed}
				if u.Applies {
					pv.Usage = u.Combined().String()
				}
				pr.Profiles = append(pr.Profiles, pv)
				if j == 0 {
					pr.Verdict = verdict(f.Name, d, u)
					pr.URL, pr.Agent, pr.Profile = path, c.Token, order[0].String()
					continue
				}
				if pv != (ProfileVerdict{Profile: pv.Profile, Allowed: pr.Profiles[0].Allowed, Usage: pr.Profiles[0].Usage}) {
					pr.Disagree = true
				}
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

func lineRef(file string, l *grammar.Line, v string) Line {
	return Line{Value: v, File: file, Line: l.Pos.Line, Column: l.Pos.Column}
}

// verdict builds the decision object of one answer.
func verdict(file string, d robots.Decision, u robots.UsageDecision) Verdict {
	v := Verdict{Decision: decision.Decision{Allowed: d.Allowed, Reason: d.Reason,
		Rule: decision.RuleOf(d.Rule, file), Group: decision.GroupOf(d.Group, file)}}
	v.Usage = UsageOf(file, u)
	return v
}

// UsageOf returns the JSON form of a usage decision, or nil when no
// preference applies (the URL may not be fetched).
func UsageOf(file string, u robots.UsageDecision) *UsageView {
	if !u.Applies {
		return nil
	}
	c := u.Combined()
	uv := &UsageView{TrainAI: c.TrainAI.String(), AIUse: c.AIUse.String(), Search: c.Search.String(),
		FromContentUsage: u.Usage.String(), FromSignal: u.Signal.String(), ContentUsage: []Line{}, Signal: []Line{}}
	for _, r := range u.Rules {
		uv.ContentUsage = append(uv.ContentUsage, lineRef(file, r.Line, r.Line.Value))
	}
	for _, s := range u.Signals {
		uv.Signal = append(uv.Signal, lineRef(file, s.Line, s.Line.Value))
	}
	return uv
}
