package robots

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/slowtest"

	"github.com/sitetxt/sitetxt/robots/internal/match"
)

func compileString(src string, p Profile) *Policy {
	return Compile(grammar.ParseString("robots.txt", src, grammar.Options{}), p)
}

// check is one Allowed question and its answer.
type check struct {
	agent, url string
	want       bool
}

func runChecks(t *testing.T, pol *Policy, cs []check) {
	t.Helper()
	for _, c := range cs {
		if got := pol.Allowed(c.agent, c.url); got != c.want {
			d := pol.Decide(c.agent, c.url)
			t.Errorf("%s: Allowed(%q, %q) = %v, want %v (%s)", pol.Profile(), c.agent, c.url, got, c.want, d)
		}
	}
}

func TestParseProfile(t *testing.T) {
	t.Parallel()
	for _, p := range Profiles {
		got, err := ParseProfile(strings.ToUpper(p.String()))
		if err != nil || got != p {
			t.Errorf("ParseProfile(%q) = %v, %v, want %v", strings.ToUpper(p.String()), got, err, p)
		}
	}
	if _, err := ParseProfile("rfc"); err == nil {
		t.Errorf("ParseProfile(%q) succeeded, want an error", "rfc")
	}
}

// TestDraftMatchingTables runs both drafts' "Record Path / URL path /
// Matches" tables (1996 section 3.2.2 and the 1997 revision in
// datatxt-draft.txt section 3.2.2) under Draft.
func TestDraftMatchingTables(t *testing.T) {
	t.Parallel()
	tables := map[string][]struct {
		record, path string
		match        bool
	}{
		"1997": {
			{"/tmp", "/tmp", true},
			{"/tmp", "/tmp.html", true},
			{"/tmp", "/tmp/a.html", true},
			{"/tmp/", "/tmp", false},
			{"/tmp/", "/tmp/", true},
			{"/tmp/", "/tmp/a.html", true},
			{"/a%3cd.html", "/a%3cd.html", true},
			{"/a%3Cd.html", "/a%3cd.html", true},
			{"/a%3cd.html", "/a%3Cd.html", true},
			{"/a%3Cd.html", "/a%3Cd.html", true},
			{"/a%2fb.html", "/a%2fb.html", true},
			{"/a%2fb.html", "/a/b.html", false},
			{"/a/b.html", "/a%2fb.html", false},
			{"/a/b.html", "/a/b.html", true},
			{"/%7ejoe/index.html", "/~joe/index.html", true},
			{"/~joe/index.html", "/%7Ejoe/index.html", true},
		},
		"1996": {
			{"/tmp", "/tmp", true},
			{"/tmp", "/tmp.html", true},
			{"/tmp", "/tmp/a.html", true},
			{"/tmp/", "/tmp", false},
			{"/tmp/", "/tmp/", true},
			{"/tmp/", "/tmp/a.html", true},
			{"/a%3cd.html", "/a%3cd.html", true},
			{"/a%3Cd.html", "/a%3cd.html", true},
			{"/a%3cd.html", "/a%3Cd.html", true},
			{"/a%3cd.html", "/a%3cd.html", true},
			{"/a%2fb.html", "/a%2fb.html", true},
			{"/a%2fb.html", "/a%2Fb.html", true},
			{"/a%2fb.html", "/a/b.html", false},
			{"/%7ejoe/index.html", "/~joe/index.html", true},
			{"/~joe/index.html", "/%7Ejoe/index.html", true},
		},
	}
	for name, rows := range tables {
		t.Run(name, func(t *testing.T) {
			for _, r := range rows {
				pol := compileString("User-agent: *\nDisallow: "+r.record+"\n", Draft)
				if got := pol.Allowed("bot", r.path); got != !r.match {
					t.Errorf("record %q: Allowed(%q, %q) = %v, want %v", r.record, "bot", r.path, got, !r.match)
				}
			}
		})
	}
}

// fictMatrix is the example matrix of datatxt-draft.txt section 4: for
// each URL, whether unhipbot, webcrawler & excite, and any other robot may
// fetch it.
var fictMatrix = []struct {
	url                      string
	unhip, webcrawler, other bool
}{
	{"http://www.fict.org/", false, true, false},
	{"http://www.fict.org/index.html", false, true, false},
	{"http://www.fict.org/robots.txt", true, true, true},
	{"http://www.fict.org/server.html", false, true, true},
	{"http://www.fict.org/services/fast.html", false, true, true},
	{"http://www.fict.org/services/slow.html", false, true, true},
	{"http://www.fict.org/orgo.gif", false, true, false},
	{"http://www.fict.org/org/about.html", false, true, true},
	{"http://www.fict.org/org/plans.html", false, true, false},
	{"http://www.fict.org/%7Ejim/jim.html", false, true, false},
	{"http://www.fict.org/%7Emak/mak.html", false, true, true},
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "robots", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFictOrgMatrix runs the fict.org matrix under Draft, where it comes
// from, and under RFC9309, which gives the same answers.
func TestFictOrgMatrix(t *testing.T) {
	t.Parallel()
	src := readTestdata(t, "fict.org.txt")
	for _, p := range []Profile{Draft, RFC9309} {
		t.Run(p.String(), func(t *testing.T) {
			pol := compileString(src, p)
			for _, row := range fictMatrix {
				runChecks(t, pol, []check{
					{"UnhipBot/0.1", row.url, row.unhip},
					{"WebCrawler/3.0", row.url, row.webcrawler},
					{"Excite/1.0", row.url, row.webcrawler},
					{"OtherBot/1.0", row.url, row.other},
				})
			}
		})
	}
}

// TestNoRobotsExamples runs the 1994 standard's three examples.
func TestNoRobotsExamples(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file   string
		checks []check
	}{
		{"1994-site.com.txt", []check{
			{"anybot", "/cyberworld/map/index.html", false},
			{"anybot", "/tmp/x", false},
			{"anybot", "/tmp", true},
			{"anybot", "/index.html", true},
		}},
		{"1994-cybermapper.txt", []check{
			{"anybot", "/cyberworld/map/index.html", false},
			{"cybermapper", "/cyberworld/map/index.html", true},
			{"CyberMapper/1.0", "/cyberworld/map/", true},
		}},
		{"1994-go-away.txt", []check{
			{"anybot", "/", false},
			{"anybot", "/robots.txt", false},
			{"anybot", "/x/y", false},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			runChecks(t, compileString(readTestdata(t, tt.file), NoRobots), tt.checks)
		})
	}
}

// Test1996WebcrawlerExample runs the 1996 draft's record example under Draft
// (first match: the Allow before the Disallow decides).
func Test1996WebcrawlerExample(t *testing.T) {
	t.Parallel()
	pol := compileString(readTestdata(t, "1996-webcrawler-infoseek.txt"), Draft)
	runChecks(t, pol, []check{
		{"webcrawler", "/tmp/ok.html", true},
		{"InfoSeek Robot 1.0", "/tmp/ok.html", true},
		{"infoseek", "/tmp/other.html", false},
		{"infoseek", "/user/foo/bar", false},
		{"infoseek", "/user/fo", true},
		{"otherbot", "/tmp", true},
	})
}

// TestRFC9309 covers RFC 9309's rules one by one.
func TestRFC9309(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		checks    []check
	}{
		{"longest match wins", "User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /a/b/c\n", []check{
			{"x", "/a", false}, {"x", "/a/b", true}, {"x", "/a/b/c", false}, {"x", "/b", true},
		}},
		{"allow wins ties", "User-agent: *\nDisallow: /page\nAllow: /page\n", []check{
			{"x", "/page", true},
		}},
		{"wildcards", "User-agent: *\nDisallow: /*.php$\nDisallow: /fish*\nDisallow: /*/private/\n", []check{
			{"x", "/index.php", false}, {"x", "/index.php?x=1", true}, {"x", "/fishheads", false},
			{"x", "/a/private/b", false}, {"x", "/private/", true}, {"x", "/Fish", true},
		}},
		{"exact token, case-insensitive, else *", "User-agent: FooBot\nDisallow: /foo\n\nUser-agent: *\nDisallow: /\n", []check{
			{"foobot", "/bar", true}, {"FOOBOT", "/foo", false}, {"FooBot/2.1 (+https://foo.example/bot)", "/foo", false},
			{"FooBotX", "/bar", false}, {"Foo", "/bar", false}, {"*", "/bar", false},
		}},
		{"groups merged", "User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /z\n\nUser-agent: a\nDisallow: /y\n", []check{
			{"a", "/x", false}, {"a", "/y", false}, {"a", "/z", true}, {"b", "/x", true},
		}},
		{"blank lines do not end groups", "User-agent: a\n\nDisallow: /x\n", []check{{"a", "/x", false}}},
		{"several agents share a group", "User-agent: a\nUser-agent: b\nDisallow: /x\n", []check{{"a", "/x", false}, {"b", "/x", false}, {"c", "/x", true}}},
		{"unreserved escapes decoded", "User-agent: *\nDisallow: /%7Ejoe\nDisallow: /a%2fb\n", []check{
			{"x", "/~joe/x", false}, {"x", "/%7ejoe", false}, {"x", "/a/b", true}, {"x", "/a%2Fb", false},
		}},
		{"non-ASCII compared encoded", "User-agent: *\nDisallow: /føø\n", []check{
			{"x", "/føø", false}, {"x", "/f%C3%B8%C3%B8", false}, {"x", "/f%c3%b8%c3%b8/x", false}, {"x", "/foo", true},
		}},
		{"robots.txt implicitly allowed", "User-agent: *\nDisallow: /\n", []check{
			{"x", "/robots.txt", true}, {"x", "http://example.com/robots.txt", true}, {"x", "/robots.txt2", false},
			{"x", "http://example.com/rob%6Fts.txt", true}, {"x", "http://example.com/%72obots.txt", true},
			{"x", "http://example.com/robots.txt#top", true}, {"x", "http://example.com/robotsXtxt", false},
			{"x", "http://example.com/rob%6Fts.txt?x", false}, {"x", "http://example.com/r/robots.txt", false},
		}},
		{"rules before any User-agent ignored", "Disallow: /\nUser-agent: *\nDisallow: /x\n", []check{
			{"x", "/", true}, {"x", "/x", false},
		}},
		{"empty disallow allows", "User-agent: *\nDisallow:\n", []check{{"x", "/", true}}},
		{"no group applies", "User-agent: a\nDisallow: /\n", []check{{"b", "/", true}, {"a", "/", false}}},
		{"query and fragment", "User-agent: *\nDisallow: /a?b\n", []check{
			{"x", "http://e.com/a?b=1#frag", false}, {"x", "http://e.com/a#?b", true},
		}},
		{"typos are unknown fields", "User-agent: *\nDisalow: /x\nDisallow /y\n", []check{{"x", "/x", true}, {"x", "/y", true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runChecks(t, compileString(tt.src, RFC9309), tt.checks)
		})
	}
}

// TestDecision checks what a decision says beyond allowed or not.
func TestDecision(t *testing.T) {
	t.Parallel()
	src := "User-agent: FooBot\nAllow: /a\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n"
	pol := compileString(src, RFC9309)
	tests := []struct {
		agent, url string
		allowed    bool
		line       int // of the deciding rule, 0 for none
		directive  string
		global     bool
		reason     string
	}{
		{"FooBot", "/a/b", true, 2, "Allow", false, ReasonRule},
		{"FooBot", "/b", false, 3, "Disallow", false, ReasonRule},
		{"other", "/x", false, 6, "Disallow", true, ReasonRule},
		{"other", "/y", true, 0, "", true, ReasonNoRule},
		{"other", "/robots.txt", true, 0, "", false, ReasonRobotsTxt},
	}
	for _, tt := range tests {
		d := pol.Decide(tt.agent, tt.url)
		line, dir := 0, ""
		if d.Rule != nil {
			line, dir = d.Rule.Line.Pos.Line, d.Rule.Directive()
		}
		if d.Allowed != tt.allowed || line != tt.line || dir != tt.directive || d.Global != tt.global || d.Reason != tt.reason {
			t.Errorf("Decide(%q, %q) = {%v line %d %q global=%v %q}, want {%v line %d %q global=%v %q}",
				tt.agent, tt.url, d.Allowed, line, dir, d.Global, d.Reason, tt.allowed, tt.line, tt.directive, tt.global, tt.reason)
		}
		if tt.reason == ReasonNoRule && (d.Group == nil || d.Group.Pos().Line != 5) {
			t.Errorf("Decide(%q, %q).Group = %v, want the group at line 5", tt.agent, tt.url, d.Group)
		}
	}
	none := compileString("User-agent: a\nDisallow: /\n", RFC9309).Decide("b", "/")
	if !none.Allowed || none.Group != nil || none.Reason != ReasonNoGroup {
		t.Errorf("Decide(%q, %q) = %+v, want allowed with no group", "b", "/", none)
	}
}

func TestProductToken(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		cut      bool
	}{
		{"FooBot/2.1 (+https://foo.example/bot)", "FooBot", true},
		{"  Foo_Bar-Baz", "Foo_Bar-Baz", false},
		{"Googlebot ", "Googlebot", false},
		{"*", "", false},
		{"", "", false},
		{"Mozilla/5.0 (compatible; Googlebot/2.1)", "Mozilla", true},
		{"MJ12bot/v1.4.8", "MJ12bot", false},
		{"Googlebot/2.1 ", "Googlebot", false},
		{"Googlebot/2.1 x", "Googlebot", true},
		{"360Spider", "360Spider", false},
		{"008", "008", false},
		{"Jävla-Foobot", "Jävla-Foobot", false},
		{"crawler1 crawler2", "crawler1", true},
		{"bot;x", "bot", true},
		{"bot\vx", "bot", true},
		{"/x", "", true},
	}
	for _, tt := range tests {
		if got := ProductToken(tt.in); got != tt.want {
			t.Errorf("ProductToken(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got, cut := CrawlerName(tt.in); got != tt.want || cut != tt.cut {
			t.Errorf("CrawlerName(%q) = %q, %v, want %q, %v", tt.in, got, cut, tt.want, tt.cut)
		}
	}
}

// TestAgentNames shows which group each profile applies to crawlers whose
// names hold digits, non-ASCII letters or a version (issue 12): rfc9309
// compares names whole, google cuts the file's values as Google's parser
// does and compares the caller's name whole.
func TestAgentNames(t *testing.T) {
	t.Parallel()
	const src = "User-agent: crawler1\nDisallow: /1\n\nUser-agent: crawler2\nDisallow: /2\n\n" +
		"User-agent: MJ12bot\nDisallow: /mj\n\nUser-agent: 360Spider\nDisallow: /360\n\n" +
		"User-agent: Jävla-Foobot\nDisallow: /j\n\nUser-agent: FooBot/2.1\nDisallow: /foo\n\n" +
		"User-agent: one two\nDisallow: /12\n\n" +
		"User-agent: Mozilla/5.0 (compatible; Butterfly/1.0)\nDisallow: /moz\n\n" +
		"User-agent: *\nDisallow: /star\n"
	tests := []struct {
		agent, url  string
		rfc, google bool
	}{
		{"crawler1", "/1", false, true}, // google: the file's values are both "crawler"
		{"crawler1", "/2", true, true},
		{"crawler", "/1", true, false},
		{"crawler", "/2", true, false},
		{"crawler3", "/1", true, true},
		{"crawler3", "/star", false, false},
		{"MJ12bot", "/mj", false, true}, // google: the caller's "MJ12bot" is not the file's "MJ"
		{"MJ99bot", "/mj", true, true},
		{"MJ", "/mj", true, false},
		{"360Spider", "/360", false, true},
		{"360Spider", "/star", true, false},
		{"Jävla-Foobot", "/j", false, true},
		{"jävla-fanbot", "/j", true, true},
		{"J", "/j", true, false},
		{"foobot", "/foo", false, false},
		{"FooBot/2.1", "/foo", false, true}, // google compares the caller's name whole
		{"one", "/12", false, false},
		{"two", "/12", false, true}, // google reads "one" only
		{"Butterfly", "/moz", true, true},
		{"Mozilla", "/moz", false, false},
	}
	file := grammar.ParseString("robots.txt", src, grammar.Options{})
	rfc, google := Compile(file, RFC9309), Compile(file, Google)
	for _, tt := range tests {
		if got := rfc.Allowed(tt.agent, tt.url); got != tt.rfc {
			t.Errorf("rfc9309: Allowed(%q, %q) = %v, want %v", tt.agent, tt.url, got, tt.rfc)
		}
		if got := google.Allowed(tt.agent, tt.url); got != tt.google {
			t.Errorf("google: Allowed(%q, %q) = %v, want %v", tt.agent, tt.url, got, tt.google)
		}
	}
}

// TestDecideAllocs checks that deciding allocates nothing, under every
// profile, for paths that need normalising too.
func TestDecideAllocs(t *testing.T) {
	src := "User-agent: FooBot\nDisallow: /*.php$\nAllow: /a%7eb/*/c\nDisallow: /%C3%A9t%C3%A9\nAllow: /x/index.html\n\nUser-agent: *\nDisallow: /private\n"
	urls := []string{"http://example.com/a~b/x/c?q=1#f", "/%c3%a9t%c3%a9", "/été/x", "example.com?q", "/index.php", "/x/", "/robots.txt"}
	for _, p := range Profiles {
		pol := compileString(src, p)
		for _, u := range urls {
			n := testing.AllocsPerRun(100, func() {
				_ = pol.Decide("FooBot/1.0", u)
				_ = pol.Allowed("other", u)
			})
			if n != 0 {
				t.Errorf("%s: Decide(%q, %q) allocates %v times, want 0", p, "FooBot/1.0", u, n)
			}
		}
	}
}

// TestExtensions checks the parsed extension values and their diagnostics.
func TestExtensions(t *testing.T) {
	t.Parallel()
	src := `Sitemap: https://example.com/sitemap.xml
Host: www.example.com
User-agent: *
Crawl-delay: 2.5
Request-rate: 1/10s
Visit-time: 0600-0845
Clean-param: ref&utm /articles/
Disallow: /x
Sitemap: not a url
Crawl-delay: soon

User-agent: b
Crawl-delay: -1
Request-rate: 3/
Visit-time: 2500-0100
Host: http://a b
Clean-param: &&
`
	pol := compileString(src, RFC9309)
	if sm := pol.Sitemaps(); len(sm) != 1 || sm[0].URL != "https://example.com/sitemap.xml" {
		t.Errorf("Sitemaps() = %v, want the one valid sitemap", sm)
	}
	if h := pol.Host(); h == nil || h.Host != "www.example.com" {
		t.Errorf("Host() = %v, want www.example.com", h)
	}
	a := pol.Agent("anybot")
	if cd := a.CrawlDelay(); cd == nil || cd.Delay.Seconds() != 2.5 {
		t.Errorf("CrawlDelay() = %v, want 2.5s", cd)
	}
	if rr := a.RequestRate(); rr == nil || rr.Requests != 1 || rr.Period.Seconds() != 10 {
		t.Errorf("RequestRate() = %v, want 1/10s", rr)
	}
	if vt := a.VisitTime(); vt == nil || vt.From != 6*60 || vt.To != 8*60+45 {
		t.Errorf("VisitTime() = %v, want 06:00-08:45", vt)
	}
	if cp := pol.CleanParams(); len(cp) != 1 || strings.Join(cp[0].Params, ",") != "ref,utm" || cp[0].Path != "/articles/" {
		t.Errorf("CleanParams() = %v, want ref&utm /articles/", cp)
	}
	if pol.Allowed("anybot", "/x") {
		t.Errorf("Allowed(%q, %q) = true, want false: bad extension values must not spoil the rules", "anybot", "/x")
	}
	var codes []string
	for _, d := range pol.Diagnostics() {
		codes = append(codes, d.Code+":"+d.Position().Pos().String())
	}
	want := "sitemap-url:9:10 crawl-delay:10:14 crawl-delay:13:14 request-rate:14:15 visit-time:15:13 host:16:7 clean-param:17:14"
	if got := strings.Join(codes, " "); got != want {
		t.Errorf("Diagnostics() = %s, want %s", got, want)
	}
}

// TestLoadCorpusIndex checks, on every URL of the corpus, that the rule
// index decides as a plain scan of the agent's rules in order does. It
// runs in the slow tier (go test -tags slow); TestIndex checks the
// same on constructed cases in every run.
func TestLoadCorpusIndex(t *testing.T) {
	t.Parallel()
	slowtest.Only(t, "every URL of the corpus")
	for _, p := range Profiles {
		cases := loadMatchCases(t, p)
		bad := 0
		for _, c := range cases {
			got := c.agent.Decide(c.url)
			raw, slash := match.PathOf(c.url)
			path := raw
			switch p {
			case RFC9309:
				path = string(match.NormRFC(nil, raw, true))
			case Draft:
				path = string(match.NormDraft(nil, raw))
			}
			if slash {
				path = "/" + path
			}
			want := firstMatch(c.agent.rules, path)
			if path == "/robots.txt" && (p == RFC9309 || p == Draft) {
				want = nil
			}
			if got.Rule != want && bad < 10 {
				bad++
				t.Errorf("%s: Decide(%q).Rule = %v, want %v", p, c.url, got.Rule, want)
			}
		}
	}
}

// TestIndex checks the rule index against a plain scan of the rules in
// decision order, on random rule sets over a small alphabet (so prefixes
// nest and share edges and keys overlap) and random paths.
func TestIndex(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(n int, alpha string) string {
		b := make([]byte, rng.IntN(n+1))
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		return string(b)
	}
	for round := 0; round < 600; round++ {
		p := Profiles[round%len(Profiles)]
		// Half the rounds find wildcard rules with a keyScan at every node,
		// and half of those make the dense pass. In a third the patterns
		// have more bytes, so that nodes have many children, found by a
		// table; their byte 0xE1, kept as it is under the profiles that do
		// not escape it, is not looked up in the table (which holds ASCII
		// bytes) but searched for.
		tune := match.Tuning{
			MinScan:  map[bool]uint32{true: 1, false: 8}[round%8 < 4],
			MinDense: map[bool]int{true: 1, false: 512}[round%16 < 8],
		}
		letters := map[bool]string{true: "abcdefgh\xe1/*$", false: "ab/*$"}[round%3 == 0]
		var src strings.Builder
		src.WriteString("User-agent: *\n")
		n := 1 + rng.IntN(40)
		for i := 0; i < n; i++ {
			dir := "Disallow"
			if rng.IntN(3) == 0 {
				dir = "Allow"
			}
			// Long rules in odd rounds, so that keys are four-byte windows.
			fmt.Fprintf(&src, "%s: /%s\n", dir, word(6+10*(round%2), letters))
		}
		a := compileString(src.String(), p).Agent("x")
		for k := 0; k < 50; k++ {
			path := "/" + word(8+40*(round%2), strings.Trim(letters, "*$"))
			want := firstMatch(a.rules, path)
			if got := a.decidePath(path).Rule; got != want {
				t.Fatalf("%s: decidePath(%q).Rule = %v, want %v (first match in decision order)\n%s", p, path, got, want, src.String())
			}
			if len(a.rules) == 0 {
				continue
			}
			if got := ruleAt(a, match.BuildTuned(a.patterns(), tune).Lookup(path)); got != want {
				t.Fatalf("%s: Lookup(%q) tuned %+v = %v, want %v (first match in decision order)\n%s", p, path, tune, got, want, src.String())
			}
		}
	}
}

// TestDensePassBlocks checks a keyScan's dense pass, which tests 64
// positions of a path as one block, on paths with a key of one to four
// bytes (or a rule's whole literal) at each place from the first block to
// the third, its end included, against a scan of the rules in decision
// order.
func TestDensePassBlocks(t *testing.T) {
	t.Parallel()
	tune := match.Tuning{MinScan: 1, MinDense: 1}
	const src = "User-agent: *\nDisallow: /*wxyz\nAllow: /*wxyz*q\nDisallow: /*klm\nDisallow: /*qr\nDisallow: /*j\nDisallow: /*stuvw$\n"
	for _, p := range Profiles {
		if !p.desc().wildcards {
			continue // no wildcard rules, no keyScan
		}
		a := compileString(src, p).Agent("x")
		ix := match.BuildTuned(a.patterns(), tune)
		if !ix.Dense() {
			t.Fatalf("%s: no keyScan makes the dense pass", p)
		}
		for _, key := range []string{"wxyz", "wxyzq", "klm", "qr", "j", "stuvw"} {
			for n := 0; n <= 140; n++ {
				path := "/" + strings.Repeat("a", n) + key + strings.Repeat("a", n%4)
				if got, want := ruleAt(a, ix.Lookup(path)), firstMatch(a.rules, path); got != want {
					t.Errorf("%s: Lookup(%q).Rule = %v, want %v (first match in decision order)", p, path, got, want)
				}
			}
		}
	}
}

// firstMatch returns the first of rules, in decision order, whose
// pattern matches path, or nil: the rule the index must find.
func firstMatch(rules []*Rule, path string) *Rule {
	for _, r := range rules {
		if r.match(path) {
			return r
		}
	}
	return nil
}

// TestConcurrentDecide decides from several goroutines at once on one
// policy (run with -race).
func TestConcurrentDecide(t *testing.T) {
	t.Parallel()
	pol := compileString(readTestdata(t, "fict.org.txt"), RFC9309)
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			ok := true
			for i := 0; i < 200; i++ {
				for _, row := range fictMatrix {
					if pol.Allowed("OtherBot/1.0", row.url) != row.other || pol.Agent("unhipbot").Allowed(row.url) != row.unhip {
						ok = false
					}
				}
			}
			done <- ok
		}()
	}
	for g := 0; g < 4; g++ {
		if !<-done {
			t.Error("concurrent decisions disagree with the fict.org matrix")
		}
	}
}

// TestASCIIFold checks that crawler names fold ASCII case only: the Kelvin
// sign is not "k" (Google compares names with absl::EqualsIgnoreCase).
func TestASCIIFold(t *testing.T) {
	t.Parallel()
	for _, p := range Profiles {
		pol := compileString("User-agent: k\nDisallow: /\n", p)
		runChecks(t, pol, []check{{"K", "/x", false}, {"\u212a", "/x", true}})
	}
}

// TestRuleSize checks that a Rule stays at 56 bytes: a corpus pass
// compiles 750,000 of them, and each 8 bytes more is 6 MB more to allocate
// and clear (an empty pattern has priority 0 rather than a flag of its
// own: Rule.never).
func TestRuleSize(t *testing.T) {
	t.Parallel()
	if n := unsafe.Sizeof(Rule{}); n > 56 {
		t.Errorf("unsafe.Sizeof(Rule{}) = %d, want at most 56", n)
	}
}

// TestSitemapList checks that a file's Sitemap list is one allocation
// however many Sitemap lines it has: it is made at the first with room
// for every extension line left (Host before it is not counted). The
// profiles that read records (the drafts) do not count the lines first,
// and grow the list as they read it.
func TestSitemapList(t *testing.T) {
	const head = "Host: h.example\nSitemap: https://e.com/1.xml\n"
	one := grammar.ParseString("one.txt", head, grammar.Options{})
	six := grammar.ParseString("six.txt", head+"Sitemap: https://e.com/2.xml\nCrawl-delay: 1\nSitemap: https://e.com/3.xml\nSitemap: https://e.com/4.xml\nSitemap: https://e.com/5.xml\n", grammar.Options{})
	for _, p := range Profiles {
		if p.desc().records {
			continue
		}
		pol := Compile(six, p)
		if n, c := len(pol.Sitemaps()), cap(pol.Sitemaps()); n != 5 || c != 6 {
			t.Errorf("%s: Sitemaps() has length %d and capacity %d, want 5 and 6 (the extension lines from the first Sitemap on)", p, n, c)
		}
		a1 := testing.AllocsPerRun(20, func() { Compile(one, p) })
		if a6 := testing.AllocsPerRun(20, func() { Compile(six, p) }); a6 != a1 {
			t.Errorf("%s: Compile of 5 Sitemap lines makes %.0f allocations, of 1 %.0f: want as many", p, a6, a1)
		}
	}
}

// TestSmallPolicySlabSize checks that a small file's policy is one
// allocation of at most Go's 896-byte size class (with the 8-byte header
// of an object of pointers over 512 bytes): one group of a few
// User-agent lines and at most smallRules rules, as most files are (lines
// such as Sitemap add what they keep).
func TestSmallPolicySlabSize(t *testing.T) {
	if n := unsafe.Sizeof(smallPolicySlab{}); n > 896-8 {
		t.Errorf("smallPolicySlab is %d bytes, want at most %d (lower smallRules)", n, 896-8)
	}
	src := "User-agent: a\nUser-agent: b\nDisallow: /x\nDisallow: /*.pdf$\nAllow: /x/y\nDisallow: /q?\nDisallow: /r\nAllow: /s\nAllow: /t\n" // smallRules rules
	f := grammar.ParseString("small.txt", src, grammar.Options{})
	for _, p := range []Profile{RFC9309, Google, Draft, NoRobots} {
		if got := testing.AllocsPerRun(100, func() { Compile(f, p) }); got != 1 {
			t.Errorf("Compile(%q, %v): %.0f allocations, want 1", src, p, got)
		}
	}
}
