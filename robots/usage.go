package robots

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dunglas/httpsfv"
	"github.com/sitetxt/sitetxt/grammar"
)

// Usage preferences say what a crawler may do with what it fetched, where
// Allow and Disallow say what it may fetch. Three lines carry them:
//
//   - Content-Usage: <path> <preference> (draft-ietf-aipref-attach,
//     section 3): a rule of its group. The preference is a Structured Field
//     Dictionary (RFC 9651) over the vocabulary of draft-ietf-aipref-vocab:
//     train-ai, ai-use and search, each y or n.
//   - Content-Signal: [<path>] search=yes, ai-input=no, ai-train=no
//     (Cloudflare's Content Signals Policy): a line of its group.
//   - License: <absolute URL> (RSL 1.0): file-wide, may repeat.
//
// docs/ai-preferences.md says which revision of each text this follows.

// Preference is the answer for one category of use: unknown (no statement
// of preference), allow or disallow.
type Preference int8

// The preferences.
const (
	Unknown Preference = iota
	Allow
	Disallow
)

var preferenceNames = [...]string{"unknown", "allow", "disallow"}

// String returns "unknown", "allow" or "disallow".
func (p Preference) String() string {
	if p >= 0 && int(p) < len(preferenceNames) {
		return preferenceNames[p]
	}
	return "unknown"
}

// MarshalText encodes the preference as its name.
func (p Preference) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// combine returns the most restrictive of p and q (draft-ietf-aipref-vocab,
// "Combining Preferences"): disallow over allow over unknown.
func (p Preference) combine(q Preference) Preference {
	switch {
	case p == Disallow || q == Disallow:
		return Disallow
	case p == Allow || q == Allow:
		return Allow
	}
	return Unknown
}

// Usage is a statement of preference: one Preference per category of the
// AIPREF vocabulary.
type Usage struct {
	TrainAI Preference `json:"train_ai"` // "train-ai": training generative AI models
	AIUse   Preference `json:"ai_use"`   // "ai-use": input to generative AI models
	Search  Preference `json:"search"`   // "search": search applications
}

// Combine returns the most restrictive preference of u and v in each
// category, as draft-ietf-aipref-vocab combines statements.
func (u Usage) Combine(v Usage) Usage {
	return Usage{TrainAI: u.TrainAI.combine(v.TrainAI), AIUse: u.AIUse.combine(v.AIUse), Search: u.Search.combine(v.Search)}
}

// IsZero reports whether every category is unknown.
func (u Usage) IsZero() bool { return u == Usage{} }

// String returns the preference in the vocabulary's exemplary format, the
// known categories only ("train-ai=n, search=y"), or "" when all are
// unknown.
func (u Usage) String() string {
	var parts []string
	add := func(label string, p Preference) {
		switch p {
		case Allow:
			parts = append(parts, label+"=y")
		case Disallow:
			parts = append(parts, label+"=n")
		}
	}
	add("train-ai", u.TrainAI)
	add("ai-use", u.AIUse)
	add("search", u.Search)
	return strings.Join(parts, ", ")
}

// ParseUsage reads a usage preference expression as draft-ietf-aipref-vocab
// section "Processing Algorithm" says: the bytes are parsed as a Structured
// Field Dictionary; the token y allows a category, n disallows it, anything
// else (absent, another type, another token) leaves it unknown; unknown
// labels and all parameters are ignored. When the Dictionary does not parse,
// every category is unknown and err says why.
func ParseUsage(expr string) (Usage, error) {
	d, err := httpsfv.UnmarshalDictionary([]string{expr})
	if err != nil {
		return Usage{}, err
	}
	var u Usage
	get := func(label string) Preference {
		m, ok := d.Get(label)
		if !ok {
			return Unknown
		}
		it, ok := m.(httpsfv.Item)
		if !ok {
			return Unknown // an inner list
		}
		tok, ok := it.Value.(httpsfv.Token)
		if !ok {
			return Unknown
		}
		switch tok {
		case "y":
			return Allow
		case "n":
			return Disallow
		}
		return Unknown
	}
	u.TrainAI, u.AIUse, u.Search = get("train-ai"), get("ai-use"), get("search")
	return u, nil
}

// usageLabels are the vocabulary's labels.
var usageLabels = map[string]bool{"train-ai": true, "ai-use": true, "search": true}

// UsageRule is a Content-Usage line.
type UsageRule struct {
	// Path is the path pattern as written; Pref the preference expression.
	Path, Pref string
	// Usage is the preference read from Pref; all unknown when Err is set.
	Usage Usage
	// Err is why Pref is not a Structured Field Dictionary, or nil.
	Err error
	// Line is the Content-Usage line; Group the group it is in.
	Line  *grammar.Line
	Group *Group

	match Rule // the path in the profile's matching form
}

// Signal is a Content-Signal line (Cloudflare's Content Signals Policy):
// search, ai-input and ai-train, each yes or no.
type Signal struct {
	// Path is the path the line names before its signals, or "" for the
	// whole group.
	Path string
	// Search, AIInput and AITrain are the signals as read.
	Search, AIInput, AITrain Preference
	// Line is the Content-Signal line; Group the group it is in.
	Line  *grammar.Line
	Group *Group

	match Rule
}

// Usage maps the signals to the AIPREF vocabulary: search to search,
// ai-train to train-ai, ai-input (live input for AI answers, such as
// retrieval-augmented generation) to ai-use.
func (s *Signal) Usage() Usage {
	return Usage{TrainAI: s.AITrain, AIUse: s.AIInput, Search: s.Search}
}

// License is a License line (RSL 1.0): the URL of the site's license
// terms, file-wide.
type License struct {
	URL  string // the value as written
	Line *grammar.Line
}

// Licenses returns the file's License lines with an absolute URL, in file
// order.
func (pol *Policy) Licenses() []License { return pol.licenses }

// HasUsage reports whether any group has a Content-Usage or
// Content-Signal line: whether Agent.Usage can say anything for this file.
func (pol *Policy) HasUsage() bool {
	for _, g := range pol.groups {
		if len(g.Usage) > 0 || len(g.Signals) > 0 {
			return true
		}
	}
	return false
}

// usageLine reads a Content-Usage, Content-Signal or License line into g
// (nil outside any group); it reports whether the line was one of them.
func (c *compiler) usageLine(g *Group, l *grammar.Line) bool {
	if l.Kind != grammar.Extension || l.NoColon {
		return false
	}
	p := c.pol.profile
	switch {
	case l.FieldIs("content-usage"):
		r, err := ParseContentUsage(l.Value)
		if err == errUsagePath {
			return true
		}
		if err != nil {
			c.diag(l, grammar.Error, "content-usage", fmt.Sprintf("Content-Usage value %q %v", l.Value, err))
			return true
		}
		if g == nil {
			return true
		}
		r.Line, r.Group = l, g
		r.match = Rule{Pattern: r.Path, Line: l, Group: g, Allow: true}
		r.match.compile(p)
		g.Usage = append(g.Usage, r)
	case l.FieldIs("content-signal"):
		s, err := ParseContentSignal(l.Value)
		if err != nil {
			c.diag(l, grammar.Error, "content-signal", fmt.Sprintf("Content-Signal value %q %v", l.Value, err))
			return true
		}
		if g == nil {
			return true
		}
		s.Line, s.Group = l, g
		pat := s.Path
		if pat == "" {
			pat = "/"
		}
		s.match = Rule{Pattern: pat, Line: l, Group: g, Allow: true}
		s.match.compile(p)
		if s.Path == "" {
			s.match.prio = 0 // weaker than any line naming a path
		}
		g.Signals = append(g.Signals, s)
	case l.FieldIs("license"):
		if err := checkAbsURL(l.Value); err != nil {
			c.diag(l, grammar.Error, "license-url", fmt.Sprintf("License value %q is not an absolute URL: %v", l.Value, err))
			return true
		}
		c.pol.licenses = append(c.pol.licenses, License{URL: l.Value, Line: l})
	default:
		return false
	}
	return true
}

// errUsagePath is splitUsage's error for a path not starting with "/":
// the line is ignored, and Lint (usage-path) reports it.
var errUsagePath = errors.New("has a path that does not start with \"/\"")

// splitUsage splits a Content-Usage value at its first space or tab into
// the path and the preference expression.
func splitUsage(v string) (path, pref string, err error) {
	i := strings.IndexAny(v, " \t")
	if i < 0 {
		if v == "" {
			return "", "", fmt.Errorf("is empty; want a path and a usage preference")
		}
		return "", "", fmt.Errorf("has no usage preference after the path")
	}
	path, pref = v[:i], strings.TrimLeft(v[i:], " \t")
	if !strings.HasPrefix(path, "/") {
		return "", "", errUsagePath
	}
	return path, pref, nil
}

// signalLabels are the Content Signals Policy's signals.
var signalLabels = map[string]bool{"search": true, "ai-input": true, "ai-train": true}

// ParseContentUsage reads the value of a Content-Usage line: the path,
// then after white space the usage preference (see ParseUsage; a
// preference that does not parse sets UsageRule.Err and leaves every
// category unknown). The error is for a value with no path or no
// preference, or a path not starting with "/".
func ParseContentUsage(v string) (*UsageRule, error) {
	path, pref, err := splitUsage(v)
	if err != nil {
		return nil, err
	}
	r := &UsageRule{Path: path, Pref: pref}
	r.Usage, r.Err = ParseUsage(pref)
	return r, nil
}

// ParseContentSignal reads a Content-Signal value: an optional path, then
// comma-separated name=value pairs. Names are compared ignoring case;
// values are yes or no (ignoring case), anything else leaves the signal
// unknown. Unknown names are ignored.
func ParseContentSignal(v string) (*Signal, error) {
	s := &Signal{}
	if strings.HasPrefix(v, "/") {
		i := strings.IndexAny(v, " \t")
		if i < 0 {
			return nil, fmt.Errorf("has a path and no signals")
		}
		s.Path, v = v[:i], strings.TrimLeft(v[i:], " \t")
	}
	if strings.TrimSpace(v) == "" {
		return nil, fmt.Errorf("has no signals")
	}
	for _, part := range strings.Split(v, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		name, val = strings.ToLower(strings.TrimSpace(name)), strings.ToLower(strings.TrimSpace(val))
		pr := Unknown
		switch val {
		case "yes":
			pr = Allow
		case "no":
			pr = Disallow
		}
		switch name {
		case "search":
			s.Search = pr
		case "ai-input":
			s.AIInput = pr
		case "ai-train":
			s.AITrain = pr
		}
	}
	return s, nil
}

// UsageDecision is the usage preference for one URL and crawler.
type UsageDecision struct {
	// Applies is false when the crawler may not fetch the URL: a
	// disallowed URL has no usage preference (draft-ietf-aipref-attach
	// section 3.1). Everything else is then empty.
	Applies bool
	// Usage is the preference from the Content-Usage rules with the
	// longest matching path, combined most restrictively when several
	// have that length; all unknown when none matches.
	Usage Usage
	// Rules are the Content-Usage rules that decided Usage.
	Rules []*UsageRule
	// Signal is the Content-Signal answer mapped to the vocabulary (see
	// Signal.Usage), found the same way; Signals are the lines it came
	// from.
	Signal  Usage
	Signals []*Signal
}

// Combined returns the Content-Usage and Content-Signal answers combined
// most restrictively.
func (u UsageDecision) Combined() Usage { return u.Usage.Combine(u.Signal) }

// Usage returns the usage preference for url, an absolute URL or a path,
// and the crawler: none when the crawler may not fetch it; otherwise from
// the longest matching Content-Usage rule of the crawler's groups (matched
// as Allow and Disallow rules are, under the policy's profile) and the
// longest matching Content-Signal line.
func (a *Agent) Usage(u string) UsageDecision {
	// The path in comparison form, found once: the decision and the usage
	// rules are matched against the same bytes.
	var buf [pathBufSize]byte
	raw, slash := pathOf(u)
	path := bytesString(a.appendPath(buf[:0], raw, slash))
	if !a.decidePath(path).Allowed {
		return UsageDecision{}
	}
	out := UsageDecision{Applies: true}
	best := int32(-1)
	for _, g := range a.groups {
		for _, r := range g.Usage {
			if !r.match.match(path) {
				continue
			}
			switch {
			case r.match.prio > best:
				best, out.Usage, out.Rules = r.match.prio, r.Usage, append(out.Rules[:0], r)
			case r.match.prio == best:
				out.Usage, out.Rules = out.Usage.Combine(r.Usage), append(out.Rules, r)
			}
		}
	}
	best = -1
	for _, g := range a.groups {
		for _, s := range g.Signals {
			if !s.match.match(path) {
				continue
			}
			switch {
			case s.match.prio > best:
				best, out.Signal, out.Signals = s.match.prio, s.Usage(), append(out.Signals[:0], s)
			case s.match.prio == best:
				out.Signal, out.Signals = out.Signal.Combine(s.Usage()), append(out.Signals, s)
			}
		}
	}
	return out
}

// lintUsage checks the usage-preference lines of a file:
//
//   - usage-label: a Content-Usage label outside the vocabulary, or a
//     Content-Signal name outside the policy (ignored)
//   - usage-value: a value other than y/n (yes/no for Content-Signal),
//     which leaves the category unknown
//   - usage-syntax: a preference that is not a Structured Field
//     Dictionary (every category unknown), or a label written in upper
//     case, which the byte-wise format does not accept
//   - usage-path: a path that does not start with "/"
//   - usage-disallowed: a Content-Usage rule under a path its group
//     disallows, which can never apply
//   - usage-outside-group: a Content-Usage or Content-Signal line before
//     any User-agent line, which applies to no crawler
//   - license-url: a License value that is not an absolute URL (an
//     error, from Compile)
func (l *linter) usage(pol *Policy) {
	inPreamble := map[*grammar.Line]bool{}
	for _, ln := range l.file.Preamble {
		inPreamble[ln] = true
	}
	for _, ln := range l.file.Lines {
		if ln.Kind != grammar.Extension || ln.NoColon {
			continue
		}
		switch {
		case ln.FieldIs("content-usage"):
			if inPreamble[ln] {
				l.warn("usage-outside-group", ln.Pos, ln.End(), "Content-Usage line before any User-agent line applies to no crawler")
			}
			l.usageValue(ln)
		case ln.FieldIs("content-signal"):
			if inPreamble[ln] {
				l.warn("usage-outside-group", ln.Pos, ln.End(), "Content-Signal line before any User-agent line applies to no crawler")
			}
			l.signalValue(ln)
		}
	}
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
			if strings.ContainsAny(u.Path, "*$") {
				continue // a pattern: some paths it matches may be allowed
			}
			if d := a.Decide(u.Path); !d.Allowed && d.Rule != nil {
				ln := u.Line
				l.warn("usage-disallowed", ln.ValuePos(), ln.End(),
					"Content-Usage rule for %q never applies: line %d (%s) disallows that path for this group", u.Path, d.Rule.Line.Pos.Line, d.Rule)
			}
		}
	}
}

func (l *linter) usageValue(ln *grammar.Line) {
	v := ln.Value
	i := strings.IndexAny(v, " \t")
	path := v
	if i >= 0 {
		path = v[:i]
	}
	if path != "" && !strings.HasPrefix(path, "/") {
		l.warn("usage-path", ln.ValuePos(), ln.End(), "Content-Usage path %q does not start with \"/\"", path)
		return
	}
	if i < 0 {
		return // Compile reports it
	}
	pref := strings.TrimLeft(v[i:], " \t")
	at := ln.ValuePos()
	at.Offset += len(v) - len(pref)
	at.Column += len(v) - len(pref)
	d, err := httpsfv.UnmarshalDictionary([]string{pref})
	if err != nil {
		if lower := strings.ToLower(pref); lower != pref {
			if _, err2 := httpsfv.UnmarshalDictionary([]string{lower}); err2 == nil {
				l.warn("usage-syntax", at, ln.End(), "usage preference %q has upper-case letters; labels are case-sensitive, so every category is unknown", pref)
				return
			}
		}
		l.warn("usage-syntax", at, ln.End(), "usage preference %q is not a Structured Field Dictionary (%v); every category is unknown", pref, err)
		return
	}
	for _, name := range d.Names() {
		m, _ := d.Get(name)
		if !usageLabels[name] {
			l.warn("usage-label", at, ln.End(), "unknown usage label %q is ignored (known: train-ai, ai-use, search)", name)
			continue
		}
		it, ok := m.(httpsfv.Item)
		tok, isTok := httpsfv.Token(""), false
		if ok {
			tok, isTok = it.Value.(httpsfv.Token)
		}
		if !isTok || tok != "y" && tok != "n" {
			l.warn("usage-value", at, ln.End(), "usage label %q has value %s, not y or n; its preference is unknown", name, sfvString(m))
		}
	}
}

// sfvString returns a member of a Dictionary as it would be serialised.
func sfvString(m httpsfv.Member) string {
	d := httpsfv.NewDictionary()
	d.Add("k", m)
	s, err := httpsfv.Marshal(d)
	if err != nil {
		return "?"
	}
	if v, ok := strings.CutPrefix(s, "k="); ok {
		return v
	}
	return "true" // a bare key: Boolean true
}

func (l *linter) signalValue(ln *grammar.Line) {
	v := ln.Value
	at := ln.ValuePos()
	if strings.HasPrefix(v, "/") {
		if i := strings.IndexAny(v, " \t"); i >= 0 {
			v = strings.TrimLeft(v[i:], " \t")
		}
	} else if len(v) > 0 && !strings.Contains(strings.SplitN(v, ",", 2)[0], "=") {
		l.warn("usage-path", at, ln.End(), "Content-Signal value %q starts with neither a path nor a signal", ln.Value)
		return
	}
	for _, part := range strings.Split(v, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		name = strings.TrimSpace(name)
		if !ok {
			if name != "" {
				l.warn("usage-value", at, ln.End(), "content signal %q has no value; want yes or no", name)
			}
			continue
		}
		if !signalLabels[strings.ToLower(name)] {
			l.warn("usage-label", at, ln.End(), "unknown content signal %q is ignored (known: search, ai-input, ai-train)", name)
			continue
		}
		if val := strings.ToLower(strings.TrimSpace(val)); val != "yes" && val != "no" {
			l.warn("usage-value", at, ln.End(), "content signal %q has value %q, not yes or no; its preference is unknown", name, strings.TrimSpace(val))
		}
	}
}
