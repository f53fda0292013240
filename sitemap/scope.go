package sitemap

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/sitetxt/sitetxt/grammar"
)

// scope is where a sitemap's URLs may lie ("Sitemap file location"): on
// the sitemap's own scheme, host and port and under its directory, or
// anywhere on a site whose robots.txt names the sitemap.
type scope struct {
	opts   *Options
	base   *url.URL // the sitemap's URL, nil when unknown
	origin string   // of base
	dir    string   // base's escaped path up to its last '/'
	// plainOrigin says origin is an http or https origin plainInScope
	// may compare URLs with.
	plainOrigin bool
	cross       map[string]bool
}

func newScope(o *Options) *scope {
	s := &scope{opts: o}
	if o.URL == "" {
		return s
	}
	u, err := url.Parse(o.URL)
	if err != nil || u.Host == "" {
		return s
	}
	s.base, s.origin = u, Origin(u)
	scheme, host, _ := strings.Cut(s.origin, "://")
	s.plainOrigin = (scheme == "http" || scheme == "https") && host != "" &&
		!strings.ContainsFunc(host, func(c rune) bool {
			return !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == ':' || c == '[' || c == ']')
		})
	p := u.EscapedPath()
	s.dir = p[:strings.LastIndexByte(p, '/')+1]
	if s.dir == "" {
		s.dir = "/"
	}
	return s
}

// crossed reports whether the robots.txt of o names the sitemap.
func (s *scope) crossed(o string) bool {
	if s.opts.Cross == nil {
		return false
	}
	if v, ok := s.cross[o]; ok {
		return v
	}
	v := s.opts.Cross(o)
	if s.cross == nil {
		s.cross = map[string]bool{}
	}
	if len(s.cross) < 1024 {
		s.cross[o] = v
	}
	return v
}

// maxLoc is the protocol's bound on a loc: "less than 2,048 characters".
const maxLoc = 2048

// loc checks a loc (or a feed's link) as written, where at says, and
// returns the URL to keep, whether it is kept, and whether it lies outside
// the sitemap's scope (kept only when Lenient). what names the field in
// messages ("loc", "link"); resolve lets a relative link resolve against
// the sitemap's URL (feeds); index says the file is a sitemap index, whose
// sitemaps must be on its own site, in any directory.
func (r *Reader) loc(raw string, at grammar.Pos, what string, resolve, index bool) (string, bool, bool) {
	s := r.scope
	v := strings.TrimSpace(raw)
	if v != raw {
		r.diag(grammar.Warning, "space", at, fmt.Sprintf("white space around the %s: removed", what))
	}
	if v == "" {
		r.diag(grammar.Error, "no-loc", at, fmt.Sprintf("the %s is empty: the entry is dropped (a URL is required)", what))
		return "", false, false
	}
	if len(v) >= maxLoc { // no more characters than bytes
		if n := utf8.RuneCountInString(v); n >= maxLoc {
			r.diag(grammar.Warning, "loc-too-long", at, fmt.Sprintf("the %s has %d characters (the protocol asks for less than 2,048): kept", what, n))
		}
	}
	if !resolve && !r.opts.noFast && s.plainInScope(v, index) {
		return v, true, false
	}
	u, err := url.Parse(v)
	if err == nil && resolve && s.base != nil && !u.IsAbs() {
		u = s.base.ResolveReference(u)
		v = u.String()
	}
	switch {
	case err != nil:
		r.diag(grammar.Error, "loc-invalid", at, fmt.Sprintf("the %s %q is not a URL (%v): the entry is dropped", what, short(v), unwrapURLError(err)))
		return "", false, false
	case (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		r.diag(grammar.Error, "loc-invalid", at, fmt.Sprintf("the %s %q is not an absolute http or https URL (the protocol asks for the full URL, protocol included): the entry is dropped", what, short(v)))
		return "", false, false
	}
	if strings.ContainsFunc(v, func(c rune) bool { return c <= ' ' || c >= 0x7f }) {
		r.diag(grammar.Warning, "loc-escape", at, fmt.Sprintf("the %s %q holds characters that must be percent-encoded (the protocol asks for URL-escaped URLs): kept as written", what, short(v)))
	}
	if s.base == nil {
		return v, true, false
	}
	o := Origin(u)
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if o == s.origin && (index || strings.HasPrefix(path, s.dir)) || s.crossed(o) {
		return v, true, false
	}
	var why string
	switch {
	case index:
		why = fmt.Sprintf("%q is on %s, not on the index's own site %s, and no robots.txt there names this index: a sitemap index may list only sitemaps of its own site", short(v), o, s.origin)
	case o != s.origin:
		why = fmt.Sprintf("%q is on %s, not on the sitemap's own %s, and no robots.txt there names this sitemap (Sitemap file location; Sitemaps & Cross Submits)", short(v), o, s.origin)
	default:
		why = fmt.Sprintf("%q is outside %s%s, the sitemap's directory, and this site's robots.txt does not name the sitemap (Sitemap file location)", short(v), s.origin, s.dir)
	}
	if r.opts.Lenient {
		r.diag(grammar.Error, "out-of-scope", at, why+": kept (Lenient)")
		return v, true, true
	}
	r.diag(grammar.Error, "out-of-scope", at, why+": the entry is dropped")
	return "", false, false
}

// plainInScope reports, without parsing v, whether v is a URL the checks
// below keep with nothing to report: the sitemap's own origin as Origin
// writes it (http or https, a host of letters, digits, '.', '-', ':',
// '[' and ']'), then a path and query of characters that need no
// escaping and valid %XX escapes (which url.Parse accepts, and whose
// EscapedPath is the path as written), in the sitemap's directory (or
// anywhere on its site, for an index). Any other v takes the full checks.
// It is most of a real sitemap's URLs, and a tenth of the cost of parsing
// them.
func (s *scope) plainInScope(v string, index bool) bool {
	if !s.plainOrigin || len(v) <= len(s.origin) || v[len(s.origin)] != '/' || v[:len(s.origin)] != s.origin {
		return false
	}
	rest := v[len(s.origin):]
	pathEnd := len(rest)
	for i := 0; i < len(rest); i++ {
		// Plain bytes four at a time: one test and one branch for four.
		for i+4 <= len(rest) && urlPlain[rest[i]]&urlPlain[rest[i+1]]&urlPlain[rest[i+2]]&urlPlain[rest[i+3]] != 0 {
			i += 4
		}
		if i == len(rest) {
			break
		}
		c := rest[i]
		switch {
		case urlPlain[c] != 0:
		case c == '%':
			if i+2 >= len(rest) || !isHex(rest[i+1]) || !isHex(rest[i+2]) {
				return false
			}
			i += 2
		case c == '?':
			pathEnd = min(pathEnd, i)
		default:
			return false
		}
	}
	return index || strings.HasPrefix(rest[:pathEnd], s.dir)
}

// urlPlain are the bytes a path may hold unescaped that url.URL's
// EscapedPath keeps as they are: RFC 3986's unreserved characters, its
// sub-delimiters, ':', '@' and '/' (1; else 0).
var urlPlain = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = 1, 1
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = 1
	}
	for _, c := range "-._~!$&'()*+,;=:@/" {
		t[c] = 1
	}
	return t
}()

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// short cuts a value for a message.
func short(s string) string {
	const max = 200
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}
