package match

// This file is the matcher's specification: the plain reading of each
// profile's rules, a byte at a time, with none of the index's structures.
// The fuzzers hold the index (Build, Lookup, LookupURL) and the
// normalisation fast paths to it.

// Percent is how a reading compares percent escapes and octets outside
// ASCII in patterns and paths.
type Percent uint8

const (
	AsWritten Percent = iota // octets compared as written (1994)
	RFC                      // RFC 9309 2.2.2, both sides
	Google                   // the pattern only: escapes upper-cased, octets encoded; the URL as given
	Draft                    // both sides: escapes decoded except %2F (1996/97 draft 3.2.2)
)

// Reading is how a profile reads a group's rules.
type Reading struct {
	Percent Percent
	// Wildcards makes '*' match any run of bytes and a final '$' the end
	// of the path.
	Wildcards bool
	// FirstMatch makes the first rule in file order that matches decide;
	// else the longest pattern (in comparison form) decides, Allow
	// winning a tie, then file order.
	FirstMatch bool
}

// RefRule is a rule as written: its pattern and its directive.
type RefRule struct {
	Pattern string
	Allow   bool
}

// Reference returns the index in rules of the rule that decides url (an
// absolute URL or a path) under reading r, or -1 when none matches. Every
// step is written the plain way: the path is found, both sides are put
// in comparison form and every rule is matched by a recursion over
// pattern and path.
func Reference(r Reading, rules []RefRule, url string) int {
	path := RefNorm(r.Percent, refPath(url), true)
	best, bestLen := -1, -1
	for i, rule := range rules {
		if rule.Pattern == "" {
			continue // an empty pattern matches nothing
		}
		pat := RefNorm(r.Percent, rule.Pattern, false)
		if !RefMatch(pat, path, r.Wildcards) {
			continue
		}
		if r.FirstMatch {
			return i
		}
		n := len(pat)
		if n > bestLen || n == bestLen && rule.Allow && !rules[best].Allow {
			best, bestLen = i, n
		}
	}
	return best
}

// refPath returns the part of url that rules match: Google's
// GetPathParamsQuery read a byte at a time. An initial "//" starts an
// authority; "://" after it ends a scheme only when its '/' is the first
// '/', '?' or ';'; the part starts at the first '/', '?' or ';' after that, ends
// at a '#', and starts with '/' ("/" when there is none).
func refPath(url string) string {
	stop := func(c byte) bool { return c == '/' || c == '?' || c == ';' }
	from := 0
	if len(url) >= 2 && url[0] == '/' && url[1] == '/' {
		from = 2
	}
	for i := from; i < len(url); i++ {
		if url[i] == '#' {
			break
		}
		if stop(url[i]) {
			if url[i] == '/' && i > from && url[i-1] == ':' && i+1 < len(url) && url[i+1] == '/' {
				from = i + 2
			}
			break
		}
	}
	start := -1
	for i := from; i < len(url); i++ {
		if url[i] == '#' {
			break
		}
		if stop(url[i]) {
			start = i
			break
		}
	}
	if start < 0 {
		return "/"
	}
	end := len(url)
	for i := start; i < len(url); i++ {
		if url[i] == '#' {
			end = i
			break
		}
	}
	p := url[start:end]
	if p[0] != '/' {
		p = "/" + p
	}
	return p
}

// RefNorm returns s, a path (isPath) or a pattern, in the comparison form
// of percent rule p.
func RefNorm(p Percent, s string, isPath bool) string {
	const hex = "0123456789ABCDEF"
	val := func(c byte) int {
		switch {
		case '0' <= c && c <= '9':
			return int(c - '0')
		case 'a' <= c && c <= 'f':
			return int(c-'a') + 10
		case 'A' <= c && c <= 'F':
			return int(c-'A') + 10
		}
		return -1
	}
	escape := func(i int) (int, bool) { // the octet of an escape at s[i]
		if s[i] != '%' || i+2 >= len(s) || val(s[i+1]) < 0 || val(s[i+2]) < 0 {
			return 0, false
		}
		return val(s[i+1])<<4 | val(s[i+2]), true
	}
	enc := func(c int) string { return "%" + string(hex[c>>4]) + string(hex[c&15]) }
	var out []byte
	query := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		v, esc := escape(i)
		switch p {
		case AsWritten:
			out = append(out, c)
			continue
		case Google:
			switch {
			case isPath:
				out = append(out, c)
			case esc:
				out = append(out, enc(v)...)
				i += 2
			case c >= 0x80:
				out = append(out, enc(int(c))...)
			default:
				out = append(out, c)
			}
			continue
		case Draft:
			switch {
			case esc && v == '/':
				out = append(out, "%2F"...)
				i += 2
			case esc:
				out = append(out, byte(v))
				i += 2
			default:
				out = append(out, c)
			}
			continue
		}
		// RFC 9309: unreserved escapes decoded (and ':', '/', '?', '@' in
		// the query), others upper-cased, octets outside ASCII encoded;
		// '*' in a path and '$' in a path or before a pattern's end are
		// literal, written as escapes.
		unreserved := 'a' <= v && v <= 'z' || 'A' <= v && v <= 'Z' || '0' <= v && v <= '9' || v == '-' || v == '.' || v == '_' || v == '~'
		switch {
		case esc && (unreserved || query && (v == ':' || v == '/' || v == '?' || v == '@')):
			out = append(out, byte(v))
			i += 2
		case esc:
			out = append(out, enc(v)...)
			i += 2
		case c >= 0x80:
			out = append(out, enc(int(c))...)
		case isPath && c == '*':
			out = append(out, "%2A"...)
		case c == '$' && (isPath || i < len(s)-1):
			out = append(out, "%24"...)
		default:
			if c == '?' {
				query = true
			}
			out = append(out, c)
		}
	}
	return string(out)
}

// RefMatch reports whether pat, in comparison form, matches a prefix of
// path (all of it with a final '$'), by a memoised recursion over
// (pattern byte, path byte). Without wildcards every byte is itself.
func RefMatch(pat, path string, wildcards bool) bool {
	anchored := false
	if wildcards && len(pat) > 0 && pat[len(pat)-1] == '$' {
		anchored, pat = true, pat[:len(pat)-1]
	}
	memo := make(map[[2]int]bool)
	var rec func(i, j int) bool
	rec = func(i, j int) bool {
		key := [2]int{i, j}
		if v, ok := memo[key]; ok {
			return v
		}
		var v bool
		switch {
		case i == len(pat):
			v = !anchored || j == len(path)
		case wildcards && pat[i] == '*':
			v = rec(i+1, j) || j < len(path) && rec(i, j+1)
		default:
			v = j < len(path) && path[j] == pat[i] && rec(i+1, j+1)
		}
		memo[key] = v
		return v
	}
	return rec(0, 0)
}
