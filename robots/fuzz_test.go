package robots

import (
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
)

// refMatch is the obviously correct matcher FuzzMatch compares against:
// a memoised recursion over (pattern index, path index). pattern matches
// a prefix of path; '*' matches any run of bytes; a final '$' requires the
// end of path.
func refMatch(pattern, path string) bool {
	anchored := len(pattern) > 0 && pattern[len(pattern)-1] == '$'
	if anchored {
		pattern = pattern[:len(pattern)-1]
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
		case i == len(pattern):
			v = !anchored || j == len(path)
		case pattern[i] == '*':
			v = rec(i+1, j) || (j < len(path) && rec(i, j+1))
		default:
			v = j < len(path) && path[j] == pattern[i] && rec(i+1, j+1)
		}
		memo[key] = v
		return v
	}
	return rec(0, 0)
}

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
		want := pattern != "" && refMatch(pattern, path)
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
			if p == RFC9309 && len(src) <= 2048 && len(url) <= 512 {
				if want := refRFCAllowed(file, agent, url); d.Allowed != want {
					t.Fatalf("rfc9309: Allowed(%q, %q) = %v, want %v (reference)\n%q", agent, url, d.Allowed, want, src)
				}
			}
			if p == Google && len(src) <= 2048 && len(url) <= 512 { // the reference is quadratic
				if want := refGoogleAllowed(file, agent, url); d.Allowed != want {
					t.Fatalf("google: Allowed(%q, %q) = %v, want %v (reference)\n%q", agent, url, d.Allowed, want, src)
				}
			}
		}
	})
}

// refGoogleAllowed is a slow re-statement of Google's matcher, line by
// line as Google's parser streams them: per line, the best priority of the
// specific and global groups, as its RobotsMatcher keeps them.
func refGoogleAllowed(f *grammar.File, agent, url string) bool {
	path, slash := pathOf(url)
	if slash {
		path = "/" + path
	}
	allowS, disS, allowG, disG := -1, -1, -1, -1
	var seenAny, seenSep, seenGlobal, seenSpecific, everSpecific bool
	prio := func(pat string) int {
		if refMatch(pat, path) {
			return len(pat)
		}
		return -1
	}
	for _, l := range f.Lines {
		switch l.Kind {
		case grammar.AgentLine:
			if seenSep {
				seenSpecific, seenGlobal, seenSep = false, false, false
			}
			seenAny = true
			v := value(Google, l)
			if len(v) > 0 && v[0] == '*' && (len(v) == 1 || v[1] == ' ' || v[1] == '\t') {
				seenGlobal = true
			} else if tok := fileToken(v); len(tok) == len(agent) && strings.ToLower(tok) == asciiLower(agent) {
				seenSpecific, everSpecific = true, true
			}
		case grammar.AllowLine, grammar.DisallowLine:
			if !seenAny {
				continue
			}
			seenSep = true
			pat := escapeGoogle(value(Google, l))
			p := prio(pat)
			allow := l.Kind == grammar.AllowLine
			if allow && p < 0 {
				if i := strings.LastIndexByte(pat, '/'); i >= 0 && strings.HasPrefix(pat[i:], "/index.htm") {
					p = prio(pat[:i+1] + "$")
				}
			}
			switch {
			case seenSpecific && allow:
				allowS = max(allowS, p)
			case seenSpecific:
				disS = max(disS, p)
			case seenGlobal && allow:
				allowG = max(allowG, p)
			case seenGlobal:
				disG = max(disG, p)
			}
		}
	}
	if allowS > 0 || disS > 0 {
		return disS <= allowS
	}
	if everSpecific {
		return true
	}
	if allowG > 0 || disG > 0 {
		return disG <= allowG
	}
	return true
}

// refRFCAllowed is a slow re-statement of RFC 9309 as this package reads
// it: groups of User-agent lines and the rules after them (misspelled and
// colon-less lines are unknown), the groups naming the crawler's product
// token or else the "*" groups, the longest matching pattern after
// percent-normalisation, Allow on ties, /robots.txt always allowed.
func refRFCAllowed(f *grammar.File, agent, url string) bool {
	raw, slash := pathOf(url)
	path := string(normRFC(nil, raw, true))
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
	best, allowed := -1, true
	for _, g := range chosen {
		for _, l := range g.rules {
			if l.Value == "" {
				continue
			}
			pat := string(normRFC(nil, l.Value, false))
			if !refMatch(pat, path) {
				continue
			}
			allow := l.Kind == grammar.AllowLine
			if len(pat) > best || len(pat) == best && allow {
				best, allowed = len(pat), allow
			}
		}
	}
	return allowed
}

// refPathOf is pathOf as first written, step by step after Google's
// GetPathParamsQuery: FuzzPathOf holds the faster pathOf to it.
func refPathOf(url string) (path string, slash bool) {
	start := 0
	if len(url) >= 2 && url[0] == '/' && url[1] == '/' {
		start = 2
	}
	early := indexAny3(url, start)
	proto := strings.Index(url[start:], "://")
	if proto >= 0 {
		proto += start
	}
	if early >= 0 && (proto < 0 || early < proto) {
		proto = -1
	}
	if proto < 0 {
		proto = start
	} else {
		proto += 3
	}
	ps := indexAny3(url, proto)
	if ps < 0 {
		return "/", false
	}
	end := len(url)
	if h := strings.IndexByte(url[start:], '#'); h >= 0 {
		h += start
		if h < ps {
			return "/", false
		}
		end = h
	}
	if url[ps] != '/' {
		return url[ps:end], true
	}
	return url[ps:end], false
}

func FuzzPathOf(f *testing.F) {
	for _, u := range []string{"", "/", "//", "http://a/b", "http://a", "//a/b?c#d", "a#b://c/d", "x:/y", "http:/a", "a://b?c", "?x", ";x", "http://a#b/c", "://", "a:/", ":/"} {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, url string) {
		p, s := pathOf(url)
		q, r := refPathOf(url)
		if p != q || s != r {
			t.Errorf("pathOf(%q) = %q, %v, want %q, %v", url, p, s, q, r)
		}
	})
}
