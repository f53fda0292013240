package robots

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"

	"github.com/sitetxt/sitetxt/robots/internal/match"
)

func FuzzMatch(f *testing.F) {
	seeds := [][2]string{
		{"/", "/"}, {"/*.php$", "/a.php"}, {"/*.php$", "/a.php?x"}, {"/a*b*c", "/aXbYc"},
		{"/*a*a*a$", "/aaaa"}, {"*", ""}, {"$", ""}, {"/a$b", "/a$b"}, {"**", "x"}, {"/*/x*$", "/a/x/"},
		{"/ab*ba$", "/aba"}, {"/*aa$", "/aaa"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		r := &Rule{}
		r.setPattern(pattern, true)
		want := pattern != "" && match.RefMatch(pattern, path, true)
		if got := r.match(path); got != want {
			t.Errorf("match(pattern %q, path %q) = %v, want %v", pattern, path, got, want)
		}
	})
}

func FuzzCompile(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /a*b$\nAllow: /a\n"), "FooBot", "/a/b")
	f.Add([]byte("useragent: foo\ndisalow /x\n\nUser-agent: *\nAllow: /d/index.html\nCrawl-delay: x\n"), "foo", "http://e.com/x?y#z")
	f.Add([]byte("\xef\xbb\xbfUser-agent: FooBot/2.1\nDisallow: /%7e%c3%a9\x00x\n"), "", "/~é")
	f.Add([]byte("User-agent: a\nUser-agent: *\nDisallow: /x*y$\nAllow: /x/index.html\n\nuser-agent: A\nallow: /xy\nUser-agent: b\nDisallow: /\n"), "a", "/x/")
	f.Add([]byte("Sitemap: x\nHost: h\nClean-param: a&b /p\nUser-agent: *\nRequest-rate: 1/5m\nVisit-time: 0000-2359\n"), "*", "example.com?a")
	f.Add([]byte("User-agent: *\vfoo\nDisallow: /a \x00b\nUser\x00-agent: x\nDisallow\v:\f/b\ndisallow /c\vd\n"), "x", "/a")
	f.Add([]byte("User-agent: x\fy\nDisallow: /\f\nAllow\v/p\nAllow: /q\x00 # c\n"), "x", "/p")
	f.Fuzz(func(t *testing.T, src []byte, agent, url string) {
		file := grammar.Parse("fuzz.txt", src, grammar.Options{})
		_ = Lint(file)
		for _, p := range Profiles {
			pol := Compile(file, p)
			d := pol.Decide(agent, url)
			if d.Allowed != pol.Allowed(agent, url) {
				t.Fatalf("%s: Decide and Allowed disagree on %q, %q", p, agent, url)
			}
			if (d.Rule != nil) != (d.Reason == ReasonRule) {
				t.Fatalf("%s: Decide(%q, %q) = %+v: rule and reason disagree", p, agent, url, d)
			}
			if d.Rule != nil && d.Rule.Allow != d.Allowed {
				t.Fatalf("%s: Decide(%q, %q) = %+v: the rule's directive is not the verdict", p, agent, url, d)
			}
			if p.desc().records {
				if got, want := groupLines(pol), refRecordGroups(file, p); got != want {
					t.Fatalf("%s: groups from the grammar's records %s, want %s (a line-by-line reading)\n%q", p, got, want, src)
				}
			}
			if p == RFC9309 && len(src) <= 2048 && len(url) <= 512 {
				if want := refRFCAllowed(file, agent, url); d.Allowed != want {
					t.Fatalf("rfc9309: Allowed(%q, %q) = %v, want %v (reference)\n%q", agent, url, d.Allowed, want, src)
				}
			}
			if p == Google && len(src) <= 2048 && len(url) <= 512 { // the reference is quadratic
				if want := refGoogle(src, agent, url); d.Allowed != want {
					t.Fatalf("google: Allowed(%q, %q) = %v, want %v (reference)\n%q", agent, url, d.Allowed, want, src)
				}
			}
		}
	})
}

// FuzzDecide is the matcher's fuzzer: it holds every decision of the
// "*" agent under every profile to the reference matcher
// (match.Reference, the plain byte-at-a-time reading of the profile's
// rules), through Decide (which walks a URL's path down the rule index
// before cutting its fragment off or testing it for bytes to normalise),
// through the long way (the path found, put in comparison form and
// decided) and through an index built with thresholds low enough that
// every speed structure is reached (the key scans, their two-byte bitmap,
// the dense pass, the child tables) or high enough that none is.
func FuzzDecide(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /a$\nAllow: /a%2fb\nDisallow: /*x*y\n"), "https://e.com/a#b")
	f.Add([]byte("User-agent: *\nDisallow: /%7ea\nDisallow: /a*$\nAllow: /b$\n"), "http://e.com/~a?x#y")
	f.Add([]byte("User-agent: *\nDisallow: /\nAllow: /robots\n"), "/robots%2Etxt")
	f.Add([]byte("User-agent: *\nDisallow: /r\n"), "//e.com/robots.txt#x")
	f.Add([]byte("User-agent: *\nDisallow: /a*b\nDisallow: /a/*.c$\nDisallow: /*%23\n"), "http://e.com/a/x.c#b")
	f.Add([]byte("User-agent: *\nDisallow: /a%23b\nAllow: /a#\n"), "/a%23b")
	f.Add([]byte("User-agent: *\nDisallow: /*$\nDisallow: /a/\n"), "http://e.com#x/a/")
	f.Fuzz(func(t *testing.T, src []byte, url string) {
		if len(src) > 4096 || len(url) > 1024 {
			// The reference matcher is rules x pattern x path: larger inputs
			// stall a fuzz worker past the fuzzer's deadline and find nothing
			// the smaller ones do not.
			t.Skip("input larger than the reference matcher is fuzzed at")
		}
		file := grammar.Parse("fuzz.txt", src, grammar.Options{})
		tune := match.Tuning{MinScan: uint32(1 + 7*(len(src)%2)), MinDense: 1 + 511*(len(url)%2)}
		for _, p := range Profiles {
			a := Compile(file, p).Agent("*")
			raw, slash := match.PathOf(url)
			path := string(a.appendPath(nil, raw, slash))
			got := a.Decide(url)
			if want := a.decidePath(path); got != want {
				t.Fatalf("%s: Decide(%q) = %+v, want %+v (the path put in comparison form first)\n%q", p, url, got, want, src)
			}
			want := refRule(a, url)
			if got.Rule != want && got.Reason != ReasonRobotsTxt {
				t.Fatalf("%s: Decide(%q).Rule = %v, want %v (the reference matcher)\n%q", p, url, got.Rule, want, src)
			}
			if len(a.rules) > 0 {
				if k := match.BuildTuned(a.patterns(), tune).Lookup(path); ruleAt(a, k) != ruleAt(a, a.rankPath(path)) && path != "/robots.txt" {
					t.Fatalf("%s: Lookup(%q) tuned %+v = %v, want %v\n%q", p, path, tune, ruleAt(a, k), ruleAt(a, a.rankPath(path)), src)
				}
			}
		}
	})
}

// refRule returns the rule of a that the reference matcher says decides
// url, or nil.
func refRule(a *Agent, url string) *Rule {
	d := a.profile.desc()
	rd := match.Reading{Percent: match.Percent(d.percent), Wildcards: d.wildcards, FirstMatch: d.firstMatch}
	rules := make([]match.RefRule, len(a.rules))
	for i, r := range a.rules {
		rules[i] = match.RefRule{Pattern: r.Pattern, Allow: r.Allow}
	}
	if i := match.Reference(rd, rules, url); i >= 0 {
		return a.rules[i]
	}
	return nil
}

// ruleAt returns the rule of rank k, or nil.
func ruleAt(a *Agent, k uint32) *Rule {
	if int(k) < len(a.rules) {
		return a.rules[k]
	}
	return nil
}

// refGoogle is a slow re-statement of Google's parser and matcher, written
// from robots.cc and working on the file's bytes, not on package grammar's
// lines: its line splitting (LF, CR, CRLF; a BOM or BOM prefix skipped at
// the start; lines cut at 16,663 bytes), its line handling (a C string: a
// NUL ends it; '#' starts a comment; trimmed of ASCII white space, which
// takes in vertical tab and form feed; "key: value", or exactly two words
// separated by spaces or tabs), its key spellings, and its matcher's
// state: per line, the best priority of the specific and global groups.
func refGoogle(body []byte, agent, url string) bool {
	path, slash := match.PathOf(url)
	if slash {
		path = "/" + path
	}
	st := refGoogleState{agent: agent, path: path, allowS: -1, disS: -1, allowG: -1, disG: -1}
	const bom = "\xEF\xBB\xBF"
	var line []byte
	nb, lastCR := 0, false
	for _, ch := range body {
		if nb < len(bom) {
			if ch == bom[nb] {
				nb++
				continue
			}
			nb = len(bom)
		}
		if ch != '\n' && ch != '\r' {
			if len(line) < 2083*8-1 {
				line = append(line, ch)
			}
			continue
		}
		if !(len(line) == 0 && lastCR && ch == '\n') {
			st.line(string(line))
		}
		line = line[:0]
		lastCR = ch == '\r'
	}
	st.line(string(line))
	return st.allowed()
}

type refGoogleState struct {
	agent, path                  string
	allowS, disS, allowG, disG   int
	global, specific, ever, sepa bool
}

func refStrip(s string) string {
	isWS := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' }
	for len(s) > 0 && isWS(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isWS(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

func refHasPrefixFold(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if len(s) >= len(p) && asciiLower(s[:len(p)]) == p {
			return true
		}
	}
	return false
}

func (st *refGoogleState) line(s string) {
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	s = refStrip(s)
	sep := strings.IndexByte(s, ':')
	if sep < 0 {
		sep = strings.IndexAny(s, " \t")
		if sep < 0 {
			return
		}
		rest := s[sep:]
		for len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\t') {
			rest = rest[1:]
		}
		if strings.ContainsAny(rest, " \t") {
			return
		}
	}
	key, val := refStrip(s[:sep]), refStrip(s[sep+1:])
	if key == "" {
		return
	}
	switch {
	case refHasPrefixFold(key, "user-agent", "useragent", "user agent"):
		st.userAgent(val)
	case refHasPrefixFold(key, "allow"):
		st.rule(true, match.RefNorm(match.Google, val, false))
	case refHasPrefixFold(key, "disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"):
		st.rule(false, match.RefNorm(match.Google, val, false))
	}
}

func (st *refGoogleState) userAgent(v string) {
	if st.sepa {
		st.specific, st.global, st.sepa = false, false, false
	}
	if len(v) >= 1 && v[0] == '*' && (len(v) == 1 || strings.IndexByte(" \t\n\v\f\r", v[1]) >= 0) {
		st.global = true
		return
	}
	n := 0
	for n < len(v) && (v[n] >= 'a' && v[n] <= 'z' || v[n] >= 'A' && v[n] <= 'Z' || v[n] == '-' || v[n] == '_') {
		n++
	}
	if asciiLower(v[:n]) == asciiLower(st.agent) {
		st.specific, st.ever = true, true
	}
}

func (st *refGoogleState) rule(allow bool, pat string) {
	if !st.global && !st.specific {
		return
	}
	st.sepa = true
	if !match.RefMatch(pat, st.path, true) {
		if i := strings.LastIndexByte(pat, '/'); allow && i >= 0 && strings.HasPrefix(pat[i:], "/index.htm") {
			st.rule(true, pat[:i+1]+"$")
		}
		return
	}
	p := len(pat)
	switch {
	case st.specific && allow:
		st.allowS = max(st.allowS, p)
	case st.specific:
		st.disS = max(st.disS, p)
	case allow:
		st.allowG = max(st.allowG, p)
	default:
		st.disG = max(st.disG, p)
	}
}

func (st *refGoogleState) allowed() bool {
	if st.allowS > 0 || st.disS > 0 {
		return st.disS <= st.allowS
	}
	if st.ever {
		return true
	}
	if st.allowG > 0 || st.disG > 0 {
		return st.disG <= st.allowG
	}
	return true
}

// refRFCAllowed is a slow re-statement of RFC 9309 as this package reads
// it: groups of User-agent lines and the rules after them (misspelled and
// colon-less lines are unknown), the groups naming the crawler's product
// token or else the "*" groups, the longest matching pattern after
// percent-normalisation, Allow on ties, /robots.txt always allowed.
func refRFCAllowed(f *grammar.File, agent, url string) bool {
	raw, slash := match.PathOf(url)
	path := string(match.NormRFC(nil, raw, true))
	if slash {
		path = "/" + path
	}
	if path == "/robots.txt" {
		return true
	}
	type group struct {
		agents []string
		rules  []*grammar.Line
	}
	var groups []*group
	var cur *group
	for _, l := range f.Lines {
		known := !l.Typo && !l.NoColon
		switch {
		case l.Kind == grammar.AgentLine && known:
			if cur == nil || len(cur.rules) > 0 {
				cur = &group{}
				groups = append(groups, cur)
			}
			cur.agents = append(cur.agents, l.Value)
		case l.Kind.IsRule() && known && cur != nil:
			cur.rules = append(cur.rules, l)
		}
	}
	tok := ProductToken(agent)
	if strings.TrimSpace(agent) == "*" {
		tok = ""
	}
	pick := func(want func(v string) bool) []*group {
		var out []*group
		for _, g := range groups {
			for _, v := range g.agents {
				if want(v) {
					out = append(out, g)
					break
				}
			}
		}
		return out
	}
	star := func(v string) bool { return len(v) > 0 && v[0] == '*' && (len(v) == 1 || v[1] == ' ' || v[1] == '\t') }
	chosen := pick(func(v string) bool {
		if tok == "" || star(v) {
			return false
		}
		words := strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == '\t' })
		for _, w := range words {
			if name, cut := CrawlerName(w); cut || name == "" {
				words = words[:1] // not a list of bare names: the first name only
				break
			}
		}
		for _, w := range words {
			if name, _ := CrawlerName(w); name != "" && asciiLower(name) == asciiLower(tok) {
				return true
			}
		}
		return false
	})
	if len(chosen) == 0 {
		chosen = pick(star)
	}
	var rules []match.RefRule
	for _, g := range chosen {
		for _, l := range g.rules {
			rules = append(rules, match.RefRule{Pattern: l.Value, Allow: l.Kind == grammar.AllowLine})
		}
	}
	k := match.Reference(match.Reading{Percent: match.RFC, Wildcards: true}, rules, url)
	return k < 0 || rules[k].Allow
}

func FuzzExtFieldOf(f *testing.F) {
	for _, s := range []string{"Sitemap", "site-map", "sitemaps", "Crawl-Delay", "clean-param", "HOST", "ho\u017ft", "Reque\u017ft-rate", "Content-\u017fignal", "Content-Usage", "content-signal", "License", "visit-time", "request-rate", "x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		for _, p := range Profiles {
			want := fieldOther
			if isSitemapField(p, name) {
				want = fieldSitemap
			} else {
				for g := fieldCrawlDelay; g < nFields; g++ {
					if strings.EqualFold(name, fieldNames[g]) {
						want = g
					}
				}
			}
			if got := extFieldOf(p, name); got != want {
				t.Errorf("%s: extFieldOf(%q) = %d, want %d", p, name, got, want)
			}
		}
	})
}

// FuzzHasGoogleControl holds hasGoogleControl, which tests a word at a
// time, to its definition.
func FuzzHasGoogleControl(f *testing.F) {
	for _, s := range []string{"", "a\x00", "Disallow: /a\vb", "Allow: /abcdefgh\f", "User-agent: *\t#x", "\x0a\x0d\x0b", "abcdefghijklmnop\x00q"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := strings.ContainsAny(s, "\x00\v\f")
		if got := hasGoogleControl(s); got != want {
			t.Errorf("hasGoogleControl(%q) = %v, want %v", s, got, want)
		}
	})
}

// FuzzCheckAbsURL holds checkAbsURL, which finds the scheme from the
// first ':' and tests eight bytes at a time for white space, to its
// definition: the first "://" after a scheme, a host before any '/', '?'
// or '#', and the first byte at most ' ' or DEL.
func FuzzCheckAbsURL(f *testing.F) {
	for _, s := range []string{"", "https://example.com/sitemap.xml", "a:b://c", "://x", "http:///x", "http://?", "h://a b", "http://example.com/\x7f", "x1+.-://h", "1x://h", "http:/x", "http://h/abcdefghijklmno\tp",
		// White space or a control byte in a word the eight-byte test reads,
		// not in the last few bytes the byte loop reads.
		"https://example.com/a b/c", "http://exa\x7fmple.com/sitemap.xml", "http://h/\x00abcdefghijk"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		got, want := checkAbsURL(v), refCheckAbsURL(v)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("checkAbsURL(%q) = %v, want %v", v, got, want)
		}
	})
}

func refCheckAbsURL(v string) error {
	if v == "" {
		return fmt.Errorf("empty")
	}
	i := strings.Index(v, "://")
	if i <= 0 || !isScheme(v[:i]) {
		return fmt.Errorf("missing scheme")
	}
	rest := v[i+3:]
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		rest = rest[:j]
	}
	if rest == "" {
		return fmt.Errorf("missing host")
	}
	if k := strings.IndexFunc(v, func(r rune) bool { return r <= ' ' || r == 0x7f }); k >= 0 {
		return fmt.Errorf("white space or control character at byte %d", k+1)
	}
	return nil
}

// groupLines lists the lines of a policy's groups: "a1,a2,:r1,r2,;...".
func groupLines(pol *Policy) string {
	var gs [][2][]int
	for _, g := range pol.Groups() {
		var ag [2][]int
		for _, l := range g.AgentLines {
			ag[0] = append(ag[0], l.Pos.Line)
		}
		for _, r := range g.Rules {
			ag[1] = append(ag[1], r.Line.Pos.Line)
		}
		gs = append(gs, ag)
	}
	return formatGroups(gs)
}

func formatGroups(gs [][2][]int) string {
	var b strings.Builder
	for _, g := range gs {
		for _, n := range g[0] {
			fmt.Fprintf(&b, "%d,", n)
		}
		b.WriteByte(':')
		for _, n := range g[1] {
			fmt.Fprintf(&b, "%d,", n)
		}
		b.WriteByte(';')
	}
	return b.String()
}

// refRecordGroups groups a file's lines line by line as the 1994 and
// 1996/97 texts do, without the grammar's records: a blank line ends a
// record, a User-agent line after a rule the profile reads starts one, and
// a rule outside every record is ignored. Only lines in the BNF's form
// count; the profile says whether Allow lines are rules.
func refRecordGroups(f *grammar.File, p Profile) string {
	var gs [][2][]int
	in, sawRule := false, false
	for _, l := range f.Lines {
		bnf := !l.Typo && !l.NoColon
		switch {
		case l.Kind == grammar.Blank:
			in = false
		case l.Kind == grammar.AgentLine && bnf:
			if !in || sawRule {
				gs = append(gs, [2][]int{})
				in, sawRule = true, false
			}
			gs[len(gs)-1][0] = append(gs[len(gs)-1][0], l.Pos.Line)
		case bnf && in && (l.Kind == grammar.DisallowLine || l.Kind == grammar.AllowLine && p.desc().allow):
			sawRule = true
			gs[len(gs)-1][1] = append(gs[len(gs)-1][1], l.Pos.Line)
		}
	}
	return formatGroups(gs)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
