package mobileagent

import (
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
)

// refLookup is the slow reference resolution: every valid line in file
// order; the longest path that is a prefix of the URL's path wins, and a
// later line wins a tie.
func refLookup(rules []*Rule, url string) *Rule {
	p := urlPath(url)
	var best *Rule
	for _, r := range rules {
		if !strings.HasPrefix(r.Path, "/") || !strings.HasPrefix(p, r.Path) {
			continue
		}
		if best == nil || len(r.Path) >= len(best.Path) {
			best = r
		}
	}
	return best
}

func FuzzTable(f *testing.F) {
	f.Add(draftExample, "http://www.fict.org/home/user2/index.html")
	f.Add("Mobile-agent-server: / none\nMobile-agent-server: /dir1 atp://www.fict.org:544\nMobile-agent-server: /dir1/dir2 atp://www.fict.org:543\n", "/dir1x")
	f.Add("Mobile-agent-server: /a atp://one:1\nMobile-agent-server: /a none\nMobile-agent-server: /a/b atp://u@h:2;x?y\n", "/a/b?c")
	f.Add("Mobile-agent-server: /a%2 atp://h:1 x\nMobile-agent-server:\nmobile-agent-servers: / a://b\r\nMobile-agent-server / none", "http://h")
	f.Add("User-agent: *\nMobile-agent-server: /~x\tATP://h:99999 # c\nDisallow: /\n", "//x")
	f.Fuzz(func(t *testing.T, src, url string) {
		file := grammar.ParseString("fuzz.txt", src, grammar.Options{})
		tab := Compile(file)
		got := tab.Lookup(url)
		want := refLookup(tab.Rules(), url)
		if got.Rule != want {
			t.Fatalf("Lookup(%q) decided by %+v, reference by %+v", url, got.Rule, want)
		}
		if want != nil && got.Server != want.Server || want == nil && got.Server != nil {
			t.Fatalf("Lookup(%q).Server = %v, want %v", url, got.Server, want)
		}

		// Every rule is a valid line of the file, made of its two words.
		ruleOf := make(map[*grammar.Line]*Rule)
		for _, r := range tab.Rules() {
			ruleOf[r.Line] = r
			if r.Line.Kind != grammar.MobileAgentRec {
				t.Fatalf("rule from a %s line", r.Line.Kind)
			}
			words := strings.FieldsFunc(r.Line.Value, func(c rune) bool { return c == ' ' || c == '\t' })
			if len(words) != 2 || words[0] != r.Path || words[1] != r.Target() {
				t.Fatalf("rule %q %q from value %q", r.Path, r.Target(), r.Line.Value)
			}
			if _, _, msg := checkPath(r.Path); msg != "" {
				t.Fatalf("rule path %q: %s", r.Path, msg)
			}
			if s := r.Server; s != nil {
				if s.URL != r.Target() || !strings.Contains(s.URL, "://") || s.Host == "" || !strings.Contains(s.NetLoc, s.Host) {
					t.Fatalf("bad server %+v", s)
				}
			} else if !strings.EqualFold(r.Target(), "none") {
				t.Fatalf("rule with no server and target %q", r.Target())
			}
		}
		// Every diagnostic points into its line; every Mobile-agent-server
		// line with a colon is a rule or has an error.
		errLines := make(map[int]bool)
		for _, d := range tab.Diagnostics() {
			if d.Range.Start.Line < 1 || d.Range.Start.Line > len(file.Lines) {
				t.Fatalf("diagnostic %v: line out of range", d)
			}
			l := file.Lines[d.Range.Start.Line-1]
			s, e := d.Range.Start, d.Range.End
			if s.Offset < l.Pos.Offset || e.Offset > l.Pos.Offset+len(l.Raw) || e.Offset < s.Offset ||
				s.Column-1 != s.Offset-l.Pos.Offset || e.Line != s.Line {
				t.Fatalf("diagnostic %v: range %v outside line %d %q", d, d.Range, l.Pos.Line, l.Raw)
			}
			if d.Code == "" || d.Summary == "" || strings.HasSuffix(d.Summary, ".") {
				t.Fatalf("diagnostic %+v: bad code or summary", d)
			}
			if d.Severity == grammar.Error {
				errLines[s.Line] = true
			}
		}
		for _, l := range file.Lines {
			if l.Kind == grammar.MobileAgentRec && !l.NoColon && ruleOf[l] == nil && !errLines[l.Pos.Line] {
				t.Fatalf("line %d %q is neither a rule nor an error", l.Pos.Line, l.Raw)
			}
		}
	})
}
