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
//   - Content-Usage: [<path> 1*WS] <preference> (draft-ietf-aipref-attach-05
//     section 3): a rule of its group; without a path it covers
//     everything the group covers. The preference is a Structured Field
//     Dictionary (RFC 9651) over the vocabulary of draft-ietf-aipref-vocab
//     (section 6.1 of -07: train-ai and search, each y or n).
//   - Content-Signal: search=yes, ai-input=no, ai-train=no (Cloudflare's
//     Content Signals Policy): a line of its group, read under its own
//     names and values, never as the vocabulary.
//   - License: <absolute URL> (RSL 1.0): file-wide, may repeat.
//
// docs/ai-preferences.md cites the section behind each rule.

// Preference is the answer for one category of use: unknown (no statement
// of preference), allow or disallow (draft-ietf-aipref-vocab section 5).
type Preference int8

// The preferences.
const (
	PrefUnknown Preference = iota
	PrefAllow
	PrefDisallow
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

// combine returns the most restrictive of p and q (draft-ietf-aipref-vocab-07
// section 5.1, "Combining Preferences"): disallow over allow over unknown.
func (p Preference) combine(q Preference) Preference {
	switch {
	case p == PrefDisallow || q == PrefDisallow:
		return PrefDisallow
	case p == PrefAllow || q == PrefAllow:
		return PrefAllow
	}
	return PrefUnknown
}

// Usage is a statement of preference: one Preference per category of the
// AIPREF vocabulary (draft-ietf-aipref-vocab-07 section 4; labels in 6.1).
type Usage struct {
	TrainAI Preference `json:"train_ai"` // "train-ai": AI model training (4.1)
	Search  Preference `json:"search"`   // "search": search applications (4.2)
}

// Combine returns the most restrictive preference of u and v in each
// category, as draft-ietf-aipref-vocab-07 section 5.1 combines statements.
func (u Usage) Combine(v Usage) Usage {
	return Usage{TrainAI: u.TrainAI.combine(v.TrainAI), Search: u.Search.combine(v.Search)}
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
		case PrefAllow:
			parts = append(parts, label+"=y")
		case PrefDisallow:
			parts = append(parts, label+"=n")
		}
	}
	add("train-ai", u.TrainAI)
	add("search", u.Search)
	return strings.Join(parts, ", ")
}

// ParseUsage reads a usage preference expression as draft-ietf-aipref-vocab-07
// section 6.5 says: the bytes are parsed as a Structured Field Dictionary
// (RFC 9651 section 4.2.2); the Token y allows a category, n disallows it,
// anything else (absent, another type, another Token) leaves it unknown
// (6.5); unknown labels and all parameters are ignored (6.4, 6.5.2); a
// repeated label keeps its last value (6.5.1). When the Dictionary does
// not parse, every category is unknown (6.5.1) and err says where and why.
func ParseUsage(expr string) (Usage, error) {
	d, err := httpsfv.UnmarshalDictionary([]string{expr})
	if err != nil {
		if e := sfDictCheck(expr); e != nil {
			return Usage{}, e
		}
		return Usage{}, err
	}
	get := func(label string) Preference {
		m, ok := d.Get(label)
		if !ok {
			return PrefUnknown
		}
		it, ok := m.(httpsfv.Item)
		if !ok {
			return PrefUnknown // an inner list
		}
		switch tok, _ := it.Value.(httpsfv.Token); tok {
		case "y":
			return PrefAllow
		case "n":
			return PrefDisallow
		}
		return PrefUnknown
	}
	return Usage{TrainAI: get("train-ai"), Search: get("search")}, nil
}

// usageLabels are the vocabulary's labels (draft-ietf-aipref-vocab-07
// section 6.1, table "Mappings for Categories").
var usageLabels = map[string]bool{"train-ai": true, "search": true}

// retiredLabels are labels of earlier revisions of the vocabulary, with
// the revision that dropped them: a file written for them gets a warning
// that says so, and the label is ignored like any unknown one.
var retiredLabels = map[string]string{
	"ai-use":      "draft-ietf-aipref-vocab-05 removed the ai-use category",
	"bots":        "draft-ietf-aipref-vocab-05 removed the bots category",
	"train-genai": "draft-ietf-aipref-vocab-04 merged train-genai into train-ai",
	"ai-output":   "draft-ietf-aipref-vocab-05 removed the ai-output category",
	"ai":          "no revision of draft-ietf-aipref-vocab defines ai (attach-05's example text says \"ai=y\" for train-ai=y)",
}

// UsageRule is a Content-Usage line.
type UsageRule struct {
	// Path is the path pattern as written, "" when the line has none
	// (then it covers everything its group covers, as the shortest path:
	// draft-ietf-aipref-attach-05 section 3.2). Pref is the statement of
	// preference.
	Path, Pref string
	// Usage is the preference read from Pref; all unknown when Err is set
	// or Pref is empty.
	Usage Usage
	// Err is why Pref is not a Structured Field Dictionary, or nil.
	Err error
	// Line is the Content-Usage line; Group the group it is in.
	Line  *grammar.Line
	Group *Group

	match Rule // the path in the profile's matching form
}

// SignalSet is what Content-Signal lines say, in the Content Signals
// Policy's own terms: search, ai-input and ai-train, each yes (PrefAllow),
// no (PrefDisallow) or not stated.
type SignalSet struct {
	Search, AIInput, AITrain Preference
}

// IsZero reports whether no signal is stated.
func (s SignalSet) IsZero() bool { return s == SignalSet{} }

// String returns the stated signals as the policy writes them
// ("search=yes, ai-train=no"), or "" when none is stated.
func (s SignalSet) String() string { return s.format("=yes", "=no") }

// Words returns the stated signals under the policy's names with
// sitetxt's verdict words ("search allow, ai-train disallow"), or "".
func (s SignalSet) Words() string { return s.format(" allow", " disallow") }

func (s SignalSet) format(yes, no string) string {
	var parts []string
	for _, f := range []struct {
		name string
		p    Preference
	}{{"search", s.Search}, {"ai-input", s.AIInput}, {"ai-train", s.AITrain}} {
		switch f.p {
		case PrefAllow:
			parts = append(parts, f.name+yes)
		case PrefDisallow:
			parts = append(parts, f.name+no)
		}
	}
	return strings.Join(parts, ", ")
}

func (s SignalSet) combine(o SignalSet) SignalSet {
	return SignalSet{Search: s.Search.combine(o.Search), AIInput: s.AIInput.combine(o.AIInput), AITrain: s.AITrain.combine(o.AITrain)}
}

// Signal is a Content-Signal line (Cloudflare's Content Signals Policy).
// The policy writes it inside a User-agent group and gives it no path, so
// it covers everything its group covers.
type Signal struct {
	SignalSet
	// Line is the Content-Signal line; Group the group it is in.
	Line  *grammar.Line
	Group *Group
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
// What is odd about a line is Lint's to say; Compile reports only a
// License that is not an absolute URL.
func (c *compiler) usageLine(g *Group, l *grammar.Line) bool {
	if l.Kind != grammar.Extension || l.NoColon {
		return false
	}
	switch {
	case l.FieldIs("content-usage"):
		if g == nil {
			return true
		}
		r := ParseContentUsage(l.Value)
		r.Line, r.Group = l, g
		pat := r.Path
		if pat == "" {
			pat = "/"
		}
		r.match = Rule{Pattern: pat, Line: l, Group: g, Allow: true}
		r.match.compile(c.pol.profile)
		if r.Path == "" {
			r.match.prio = 0 // the shortest path: weaker than any line naming one
		}
		g.Usage = append(g.Usage, r)
	case l.FieldIs("content-signal"):
		s, err := ParseContentSignal(l.Value)
		if err != nil || g == nil {
			return true // lint says why
		}
		s.Line, s.Group = l, g
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

// signalLabels are the Content Signals Policy's signals.
var signalLabels = map[string]bool{"search": true, "ai-input": true, "ai-train": true}

// ParseContentUsage reads the value of a Content-Usage line: an optional
// path, then the statement of preference (see splitUsage and ParseUsage).
// It never fails: a line with no preference, or one that does not parse,
// states nothing (every category unknown; UsageRule.Err says why for the
// latter).
func ParseContentUsage(v string) *UsageRule {
	path, pref := splitUsage(v)
	r := &UsageRule{Path: path, Pref: pref}
	r.Usage, r.Err = ParseUsage(pref)
	return r
}

// errSignalPath is ParseContentSignal's error for a value that starts with
// a path: the Content Signals Policy defines none, so the line is not read.
var errSignalPath = errors.New("starts with a path, which the Content Signals Policy does not define")

// ParseContentSignal reads a Content-Signal value: comma-separated
// name=value pairs. Names are compared ignoring case; values are yes or no
// (ignoring case), anything else leaves the signal unknown. Unknown names
// are ignored. A value starting with "/" is an error: the policy gives the
// line no path.
func ParseContentSignal(v string) (*Signal, error) {
	if strings.HasPrefix(v, "/") {
		return nil, errSignalPath
	}
	s := &Signal{}
	for _, part := range strings.Split(v, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		name, val = strings.ToLower(strings.TrimSpace(name)), strings.ToLower(strings.TrimSpace(val))
		pr := PrefUnknown
		switch val {
		case "yes":
			pr = PrefAllow
		case "no":
			pr = PrefDisallow
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
	// disallowed URL has no usage preference (draft-ietf-aipref-attach-05
	// section 3.1). Everything else is then empty.
	Applies bool
	// Usage is the preference from the Content-Usage rules with the
	// longest matching path, combined most restrictively when several
	// have that length (attach-05 section 3.1, vocab-07 section 5.1); all
	// unknown when none matches. Rules are the rules that decided it.
	Usage Usage
	Rules []*UsageRule
	// Signal is what the crawler's groups' Content-Signal lines say,
	// combined most restrictively; Signals are those lines.
	Signal  SignalSet
	Signals []*Signal
}

// Field names one source of a usage preference in a Derivation.
type Field string

// The fields.
const (
	FieldNone          Field = "none"           // neither line states it
	FieldContentUsage  Field = "content-usage"  // the Content-Usage rule decided
	FieldContentSignal Field = "content-signal" // the Content-Signal line decided
	FieldBoth          Field = "both"           // both state it, and agree
)

// Derivation is sitetxt's own combined view of Content-Usage and
// Content-Signal; no text defines it. sitetxt maps the signal ai-train to
// train-ai and search to search (ai-input has no category in
// draft-ietf-aipref-vocab-07), then combines the two most restrictively
// as vocab-07 section 5.1 combines statements. TrainAIFrom and SearchFrom
// say which field decided each category.
type Derivation struct {
	Usage                   Usage
	TrainAIFrom, SearchFrom Field
}

// Derived returns sitetxt's combined view of the decision (see Derivation).
func (u UsageDecision) Derived() Derivation {
	pick := func(cu, cs Preference) (Preference, Field) {
		switch {
		case cu == PrefUnknown && cs == PrefUnknown:
			return PrefUnknown, FieldNone
		case cs == PrefUnknown:
			return cu, FieldContentUsage
		case cu == PrefUnknown:
			return cs, FieldContentSignal
		case cu == cs:
			return cu, FieldBoth
		case cu == PrefDisallow:
			return cu, FieldContentUsage
		}
		return cs, FieldContentSignal
	}
	var d Derivation
	d.Usage.TrainAI, d.TrainAIFrom = pick(u.Usage.TrainAI, u.Signal.AITrain)
	d.Usage.Search, d.SearchFrom = pick(u.Usage.Search, u.Signal.Search)
	return d
}

// Usage returns the usage preference for url, an absolute URL or a path,
// and the crawler: none when the crawler may not fetch it; otherwise from
// the longest matching Content-Usage rule of the crawler's groups (matched
// as Allow and Disallow rules are, under the policy's profile; a rule
// without a path is the shortest) and the groups' Content-Signal lines.
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
		for _, s := range g.Signals {
			out.Signal = out.Signal.combine(s.SignalSet)
			out.Signals = append(out.Signals, s)
		}
	}
	return out
}

// lintUsage checks the usage-preference lines of a file:
//
//   - usage-label: a Content-Usage label outside the vocabulary (one an
//     earlier revision had is named as such), or a Content-Signal name
//     outside the policy; both are ignored, and the known ones are named
//   - usage-value: a value other than y/n (yes/no for Content-Signal),
//     which leaves the category unknown
//   - usage-syntax: a statement of preference that is not a Structured
//     Field Dictionary (every category unknown), at the byte where RFC
//     9651's parsing stops
//   - usage-empty: a Content-Usage line with no statement of preference,
//     which states nothing
//   - usage-path: a Content-Usage value that starts with a path-like word
//     not starting with "/", or a Content-Signal line with a path (the
//     policy defines none: the line is not read)
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
	prefOff := len(v) - len(pref)
	if path == "" {
		// No path. A first word that looks like one but does not start
		// with "/" (a pattern, a relative path) is a path the writer
		// meant: say so rather than only that the Dictionary fails.
		if word, rest, ok := strings.Cut(v, " "); ok && strings.ContainsAny(word, "/*$") && sfDictCheck(strings.TrimLeft(rest, " \t")) == nil {
			l.warn("usage-path", ln.ValuePos(), ln.End(), "Content-Usage path %q does not start with \"/\", so the whole value is read as the preference and states nothing", word)
			return
		}
	}
	if strings.TrimSpace(pref) == "" {
		l.warn("usage-empty", ln.ValuePos(), ln.End(), "Content-Usage line states no preference: every category is unknown for the paths it covers")
		return
	}
	if err := sfDictCheck(pref); err != nil {
		l.warn("usage-syntax", valueAt(ln, prefOff+err.Offset), ln.End(), "usage preference %q is not a Structured Field Dictionary: %s (RFC 9651 section 4.2.2); every category is unknown", pref, err.Msg)
		return
	}
	d, err := httpsfv.UnmarshalDictionary([]string{pref})
	if err != nil {
		l.warn("usage-syntax", valueAt(ln, prefOff), ln.End(), "usage preference %q is not a Structured Field Dictionary (%v); every category is unknown", pref, err)
		return
	}
	for _, name := range d.Names() {
		m, _ := d.Get(name)
		at := valueAt(ln, prefOff+memberOffset(pref, name))
		if !usageLabels[name] {
			if why, ok := retiredLabels[name]; ok {
				l.warn("usage-label", at, ln.End(), "usage label %q is ignored: %s (known: train-ai, search)", name, why)
			} else {
				l.warn("usage-label", at, ln.End(), "unknown usage label %q is ignored (known: train-ai, search)", name)
			}
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

// memberOffset returns the byte offset of the last member named key in
// the Dictionary pref (the one that applies, RFC 9651 4.2.2), or 0.
func memberOffset(pref, key string) int {
	off := 0
	for i := 0; i < len(pref); {
		j := i
		for j < len(pref) && (pref[j] == ' ' || pref[j] == '\t') {
			j++
		}
		if strings.HasPrefix(pref[j:], key) {
			if k := j + len(key); k == len(pref) || strings.IndexByte("=;, \t", pref[k]) >= 0 {
				off = j
			}
		}
		n := strings.IndexByte(pref[i:], ',')
		if n < 0 {
			break
		}
		i += n + 1
	}
	return off
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
		l.warn("usage-path", at, ln.End(), "Content-Signal value %q starts with a path, which the Content Signals Policy does not define; the line is not read", v)
		return
	}
	off := 0
	for _, part := range strings.Split(v, ",") {
		pat := valueAt(ln, off+len(part)-len(strings.TrimLeft(part, " \t")))
		off += len(part) + 1
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		name = strings.TrimSpace(name)
		if !ok {
			if name != "" {
				l.warn("usage-value", pat, ln.End(), "content signal %q has no value; want yes or no", name)
			}
			continue
		}
		if !signalLabels[strings.ToLower(name)] {
			l.warn("usage-label", pat, ln.End(), "unknown content signal %q is ignored (known: search, ai-input, ai-train)%s", name, suggest(strings.ToLower(name)))
			continue
		}
		if val := strings.ToLower(strings.TrimSpace(val)); val != "yes" && val != "no" {
			l.warn("usage-value", pat, ln.End(), "content signal %q has value %q, not yes or no; its preference is unknown", name, strings.TrimSpace(val))
		}
	}
}

// suggest names the known signal a misspelt one most likely meant, as
// "; did you mean ai-train?", or "".
func suggest(name string) string {
	if best := grammar.Nearest(name, []string{"search", "ai-input", "ai-train"}, 2); best != "" {
		return "; did you mean " + best + "?"
	}
	return ""
}
