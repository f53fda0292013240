package audit

import (
	"fmt"
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/jsonview"
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
	Licenses   []jsonview.Line   `json:"licenses"`
	// Disagree is how many crawlers the profiles disagree about.
	Disagree int `json:"disagreements"`
	// Unknown are the crawlers the file names that the registry does not
	// know, each at its first User-agent line.
	Unknown []jsonview.Line `json:"unknown_agents"`
	// Registry says where the registry's facts come from and when they
	// were read.
	Registry RegistryRef `json:"registry"`
}

// RegistryRef names the registry a report used: where its facts come
// from, the day its hand-written part was read, its size, and the copy of
// the community list its generated part was read from.
type RegistryRef struct {
	Source   string  `json:"source"`
	Date     string  `json:"date"`
	Crawlers int     `json:"crawler_count"`
	List     ListRef `json:"list"`
}

// CrawlerReport is what one crawler may do under a file.
type CrawlerReport struct {
	Token      string `json:"token"`
	Operator   string `json:"operator"`
	Category   string `json:"category"`
	ValidToken bool   `json:"valid_token"`
	// RespectsRobots is the registry's word (yes, no, unclear, user).
	RespectsRobots string `json:"respects_robots"`
	// FellBackTo names the crawler whose groups answered, under the main
	// profile, because no group names this one and its operator says it
	// then obeys that crawler's (Googlebot-Image -> Googlebot).
	FellBackTo string `json:"fell_back_to,omitempty"`
	// FetchedBy names the crawler whose fetch this token's group governs
	// (Google-Extended: what Googlebot fetches); FetcherAllowed says
	// whether that crawler may fetch "/" under the main profile.
	FetchedBy      string `json:"fetched_by,omitempty"`
	FetcherAllowed *bool  `json:"fetcher_allowed,omitempty"`
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
// docs/cli.md (package jsonview: url, agent, profile, allowed, reason,
// rule, group) plus "usage".
type Verdict struct {
	jsonview.Decision
	Usage *jsonview.Usage `json:"usage"` // null when the path is disallowed
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
	rep := &Report{Source: f.Name, Profile: opts.Profile.String(), Paths: paths, Licenses: []jsonview.Line{},
		Unknown: unknownAgents(f.Name, pols[0], reg), Registry: RegistryRef{Source: reg.Source, Date: reg.Date, Crawlers: len(reg.Crawlers), List: reg.List}}
	for _, l := range pols[0].Licenses() {
		rep.Licenses = append(rep.Licenses, jsonview.LineOf(f.Name, l.Line, l.URL))
	}
	for i := range reg.Crawlers {
		c := &reg.Crawlers[i]
		cr := &CrawlerReport{Token: c.Token, Operator: c.Operator, Category: c.Category, ValidToken: c.ValidToken(),
			RespectsRobots: c.RespectsRobots, FetchedBy: c.FetchedBy}
		agents := make([]*robots.Agent, len(pols))
		for j, pol := range pols {
			var by string
			agents[j], by = reg.agent(pol, c)
			if j == 0 {
				cr.FellBackTo = by
			}
		}
		if f := reg.Find(c.FetchedBy); f != nil {
			fa, _ := reg.agent(pols[0], f)
			ok := fa.Allowed("/")
			cr.FetcherAllowed = &ok
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
					pr.Verdict = Verdict{Decision: jsonview.DecisionOf(path, c.Token, order[0], f.Name, d, nil), Usage: jsonview.UsageOf(f.Name, u, c)}
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

// agent returns the groups that answer for crawler c under pol: its own,
// or, when no group names it, those of the crawler it falls back to (its
// operator's documented chain, followed at most as far as the registry
// is long), and the token that answered when it is not c's.
func (r *Registry) agent(pol *robots.Policy, c *Crawler) (*robots.Agent, string) {
	a := pol.Agent(c.Token)
	by := ""
	for cur, n := c, 0; cur != nil && cur.FallsBackTo != "" && n < len(r.Crawlers); n++ {
		if !a.Global() && len(a.Groups()) > 0 {
			break // a group names it
		}
		next := r.Find(cur.FallsBackTo)
		if next == nil {
			break
		}
		if na := pol.Agent(next.Token); !na.Global() && len(na.Groups()) > 0 {
			return na, next.Token
		}
		cur = next
	}
	return a, by
}

// unknownAgents lists the User-agent values of pol's groups that name no
// crawler the registry knows ("*" aside), each once, at its first line.
func unknownAgents(file string, pol *robots.Policy, reg *Registry) []jsonview.Line {
	out := []jsonview.Line{}
	seen := map[string]bool{}
	for _, g := range pol.Groups() {
		for i, name := range g.Agents {
			key := strings.ToLower(name)
			if name == "*" || seen[key] || reg.Find(name) != nil {
				continue
			}
			seen[key] = true
			if i < len(g.AgentLines) {
				out = append(out, jsonview.LineOf(file, g.AgentLines[i], name))
			}
		}
	}
	return out
}
