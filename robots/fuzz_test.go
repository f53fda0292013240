package robots

import (
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
		}
	})
}
