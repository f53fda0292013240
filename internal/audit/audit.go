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

// UsageView is the usage preference of a path, its two sources kept
// apart: ContentUsage is draft-ietf-aipref's field in its vocabulary,
// ContentSignal Cloudflare's field in its own names and values, and
// Derived sitetxt's own combination of the two, labelled as such.
type UsageView struct {
	ContentUsage  ContentUsageView  `json:"content_usage"`
	ContentSignal ContentSignalView `json:"content_signal"`
	Derived       DerivedView       `json:"derived"`
}

// ContentUsageView is what the Content-Usage rules with the longest
// matching path say (draft-ietf-aipref-attach-05 section 3): per category
// of draft-ietf-aipref-vocab-07, allow, disallow or unknown.
type ContentUsageView struct {
	TrainAI string `json:"train_ai"`
	Search  string `json:"search"`
	Lines   []Line `json:"lines"`
}

// ContentSignalView is what the group's Content-Signal lines say, under
// the Content Signals Policy's own names: per signal allow (the policy's
// "yes"), disallow ("no") or unknown (not stated), the words every
// sitetxt output uses.
type ContentSignalView struct {
	Search  string `json:"search"`
	AIInput string `json:"ai_input"`
	AITrain string `json:"ai_train"`
	Lines   []Line `json:"lines"`
}

// DerivedView is sitetxt's combined view (robots.Derivation): By is always
// "sitetxt", since no standard maps one field onto the other; TrainAIFrom
// and SearchFrom name the field that decided (content-usage,
// content-signal, both or none).
type DerivedView struct {
	By          string `json:"by"`
	TrainAI     string `json:"train_ai"`
	Search      string `json:"search"`
	TrainAIFrom string `json:"train_ai_from"`
	SearchFrom  string `json:"search_from"`
}

// IsZero reports whether neither field states anything.
func (u *UsageView) IsZero() bool {
	return u.Derived.TrainAIFrom == "none" && u.Derived.SearchFrom == "none" &&
		u.ContentSignal.AIInput == "unknown"
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
					pr.Verdict = verdict(f.Name, d, u)
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
		ls = append(ls, fmt.Sprintf("Content-Signal line %d (%s)", s.Line.Pos.Line, orNone(s.SignalSet.Words())))
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

// UsageOf returns the JSON form of a usage decision, or nil when no
// preference applies (the URL may not be fetched).
func UsageOf(file string, u robots.UsageDecision) *UsageView {
	if !u.Applies {
		return nil
	}
	d := u.Derived()
	uv := &UsageView{
		ContentUsage: ContentUsageView{TrainAI: u.Usage.TrainAI.String(), Search: u.Usage.Search.String(), Lines: []Line{}},
		ContentSignal: ContentSignalView{Search: u.Signal.Search.String(), AIInput: u.Signal.AIInput.String(),
			AITrain: u.Signal.AITrain.String(), Lines: []Line{}},
		Derived: DerivedView{By: "sitetxt", TrainAI: d.Usage.TrainAI.String(), Search: d.Usage.Search.String(),
			TrainAIFrom: string(d.TrainAIFrom), SearchFrom: string(d.SearchFrom)},
	}
	for _, r := range u.Rules {
		uv.ContentUsage.Lines = append(uv.ContentUsage.Lines, lineRef(file, r.Line, r.Line.Value))
	}
	for _, s := range u.Signals {
		uv.ContentSignal.Lines = append(uv.ContentSignal.Lines, lineRef(file, s.Line, s.Line.Value))
	}
	return uv
}
