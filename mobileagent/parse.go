package mobileagent

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/sitetxt/sitetxt/grammar"
)

// The codes of the diagnostics this package reports.
const (
	CodeMissingPath   = "agent-server-missing-path"   // no path and no target
	CodeMissingTarget = "agent-server-missing-target" // a path but no target
	CodeExtraField    = "agent-server-extra-field"    // more than a path and a target
	CodeBadPath       = "agent-server-bad-path"       // a byte the path may not hold
	CodeRelativePath  = "agent-server-relative-path"  // a path that never matches
	CodeBadTarget     = "agent-server-bad-target"     // neither scheme://net_loc nor none
	CodeBadScheme     = "agent-server-bad-scheme"     // an empty scheme or a byte it may not hold
	CodeBadNetLoc     = "agent-server-bad-net-loc"    // a byte the network location may not hold
	CodeMissingHost   = "agent-server-missing-host"   // scheme:// with no host
	CodeBadPort       = "agent-server-bad-port"       // a port that is not a number up to 65535
	CodeOverridden    = "agent-server-overridden"     // a later line assigns the same path
	CodeFieldSpelling = "agent-server-field-spelling" // a field name close to Mobile-agent-server
	CodeMissingColon  = "agent-server-missing-colon"  // "Mobile-agent-server / none" without ":"
	CodeUnescapedPath = "agent-server-unescaped-path" // a path byte the BNF wants %-escaped (accepted)
	CodeIPv6          = "agent-server-ipv6"           // an IPv6 literal host, which the 1997 BNF predates (accepted)
)

// parseLine validates a Mobile-agent-server line against the draft's BNF
// (section 3.2) and returns its rule, or nil and the reason it is ignored.
//
//	mobileagentrec = "Mobile-agent-server:" *space path *space (simplified_url | "none")
//	simplified_url = scheme "://" net_loc
//	scheme         = 1*( alpha | digit | "+" | "-" | "." )
//	net_loc        = *( pchar | ";" | "?" )
//	path           = fsegment *( "/" segment )   (RFC 1808; see checkPath)
//
// splitWords splits a value into words at runs of SP and HT (the BNF's
// space): the first three as byte ranges, and how many there are.
func splitWords(v string) (words [3][2]int, n int) {
	for i := 0; i < len(v); {
		for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
			i++
		}
		if i == len(v) {
			break
		}
		j := i
		for j < len(v) && v[j] != ' ' && v[j] != '\t' {
			j++
		}
		if n < len(words) {
			words[n] = [2]int{i, j}
		}
		n++
		i = j
	}
	return words, n
}

// checkNetLoc checks the characters of a server's net_loc (the IPv6
// literal at [v6lo, v6hi) aside): where the first bad one is, its width,
// and what is wrong, or "" when all are allowed.
func checkNetLoc(netloc string, v6lo, v6hi int) (at, width int, msg string) {
	for i := 0; i < len(netloc); {
		c := netloc[i]
		switch {
		case i == v6lo:
			i = v6hi
		case c == '%':
			if i+2 >= len(netloc) || !isHex(netloc[i+1]) || !isHex(netloc[i+2]) {
				return i, min(3, len(netloc)-i), `"%" must start a %XX escape in the server address`
			}
			i += 3
		case isPchar(c) || c == ';' || c == '?':
			i++
		case c == '/':
			return i, len(netloc) - i, fmt.Sprintf(`%q after the host is not allowed: the server is scheme://host:port, with no path`, netloc[i:])
		default:
			_, w := utf8.DecodeRuneInString(netloc[i:])
			return i, w, fmt.Sprintf(`%q is not allowed in the server address%s`, netloc[i:i+w], escapeHint(netloc[i:i+w]))
		}
	}
	return 0, 0, ""
}

func parseLine(file string, l *grammar.Line) (*Rule, grammar.Diagnostics) {
	v := l.Value
	vp := l.ValuePos()
	at := func(i int) grammar.Pos {
		return grammar.Pos{Offset: vp.Offset + i, Line: vp.Line, Column: vp.Column + i}
	}
	diag := func(sev grammar.Severity, code string, from, to int, format string, args ...any) *grammar.Diagnostic {
		return &grammar.Diagnostic{Severity: sev, Code: code, Summary: fmt.Sprintf(format, args...),
			Filename: file, Range: grammar.Range{Start: at(from), End: at(to)}}
	}
	fail := func(code string, from, to int, format string, args ...any) (*Rule, grammar.Diagnostics) {
		return nil, grammar.Diagnostics{diag(grammar.Error, code, from, to, format, args...)}
	}

	words, n := splitWords(v)
	switch {
	case n == 0:
		return fail(CodeMissingPath, 0, 0, `missing path and server after "%s:"`, l.Field)
	case n == 1:
		e := words[0][1]
		return fail(CodeMissingTarget, e, e, `missing server after path %q: want scheme://host:port or none`, v[:e])
	case n > 2:
		w := words[2]
		return fail(CodeExtraField, w[0], len(v), `unexpected %q after the server: a line holds one path and one server`, v[w[0]:w[1]])
	}
	p0, p1 := words[0][0], words[0][1]
	t0, t1 := words[1][0], words[1][1]
	path, target := v[p0:p1], v[t0:t1]

	if i, w, msg := checkPath(path); msg != "" {
		return fail(CodeBadPath, p0+i, p0+i+w, "%s", msg)
	}
	var ds grammar.Diagnostics
	if i, w := unescaped(path); w > 0 {
		ds = append(ds, diag(grammar.Warning, CodeUnescapedPath, p0+i, p0+i+w,
			`%q should be escaped in a path (RFC 1808)%s; the line is accepted and compares as the escape would`, path[i:i+w], escapeHint(path[i:i+w])))
	}
	if path[0] != '/' {
		ds = append(ds, diag(grammar.Warning, CodeRelativePath, p0, p1,
			`path %q does not start with "/" and never matches a URL's path`, path))
	}
	r := &Rule{Line: l, Path: path, target: target}
	if strings.EqualFold(target, "none") {
		return r, ds
	}

	sep := strings.Index(target, "://")
	if sep < 0 {
		return fail(CodeBadTarget, t0, t1, `server %q is not scheme://host:port or none`, target)
	}
	scheme, netloc := target[:sep], target[sep+3:]
	if scheme == "" {
		return fail(CodeBadScheme, t0, t0, `missing scheme before "://"`)
	}
	for i := 0; i < len(scheme); i++ {
		if !isSchemeChar(scheme[i]) {
			_, w := utf8.DecodeRuneInString(scheme[i:])
			return fail(CodeBadScheme, t0+i, t0+i+w, `%q is not allowed in a scheme (letters, digits, "+", "-" and ".")`, scheme[i:i+w])
		}
	}
	n0 := t0 + sep + 3 // where net_loc starts in v
	// An IPv6 literal ("[::1]", RFC 2732) after any user part: the 1997
	// BNF predates it, so it is accepted with a warning.
	v6lo, v6hi := -1, -1
	if a := strings.LastIndexByte(netloc, '@') + 1; a < len(netloc) && netloc[a] == '[' {
		if j := strings.IndexByte(netloc[a:], ']'); j > 1 && isIPv6Literal(netloc[a+1:a+j]) {
			v6lo, v6hi = a, a+j+1
			ds = append(ds, diag(grammar.Warning, CodeIPv6, n0+a, n0+a+j+1,
				`IPv6 address %s: the 1997 draft's BNF predates IPv6 literals (RFC 2732); accepted`, netloc[a:a+j+1]))
		}
	}
	if i, w, msg := checkNetLoc(netloc, v6lo, v6hi); msg != "" {
		return fail(CodeBadNetLoc, n0+i, n0+i+w, "%s", msg)
	}
	s := &Server{URL: target, Scheme: strings.ToLower(scheme), NetLoc: netloc}
	// net_loc = [user "@"] host [":" port] [";" params] ["?" query]
	hp := netloc
	if j := strings.IndexAny(hp, ";?"); j >= 0 {
		hp = hp[:j]
	}
	h0 := 0
	if j := strings.LastIndexByte(hp, '@'); j >= 0 {
		s.User, hp, h0 = hp[:j], hp[j+1:], j+1
	}
	s.Host = hp
	if j := strings.LastIndexByte(hp, ':'); j >= 0 && j > strings.LastIndexByte(hp, ']') {
		s.Host, s.Port = hp[:j], hp[j+1:]
		if !validPort(s.Port) {
			from := n0 + h0 + j + 1
			return fail(CodeBadPort, from, from+len(s.Port), `port %q is not a number from 0 to 65535`, s.Port)
		}
	}
	if s.Host == "" {
		return fail(CodeMissingHost, n0+h0, n0+h0, `missing host in server %q`, target)
	}
	r.Server = s
	return r, ds
}

// isIPv6Literal reports whether s (between "[" and "]") looks like an IPv6
// address: hex digits, ':' and '.' (an embedded IPv4 address), with at
// least one ':'.
func isIPv6Literal(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isHex(c) && c != ':' && c != '.' {
			return false
		}
	}
	return strings.IndexByte(s, ':') >= 0
}

// checkPath checks a path against RFC 1808's syntax as the draft
// reproduces it and returns the offset and width of the first byte that
// cannot stand in a path even leniently (a control byte, '?', '#', a
// broken %-escape), with a message, or "" when there is none. Printable
// bytes the BNF wants escaped ("~", non-ASCII) are found by unescaped.
//
// The draft's path (fsegment *( "/" segment ), fsegment = 1*pchar) cannot
// start with "/", yet every example does ("/", "/home/"): the examples
// follow RFC 1808's abs_path, "/" [path]. Both are accepted: a path is
// pchar and "/" bytes, where an empty segment ("//") is allowed too, as
// today's URLs allow it. A path without a leading "/" is syntactically
// valid but never matches (reported by the caller).
func checkPath(p string) (at, width int, msg string) {
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '%':
			if i+2 >= len(p) || !isHex(p[i+1]) || !isHex(p[i+2]) {
				return i, min(3, len(p)-i), `"%" must start a %XX escape in a path`
			}
			i += 3
		case c == '/' || isPchar(c) || lenientPathByte(c):
			i++
		default:
			_, w := utf8.DecodeRuneInString(p[i:])
			return i, w, fmt.Sprintf("%q is not allowed in a path%s", p[i:i+w], escapeHint(p[i:i+w]))
		}
	}
	return 0, 0, ""
}

// lenientPathByte reports whether c is a byte the BNF wants escaped in a
// path that is accepted as written: printable ASCII other than '?' and
// '#' (which would end the path in a URL), and bytes outside ASCII.
func lenientPathByte(c byte) bool {
	return c > ' ' && c < 0x7f && c != '?' && c != '#' || c >= 0x80
}

// unescaped returns the offset and width of the first character of a path
// (which checkPath accepted) that the BNF wants %-escaped, or width 0.
func unescaped(p string) (at, width int) {
	for i := 0; i < len(p); i++ {
		if c := p[i]; c != '%' && c != '/' && !isPchar(c) {
			_, w := utf8.DecodeRuneInString(p[i:])
			return i, w
		}
	}
	return 0, 0
}

// escapeHint suggests the %-escaped form of s.
func escapeHint(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return "; write it as " + b.String()
}

func validPort(p string) bool {
	if p == "" {
		return true // "host:" is a host with no port (RFC 1738 section 3.1)
	}
	n := 0
	for i := 0; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return false
		}
		n = n*10 + int(p[i]-'0')
		if n > 65535 {
			return false
		}
	}
	return true
}

// isSchemeChar reports whether c may stand in a scheme:
// alpha | digit | "+" | "-" | ".".
func isSchemeChar(c byte) bool {
	return isAlnum(c) || c == '+' || c == '-' || c == '.'
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// isPchar reports whether c is a pchar other than an escape:
//
//	pchar      = uchar | ":" | "@" | "&" | "="
//	uchar      = unreserved | escape
//	unreserved = alpha | digit | safe | extra
//	safe       = "$" | "-" | "_" | "." | "+"
//	extra      = "!" | "*" | "'" | "(" | ")" | ","
func isPchar(c byte) bool {
	if isAlnum(c) {
		return true
	}
	switch c {
	case ':', '@', '&', '=', '$', '-', '_', '.', '+', '!', '*', '\'', '(', ')', ',':
		return true
	}
	return false
}

// overridden reports that a later line assigns the same path as prev.
func overridden(file string, prev, next *Rule) *grammar.Diagnostic {
	vp := prev.Line.ValuePos()
	end := grammar.Pos{Offset: vp.Offset + len(prev.Path), Line: vp.Line, Column: vp.Column + len(prev.Path)}
	return &grammar.Diagnostic{Severity: grammar.Warning, Code: CodeOverridden, Filename: file,
		Summary: fmt.Sprintf("path %q is assigned again on line %d, which overrides this line", prev.Path, next.Line.Pos.Line),
		Range:   grammar.Range{Start: vp, End: end}}
}

// nearMiss reports an extension line whose field name is a misspelling of
// Mobile-agent-server ("Mobile-agent-servers", "Mobile agent server",
// "MobileAgentServer"): such a line is an unknown extension, and ignored.
// Spellings that differ only in case are Mobile-agent-server lines: field
// names ignore case (RFC 822 section 3.4.7, whose conventions the draft's
// BNF uses).
func nearMiss(file string, l *grammar.Line) *grammar.Diagnostic {
	if !looksLikeField(l.Field) {
		return nil
	}
	p := l.FieldPos()
	end := grammar.Pos{Offset: p.Offset + len(l.Field), Line: p.Line, Column: p.Column + len(l.Field)}
	return &grammar.Diagnostic{Severity: grammar.Warning, Code: CodeFieldSpelling, Filename: file,
		Summary: fmt.Sprintf(`unknown field %q looks like "Mobile-agent-server"; the line is ignored`, l.Field),
		Range:   grammar.Range{Start: p, End: end}}
}

// looksLikeField reports whether f, lower-cased and without separators, is
// within two edits of "mobileagentserver".
func looksLikeField(f string) bool {
	const want = "mobileagentserver"
	if len(f) > 2*len(want) {
		return false
	}
	var buf [2 * len(want)]byte
	n := 0
	for i := 0; i < len(f); i++ {
		c := f[i]
		switch {
		case c == '-' || c == '_' || c == ' ' || c == '\t' || c == '.':
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		buf[n] = c
		n++
	}
	return editDistance(string(buf[:n]), want) <= 2
}

// editDistance is grammar.EditDistance, short-cut for lengths more than 2 apart.
func editDistance(a, b string) int {
	if d := len(a) - len(b); d > 2 || d < -2 {
		return 3
	}
	return grammar.EditDistance(a, b)
}

// missingColon reports a line that starts with the word
// Mobile-agent-server not followed by a colon: "Mobile-agent-server / none".
func missingColon(file string, l *grammar.Line) *grammar.Diagnostic {
	s := l.Raw
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	j := i
	for j < len(s) && s[j] != ' ' && s[j] != '\t' {
		j++
	}
	if !strings.EqualFold(s[i:j], Field) || strings.HasPrefix(strings.TrimLeft(s[j:], " \t"), ":") {
		return nil
	}
	p := l.Pos
	at := func(k int) grammar.Pos { return grammar.Pos{Offset: p.Offset + k, Line: p.Line, Column: p.Column + k} }
	return &grammar.Diagnostic{Severity: grammar.Warning, Code: CodeMissingColon, Filename: file,
		Summary: fmt.Sprintf(`missing ":" after %q; the line is ignored`, s[i:j]),
		Range:   grammar.Range{Start: at(j), End: at(j)}}
}
