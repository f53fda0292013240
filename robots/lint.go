package robots

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
)

// knownFields are the field names robots.txt files use besides User-agent,
// Allow and Disallow, lower case: the extensions this package reads and
// the ones Google's parser recognises but does not use.
var knownFields = map[string]bool{
	"sitemap": true, "crawl-delay": true, "request-rate": true, "visit-time": true,
	"host": true, "clean-param": true, "noindex": true, "noarchive": true, "nofollow": true,
	"mobile-agent-server": true,
	"content-usage":       true, "content-signal": true, "license": true, "llm-policy": true,
}

// canonicalField returns the BNF spelling of a line's field.
func canonicalField(k grammar.Kind) string {
	switch k {
	case grammar.AgentLine:
		return "User-agent"
	case grammar.AllowLine:
		return "Allow"
	case grammar.DisallowLine:
		return "Disallow"
	}
	return ""
}

// Lint returns the problems of a robots.txt file that the grammar does not
// report, as warnings, plus the bad extension values as errors:
//
//   - unknown-field: a field no profile uses (not checked in a file with a
//     "Path" field, which is a data.txt)
//   - misspelled-field: a misspelling or prefix of a field only Google
//     accepts ("disalow", "useragent", "site-map")
//   - rule-before-agent: a rule (or group extension) before any User-agent
//     line, which every profile ignores
//   - rule-outside-record: a rule after a blank line with no User-agent line
//     since, which the draft and norobots profiles ignore
//   - pattern-start: a pattern that does not start with "/" or "*", which
//     never matches a path
//   - dollar-inside: a '$' before the end of a pattern, which is literal
//   - control-byte: a control byte in a pattern (a vertical tab, a NUL),
//     which the profiles read differently
//   - agent-token: a User-agent value that is not "*" or an RFC 9309
//     product token (digits, a version, spaces): rfc9309 compares the
//     name CrawlerName finds, google cuts it before the first character
//     outside [A-Za-z_-]
//   - repeated-group: a User-agent named by an earlier group too (rfc9309
//     and google merge them, draft and norobots use only the first)
//   - unreachable-rule: a rule that can never decide anything: an empty
//     Allow, a repeated rule, a Disallow with the same pattern as an Allow
//   - crawl-delay-value: a Crawl-delay of zero or over a minute
//   - sitemap-url, crawl-delay, request-rate, visit-time, host, clean-param:
//     values that cannot be parsed (errors; the line is ignored)
//   - usage-label, usage-value, usage-syntax, usage-path, usage-disallowed,
//     usage-outside-group: the Content-Usage and Content-Signal lines (see
//     docs/ai-preferences.md); content-usage, content-signal, license-url:
//     their values that cannot be read (errors; the line is ignored);
//     llm-policy-url: an LLM-Policy value that is not an absolute URL
func Lint(f *grammar.File) grammar.Diagnostics {
	l := linter{file: f}
	l.fields()
	l.records()
	l.groups()
	pol := Compile(f, RFC9309)
	l.ds = append(l.ds, pol.Diagnostics()...)
	l.unreachable(pol)
	l.usage(pol)
	l.ds.Sort()
	return l.ds
}

type linter struct {
	file *grammar.File
	ds   grammar.Diagnostics
}

func (l *linter) warn(code string, start, end grammar.Pos, format string, args ...any) *grammar.Diagnostic {
	d := &grammar.Diagnostic{
		Severity: grammar.Warning, Code: code, Summary: fmt.Sprintf(format, args...),
		Filename: l.file.Name, Range: grammar.Range{Start: start, End: end},
	}
	l.ds = append(l.ds, d)
	return d
}

// What lint says about portability, from the profile table: the profiles
// a finding concerns (Concerns), and the words for them.
var (
	readsRecords = profilesWhere(func(d *profile) bool { return d.records })     // a blank line ends a record
	merges       = profilesWhere(func(d *profile) bool { return d.merge })       // groups naming a crawler are merged
	firstOnly    = profilesWhere(func(d *profile) bool { return !d.merge })      // only the first group naming a crawler counts
	readsTypos   = profilesWhere(func(d *profile) bool { return d.googleLines }) // misspelt fields count
	strictFields = profilesWhere(func(d *profile) bool { return !d.googleLines })
	allowWinsTie = profilesWhere(func(d *profile) bool { return !d.firstMatch && d.tieAllow })
)

// concerns is the grammar.Diagnostic.Extra of a lint finding that matters
// only under some profiles: which.
type concerns []Profile

// Concerns reports whether the diagnostic d concerns the reading of its
// file under profile p. Most do; a finding of Lint that matters only under
// some profiles (a rule after a blank line, which only the drafts' records
// lose; a second group for a crawler; a misspelt field only google
// accepts) concerns those only. A tool that reads the file one way
// (sitetxt lint --profile) leaves out what does not concern it without
// reading the summary.
func Concerns(d *grammar.Diagnostic, p Profile) bool {
	ps, ok := d.Extra.(concerns)
	return !ok || slices.Contains(ps, p)
}

// ConcernedProfiles returns the profiles the diagnostic d concerns when it
// concerns only some of them (see Concerns), else nil.
func ConcernedProfiles(d *grammar.Diagnostic) []Profile {
	ps, _ := d.Extra.(concerns)
	return slices.Clone(ps)
}

func fieldEnd(ln *grammar.Line) grammar.Pos {
	p := ln.FieldPos()
	p.Offset += len(ln.Field)
	p.Column += len(ln.Field)
	return p
}

// fields checks each line on its own.
func (l *linter) fields() {
	dataTxt := false
	for _, ln := range l.file.Lines {
		if ln.IsField() && ln.FieldIs("path") {
			dataTxt = true
			break
		}
	}
	// The tree's lines, node after node; the preamble is the lines before
	// any User-agent line.
	for _, n := range l.file.Nodes {
		preamble := n.IsPreamble()
		for _, ln := range n.Lines() {
			l.field(ln, preamble, dataTxt)
		}
	}
}

// field checks one line on its own; preamble says whether it stands
// before any User-agent line, dataTxt whether the file is a data.txt
// (whose fields are not robots.txt's).
func (l *linter) field(ln *grammar.Line, preamble, dataTxt bool) {
	switch ln.Kind {
	case grammar.AgentLine, grammar.AllowLine, grammar.DisallowLine:
		if ln.Typo {
			l.warn("misspelled-field", ln.FieldPos(), fieldEnd(ln),
				"field %q is not %q; only the %s profile accepts it", ln.Field, canonicalField(ln.Kind), joinNames(readsTypos)).Extra = concerns(strictFields)
		}
		if ln.Kind == grammar.AgentLine {
			l.agentValue(ln)
		}
		if ln.Kind.IsRule() {
			l.pattern(ln)
			if preamble {
				l.warn("rule-before-agent", ln.Pos, ln.End(), "%s line before any User-agent line is ignored", canonicalField(ln.Kind))
			}
		}
	case grammar.Extension:
		name := strings.ToLower(ln.Field)
		switch {
		case knownFields[name]:
			if preamble && (name == "crawl-delay" || name == "request-rate" || name == "visit-time") {
				l.warn("rule-before-agent", ln.Pos, ln.End(), "%s line before any User-agent line applies to no group", ln.Field)
			}
			if name == "noindex" || name == "noarchive" || name == "nofollow" {
				l.warn("noindex", ln.FieldPos(), fieldEnd(ln),
					"%s line is ignored: no profile reads it (Google stopped on 1 September 2019); "+
						"a robots meta tag or an X-Robots-Tag header on the pages says %s (Disallow stops crawling, not indexing)",
					ln.Field, name)
			}
			if name == "crawl-delay" {
				if d, err := parseCrawlDelay(ln.Value); err == nil {
					switch s := d.Seconds(); {
					case s == 0:
						l.warn("crawl-delay-value", ln.ValuePos(), ln.End(), "Crawl-delay of 0 has no effect")
					case s > 60:
						l.warn("crawl-delay-value", ln.ValuePos(), ln.End(),
							"Crawl-delay of %g seconds allows at most %d fetches a day", s, int(86400/s))
					}
				}
			}
		case hasPrefixFold(name, "sitemap") || hasPrefixFold(name, "site-map"):
			l.warn("misspelled-field", ln.FieldPos(), fieldEnd(ln), "field %q is not \"Sitemap\"; only the %s profile accepts it", ln.Field, joinNames(readsTypos)).Extra = concerns(strictFields)
		case !dataTxt:
			l.warn("unknown-field", ln.FieldPos(), fieldEnd(ln), "unknown field %q is ignored", ln.Field)
		}
	}
}

// agentValue checks that a User-agent value is "*" or a product token in
// RFC 9309's grammar, and says how the profiles read one that is not.
func (l *linter) agentValue(ln *grammar.Line) {
	v := ln.Value
	if RFC9309.desc().agents.isGlobal(v) || ValidAgentName(v) {
		return
	}
	rfc, google := RFC9309.desc().agents.names(v, nil), fileToken(v)
	var how string
	switch {
	case len(rfc) == 0 && google == "":
		how = "no profile reads a crawler name in it"
	case len(rfc) == 1 && rfc[0] == google:
		how = "rfc9309 and google read " + quotedNames([]string{google})
	default:
		how = "rfc9309 reads " + quotedNames(rfc) + ", google " + quotedNames([]string{google})
	}
	l.warn("agent-token", ln.ValuePos(), ln.End(),
		"User-agent %q is not an RFC 9309 product token (ASCII letters, '-' and '_'); %s", v, how)
}

// quotedNames says which crawler names a value holds: `the name "a"`,
// `the names "a" and "b"`, or `no name`.
func quotedNames(names []string) string {
	var q []string
	for _, n := range names {
		if n != "" {
			q = append(q, strconv.Quote(n))
		}
	}
	switch len(q) {
	case 0:
		return "no name"
	case 1:
		return "the name " + q[0]
	}
	return "the names " + strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// pattern checks a rule's value.
func (l *linter) pattern(ln *grammar.Line) {
	v := ln.Value
	if v == "" {
		return
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c != 0 && c < ' ' || c == 0x7f { // the grammar reports NUL
			p := ln.ValuePos()
			p.Offset += i
			p.Column += i
			l.warn("control-byte", p, p, "control byte %q in a pattern: rfc9309 matches it as written, google trims vertical tab and form feed", string(c))
			break
		}
	}
	if v[0] != '/' && v[0] != '*' {
		l.warn("pattern-start", ln.ValuePos(), ln.End(), "pattern %q does not start with \"/\" or \"*\" and never matches a path", v)
	}
	if i := strings.IndexByte(v, '$'); i >= 0 && i < len(v)-1 {
		p := ln.ValuePos()
		p.Offset += i
		p.Column += i
		l.warn("dollar-inside", p, p, "'$' inside a pattern matches a literal '$'; only a final '$' ends a match")
	}
}

// records finds rules the drafts' records leave out: after a blank line,
// with no User-agent line since.
func (l *linter) records() {
	inRecord, sawAgent := false, false
	for _, n := range l.file.Nodes {
		for _, ln := range n.Lines() {
			switch ln.Kind {
			case grammar.Blank:
				inRecord = false
			case grammar.AgentLine:
				inRecord, sawAgent = true, true
			case grammar.AllowLine, grammar.DisallowLine:
				if !inRecord && sawAgent {
					l.warn("rule-outside-record", ln.Pos, ln.End(),
						"%s line follows a blank line; the %s profiles ignore it, as records end at blank lines", canonicalField(ln.Kind), joinNames(readsRecords)).Extra = concerns(readsRecords)
				}
			}
		}
	}
}

// groups finds agents named by more than one group.
func (l *linter) groups() {
	pol := Compile(l.file, RFC9309)
	first := map[string]*grammar.Line{}
	for _, g := range pol.groups {
		here := map[string]bool{}
		for i, v := range g.Agents {
			keys := []string{"*"}
			if !RFC9309.desc().agents.isGlobal(v) {
				keys = RFC9309.desc().agents.names(v, nil)
			}
			ln := g.AgentLines[i]
			for _, key := range keys {
				key = asciiLower(key)
				// Name the crawler name when it is not the whole value
				// ("FooBot/2.1" is "foobot").
				who := fmt.Sprintf("User-agent %q", v)
				if key != "*" && !strings.EqualFold(key, strings.TrimSpace(v)) {
					who = fmt.Sprintf("User-agent %q (crawler name %q)", v, key)
				}
				if here[key] {
					l.warn("repeated-group", ln.ValuePos(), ln.End(), "%s is repeated in its group", who)
					continue
				}
				here[key] = true
				if prev, ok := first[key]; ok {
					l.warn("repeated-group", ln.ValuePos(), ln.End(), "%s already has a group at line %d; %s merge them, %s use only the first",
						who, prev.Pos.Line, joinNames(merges), joinNames(firstOnly)).Extra = concerns(firstOnly)
					continue
				}
				first[key] = ln
			}
		}
	}
}

// unreachable finds rules that never decide anything under RFC 9309's
// longest match, in every merged group.
func (l *linter) unreachable(pol *Policy) {
	reported := map[*Rule]bool{}
	for _, g := range pol.groups {
		for _, r := range g.Rules {
			if r.Allow && r.never() && !reported[r] {
				reported[r] = true
				l.warn("unreachable-rule", r.Line.Pos, r.Line.End(), "Allow with an empty pattern matches nothing")
			}
		}
	}
	for _, a := range pol.allAgents() {
		seen := map[string]*Rule{}
		for _, r := range a.rules {
			key := pol.profile.desc().percent.pattern(r.Pattern)
			if r.Allow {
				key = "A" + key
			} else {
				key = "D" + key
			}
			if prev, ok := seen[key]; ok && !reported[r] {
				reported[r] = true
				l.warn("unreachable-rule", r.Line.Pos, r.Line.End(), "%s never decides: the same rule is at line %d", r, prev.Line.Pos.Line)
				continue
			}
			seen[key] = r
			if !r.Allow {
				if prev, ok := seen["A"+key[1:]]; ok && !reported[r] {
					reported[r] = true
					l.warn("unreachable-rule", r.Line.Pos, r.Line.End(), "%s never decides under %s: Allow with the same pattern at line %d wins ties",
						r, joinNames(allowWinsTie), prev.Line.Pos.Line).Extra = concerns(allowWinsTie)
				}
			}
		}
	}
}
