package robots

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sitetxt/sitetxt/aipref"
	"github.com/sitetxt/sitetxt/grammar"

	"github.com/sitetxt/sitetxt/robots/internal/match"
)

// Usage preferences say what a crawler may do with what it fetched, where
// Allow and Disallow say what it may fetch. Three lines carry them; their
// vocabularies are package aipref's, and this file attaches them to paths
// and crawlers:
//
//   - Content-Usage: [<path> 1*WS] <preference> (draft-ietf-aipref-attach-05
//     section 3): a rule of its group; without a path it covers
//     everything the group covers. The preference is an AIPREF statement
//     (aipref.Parse: draft-ietf-aipref-vocab-08's train-ai, ai-use and
//     search, each y or n).
//   - Content-Signal: search=yes, ai-train=no, use=reference (Cloudflare's
//     Content Signals Policy): read under its own names and values, never
//     as the vocabulary (aipref.ParseSignals). In a group it speaks for the
//     group's crawlers; outside every group (before the first User-agent
//     line, and under the record profiles between records) for the whole
//     origin.
//   - License: <absolute URL> (RSL 1.0): file-wide, may repeat.
//   - LLM-Policy: <absolute URL>: file-wide, may repeat; the URL of an
//     llms.txt or another policy for language models, a line
//     crawler-commons reads (no specification defines it). sitetxt
//     reports it; it decides nothing.
//
// docs/ai-preferences.md cites the section behind each rule.

// UsageRule is a Content-Usage line.
type UsageRule struct {
	// Path is the path pattern as written, "" when the line has none
	// (then it covers everything its group covers, as the shortest path:
	// draft-ietf-aipref-attach-05 section 3.2). Pref is the statement of
	// preference.
	Path, Pref string
	// Usage is the preference read from Pref; all unknown when Err is set
	// or Pref is empty.
	Usage aipref.Usage
	// Err is why Pref is not a Structured Field Dictionary, or nil.
	Err error
	// Line is the Content-Usage line; Group the group it is in.
	Line  *grammar.Line
	Group *Group

	match Rule // the path in the profile's matching form
}

// rank is the rule's priority among the Content-Usage rules that match a
// path: its pattern's, the longest wins; a rule with no path is weaker
// than any line naming one, "/" included.
func (r *UsageRule) rank() int32 {
	if r.Path == "" {
		return 0
	}
	return r.match.prio
}

// Signal is a Content-Signal line (Cloudflare's Content Signals Policy).
// The policy gives it no path: in a group it covers everything the group
// covers, and outside every group the whole origin.
type Signal struct {
	aipref.Signals
	// Line is the Content-Signal line; Group the group it is in, nil for
	// a line outside every group (Policy.Signals).
	Line  *grammar.Line
	Group *Group
}

// Signals returns the Content-Signal lines outside every group, which
// speak for the whole origin: the lines before the first User-agent line
// and, under the profiles whose groups are records (draft, norobots), the
// lines between records.
func (pol *Policy) Signals() []*Signal {
	if pol.fileWide == nil {
		return nil
	}
	return pol.fileWide.signals
}

// fileWide holds a policy's usage lines that belong to no group, apart
// from the Policy so that a file without them (most) does not pay for
// them.
type fileWide struct {
	licenses    []License
	llmPolicies []License
	signals     []*Signal
}

// wide returns the compiled policy's fileWide, made on first use.
func (c *compiler) wide() *fileWide {
	if c.pol.fileWide == nil {
		c.pol.fileWide = &fileWide{}
	}
	return c.pol.fileWide
}

// License is a License line (RSL 1.0): the URL of the site's license
// terms, file-wide.
type License struct {
	URL  string // the value as written
	Line *grammar.Line
}

// Licenses returns the file's License lines with an absolute URL, in file
// order.
func (pol *Policy) Licenses() []License {
	if pol.fileWide == nil {
		return nil
	}
	return pol.fileWide.licenses
}

// LLMPolicies returns the file's LLM-Policy lines with an absolute URL,
// in file order: each points to an llms.txt or a similar policy for
// language models (crawler-commons reads the line, file-wide; no
// specification defines it). They decide nothing.
func (pol *Policy) LLMPolicies() []License {
	if pol.fileWide == nil {
		return nil
	}
	return pol.fileWide.llmPolicies
}

// HasUsage reports whether any group has a Content-Usage or
// Content-Signal line: whether Agent.Usage can say anything for this file.
func (pol *Policy) HasUsage() bool {
	if len(pol.Signals()) > 0 {
		return true
	}
	for _, g := range pol.groups {
		if len(g.Usage) > 0 || len(g.Signals) > 0 {
			return true
		}
	}
	return false
}

// usageLine reads a Content-Usage, Content-Signal, License or LLM-Policy
// line into g (nil outside any group): a line whose field f is one of
// them, of Kind Extension, with a colon.
// What is odd about a line is Lint's to say; Compile reports only a
// License (an error: RSL requires one) or LLM-Policy (a warning) that is
// not an absolute URL.
func (c *compiler) usageLine(g *Group, l *grammar.Line, f extField) {
	switch f {
	case fieldContentUsage:
		if g == nil {
			return
		}
		r := ParseContentUsage(l.Value)
		r.Line, r.Group = l, g
		pat := r.Path
		if pat == "" {
			pat = "/"
		}
		r.match = Rule{Pattern: pat, Line: l, Group: g, Allow: true}
		r.match.compile(c.pol.profile)
		g.Usage = append(g.Usage, r)
	case fieldContentSignal:
		v, err := aipref.ParseSignals(l.Value)
		if err != nil {
			return // lint says why
		}
		s := &Signal{Signals: v, Line: l, Group: g}
		if g == nil {
			w := c.wide()
			w.signals = append(w.signals, s)
		} else {
			g.Signals = append(g.Signals, s)
		}
	case fieldLicense:
		if err := checkAbsURL(l.Value); err != nil {
			c.diag(l, grammar.Error, "license-url", fmt.Sprintf("License value %q is not an absolute URL: %v", l.Value, err))
			return
		}
		w := c.wide()
		w.licenses = append(w.licenses, License{URL: l.Value, Line: l})
	case fieldLLMPolicy:
		if err := checkAbsURL(l.Value); err != nil {
			c.diag(l, grammar.Warning, "llm-policy-url", fmt.Sprintf("LLM-Policy value %q is not an absolute URL (%v): crawlers that read the line (crawler-commons) want one; the line is not reported", l.Value, err))
			return
		}
		w := c.wide()
		w.llmPolicies = append(w.llmPolicies, License{URL: l.Value, Line: l})
	}
}

// splitUsage splits a Content-Usage rule value as draft-ietf-aipref-attach-05
// section 3.2 says: a value starting with "/" names a path, which ends at
// the first SP or HTAB, and the rest is the statement of preference; any
// other value has no path and is all preference.
func splitUsage(v string) (path, pref string) {
	if !strings.HasPrefix(v, "/") {
		return "", v
	}
	i := strings.IndexAny(v, " \t")
	if i < 0 {
		return v, ""
	}
	return v[:i], strings.TrimLeft(v[i:], " \t")
}

// ParseContentUsage reads the value of a Content-Usage line: an optional
// path, then the statement of preference (see splitUsage and ParseUsage).
// It never fails: a line with no preference, or one that does not parse,
// states nothing (every category unknown; UsageRule.Err says why for the
// latter).
func ParseContentUsage(v string) *UsageRule {
	path, pref := splitUsage(v)
	r := &UsageRule{Path: path, Pref: pref}
	r.Usage, r.Err = aipref.Parse(pref)
	return r
}

// UsageDecision is the usage preference for one URL and crawler.
type UsageDecision struct {
	// Applies is false when the crawler may not fetch the URL: a
	// disallowed URL has no usage preference (draft-ietf-aipref-attach-05
	// section 3.1). Everything else is then empty.
	Applies bool
	// Usage is the preference from the Content-Usage rules with the
	// longest matching path, combined most restrictively when several
	// have that length (attach-05 section 3.1, vocab-08 section 5.1); all
	// unknown when none matches. Rules are the rules that decided it.
	Usage aipref.Usage
	Rules []*UsageRule
	// Signal is what the Content-Signal lines of the crawler's groups and
	// those outside every group say, combined most restrictively
	// (aipref.Signals.Combine); Signals are those lines, the origin's
	// first.
	Signal  aipref.Signals
	Signals []*Signal
}

// Derived returns sitetxt's combined view of the decision's Content-Usage
// and Content-Signal statements (aipref.Derive).
func (u UsageDecision) Derived() aipref.Derivation { return aipref.Derive(u.Usage, u.Signal) }

// Usage returns the usage preference for url, an absolute URL or a path,
// and the crawler: none when the crawler may not fetch it; otherwise from
// the longest matching Content-Usage rule of the crawler's groups (matched
// as Allow and Disallow rules are, under the policy's profile; a rule
// without a path is the shortest), and the Content-Signal lines of its
// groups and of the whole origin.
func (a *Agent) Usage(u string) UsageDecision {
	// The path in comparison form, found once: the decision and the usage
	// rules are matched against the same bytes.
	var buf [pathBufSize]byte
	raw, slash := match.PathOf(u)
	path := match.BytesString(a.appendPath(buf[:0], raw, slash))
	if !a.decidePath(path).Allowed {
		return UsageDecision{}
	}
	out := UsageDecision{Applies: true}
	if a.policy != nil {
		for _, s := range a.policy.Signals() {
			out.Signal = out.Signal.Combine(s.Signals)
			out.Signals = append(out.Signals, s)
		}
	}
	best := int32(-1)
	for _, g := range a.groups {
		for _, r := range g.Usage {
			if !r.match.match(path) {
				continue
			}
			switch k := r.rank(); {
			case k > best:
				best, out.Usage, out.Rules = k, r.Usage, append(out.Rules[:0], r)
			case k == best:
				out.Usage, out.Rules = out.Usage.Combine(r.Usage), append(out.Rules, r)
			}
		}
		for _, s := range g.Signals {
			out.Signal = out.Signal.Combine(s.Signals)
			out.Signals = append(out.Signals, s)
		}
	}
	return out
}

// usage checks the usage-preference lines of a file:
//
//   - usage-syntax, usage-label, usage-legacy, usage-value: what
//     aipref.Check finds in a Content-Usage statement and
//     aipref.CheckSignals in a Content-Signal value, at its byte
//   - usage-empty: a Content-Usage line with no statement of preference,
//     which states nothing
//   - usage-path: a Content-Usage value that starts with a path-like word
//     not starting with "/", or a Content-Signal line with a path (the
//     policy defines none: the line is not read)
//   - usage-disallowed: a Content-Usage rule under a path its group
//     disallows, which can never apply
//   - usage-outside-group: a Content-Usage line before any User-agent
//     line, which applies to no crawler (a Content-Signal line there
//     speaks for the whole origin: Policy.Signals)
//   - license-url: a License value that is not an absolute URL (an
//     error, from Compile)
//   - usage-not-inherited: a named group whose crawlers may fetch
//     something, without the Content-Signal or Content-Usage lines the "*"
//     group has: they read only their own group (usageInherited)
func (l *linter) usage(pol *Policy) {
	for _, n := range l.file.Nodes { // the tree's lines, node after node
		preamble := n.IsPreamble() // before any User-agent line
		for _, ln := range n.Lines() {
			if ln.Kind != grammar.Extension || ln.NoColon {
				continue
			}
			switch {
			case ln.FieldIs("content-usage"):
				if preamble {
					l.warn("usage-outside-group", ln.Pos, ln.End(), "Content-Usage line before any User-agent line applies to no crawler")
				}
				l.usageValue(ln)
			case ln.FieldIs("content-signal"):
				l.problems(ln, 0, aipref.CheckSignals(ln.Value))
			}
		}
	}
	l.usageInherited(pol)
	// A Content-Usage rule whose own path the group's crawlers may not
	// fetch (asked through the public API: the first crawler the group
	// names, with any other groups naming it merged in).
	for _, g := range pol.Groups() {
		if len(g.Usage) == 0 {
			continue
		}
		name := g.Agents[0]
		if g.Global {
			name = "*"
		}
		a := pol.Agent(name)
		for _, u := range g.Usage {
			if u.Path == "" || strings.ContainsAny(u.Path, "*$") {
				continue // a pattern or the whole group: some paths may be allowed
			}
			if d := a.Decide(u.Path); !d.Allowed && d.Rule != nil {
				ln := u.Line
				l.warn("usage-disallowed", ln.ValuePos(), ln.End(),
					"Content-Usage rule for %q never applies: line %d (%s) disallows that path for this group", u.Path, d.Rule.Line.Pos.Line, d.Rule)
			}
		}
	}
}

// usageInherited warns, at a named group's first User-agent line, when
// the "*" group has Content-Signal or Content-Usage lines and the group
// has none of that field: a crawler a group names reads that group only
// (RFC 9309 section 2.2.1: the "*" group applies to crawlers no group
// names), so the "*" group's preferences say nothing about it, which
// surprises the sites that write Cloudflare's line under "User-agent: *"
// and name AI crawlers below it. A group whose crawlers may fetch nothing
// is left alone: a disallowed URL has no preference (attach-05 3.1).
func (l *linter) usageInherited(pol *Policy) {
	star := pol.Agent("*")
	if !star.Global() {
		return
	}
	var signal, usage []*grammar.Line
	for _, g := range star.Groups() {
		for _, s := range g.Signals {
			signal = append(signal, s.Line)
		}
		for _, u := range g.Usage {
			usage = append(usage, u.Line)
		}
	}
	if len(signal) == 0 && len(usage) == 0 {
		return
	}
	for _, g := range pol.Groups() {
		if g.Global || len(g.AgentLines) == 0 {
			continue
		}
		lacksSignal, lacksUsage, fetches := false, false, false
		for _, name := range g.Agents {
			a := pol.Agent(name)
			if a.Global() {
				continue // the name reads the "*" group after all (not a token this profile matches)
			}
			fetches = fetches || mayFetch(a)
			hasSignal, hasUsage := false, false
			for _, ag := range a.Groups() {
				hasSignal = hasSignal || len(ag.Signals) > 0
				hasUsage = hasUsage || len(ag.Usage) > 0
			}
			lacksSignal = lacksSignal || len(signal) > 0 && !hasSignal
			lacksUsage = lacksUsage || len(usage) > 0 && !hasUsage
		}
		if !fetches || !lacksSignal && !lacksUsage {
			continue
		}
		var missing, theirs []string
		n := 0
		for _, f := range []struct {
			name  string
			lacks bool
			lines []*grammar.Line
		}{{"Content-Signal", lacksSignal, signal}, {"Content-Usage", lacksUsage, usage}} {
			if f.lacks {
				missing, theirs = append(missing, f.name), append(theirs, f.name+" at "+lineList(f.lines))
				n += len(f.lines)
			}
		}
		ln := g.AgentLines[0]
		l.warn("usage-not-inherited", ln.Pos, ln.End(),
			"the group of User-agent %q has no %s line: its crawlers read only their own group (RFC 9309 section 2.2.1), not the \"*\" group's %s; %s",
			g.Agents[0], strings.Join(missing, " or "), strings.Join(theirs, " and "), map[bool]string{
				true:  "repeat that line in this group, or move it before the first User-agent line to speak for every crawler",
				false: "repeat those lines in this group, or move them before the first User-agent line to speak for every crawler"}[n == 1])
	}
}

// lineList names lines by number: "line 4", "lines 4, 7".
func lineList(ls []*grammar.Line) string {
	var ns []string
	for _, l := range ls {
		ns = append(ns, strconv.Itoa(l.Pos.Line))
	}
	if len(ns) == 1 {
		return "line " + ns[0]
	}
	return "lines " + strings.Join(ns, ", ")
}

// mayFetch reports whether the crawler may fetch some URL: "/" or a path
// an Allow rule names.
func mayFetch(a *Agent) bool {
	if a.Decide("/").Allowed {
		return true
	}
	for _, r := range a.Rules() {
		if r.Allow && r.Pattern != "" {
			return true
		}
	}
	return false
}

// problems reports what aipref found in ln's value, whose byte off is
// where the checked text starts.
func (l *linter) problems(ln *grammar.Line, off int, ps []aipref.Problem) {
	for _, p := range ps {
		l.warn(p.Code, valueAt(ln, off+p.Offset), ln.End(), "%s", p.Msg)
	}
}

// valueAt returns the position of byte off of ln's value.
func valueAt(ln *grammar.Line, off int) grammar.Pos {
	at := ln.ValuePos()
	at.Offset += off
	at.Column += off
	return at
}

func (l *linter) usageValue(ln *grammar.Line) {
	v := ln.Value
	path, pref := splitUsage(v)
	if path == "" {
		// No path. A first word that looks like one but does not start
		// with "/" (a pattern, a relative path) is a path the writer
		// meant: say so rather than only that the Dictionary fails.
		if word, rest, ok := strings.Cut(v, " "); ok && strings.ContainsAny(word, "/*$") && aipref.IsDictionary(strings.TrimLeft(rest, " \t")) {
			l.warn("usage-path", ln.ValuePos(), ln.End(), "Content-Usage path %q does not start with \"/\", so the whole value is read as the preference and states nothing", word)
			return
		}
	}
	if strings.TrimSpace(pref) == "" {
		l.warn("usage-empty", ln.ValuePos(), ln.End(), "Content-Usage line states no preference: every category is unknown for the paths it covers")
		return
	}
	l.problems(ln, len(v)-len(pref), aipref.Check(pref))
}
