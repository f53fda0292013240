package robots

import "testing"

// profileDiff is one difference between the profiles: a file, a question,
// and each profile's answer (in the order RFC9309, Google, Draft,
// NoRobots). docs/profiles.md names each by its test name.
type profileDiff struct {
	name       string
	src        string
	agent, url string
	want       [4]bool
}

var profileDiffs = []profileDiff{
	{"Typo", "User-agent: *\nDisalow: /x\n", "bot", "/x",
		[4]bool{true, false, true, true}},
	{"NoColon", "User-agent: *\nDisallow /x\n", "bot", "/x",
		[4]bool{true, false, true, true}},
	{"FieldPrefix", "User-agent: *\nDisallowance: /x\n", "bot", "/x",
		[4]bool{true, false, true, true}},
	{"BlankLineEndsRecord", "User-agent: bot\n\nDisallow: /x\n", "bot", "/x",
		[4]bool{false, false, true, true}},
	{"SubstringAgent", "User-agent: FooBotNews\nDisallow: /\n", "FooBot", "/x",
		[4]bool{true, true, false, false}},
	{"MergeGroups", "User-agent: bot\nDisallow: /x\n\nUser-agent: bot\nDisallow: /y\n", "bot", "/y",
		[4]bool{false, false, true, true}},
	{"FirstStarRecord", "User-agent: *\nDisallow: /x\n\nUser-agent: *\nDisallow: /y\n", "bot", "/y",
		[4]bool{false, false, true, true}},
	{"LongestVsFirstMatch", "User-agent: *\nDisallow: /\nAllow: /a\n", "bot", "/a",
		[4]bool{true, true, false, false}},
	{"AllowIgnored", "User-agent: *\nAllow: /a\nDisallow: /\n", "bot", "/a",
		[4]bool{true, true, true, false}},
	{"Wildcard", "User-agent: *\nDisallow: /*.pdf\n", "bot", "/a.pdf",
		[4]bool{false, false, true, true}},
	{"EndAnchor", "User-agent: *\nDisallow: /a$\n", "bot", "/a$",
		[4]bool{true, true, false, false}},
	{"DecodeUnreservedInURL", "User-agent: *\nDisallow: /~joe\n", "bot", "/%7Ejoe",
		[4]bool{false, true, false, true}},
	{"DecodeReservedEscape", "User-agent: *\nDisallow: /a<b\n", "bot", "/a%3Cb",
		[4]bool{true, true, false, true}},
	{"NonASCIIInURL", "User-agent: *\nDisallow: /é\n", "bot", "/é",
		[4]bool{false, true, false, false}},
	{"NonASCIIEncodedURL", "User-agent: *\nDisallow: /é\n", "bot", "/%C3%A9",
		[4]bool{false, false, false, true}},
	{"RobotsTxtAllowed", "User-agent: *\nDisallow: /\n", "bot", "/robots.txt",
		[4]bool{true, false, true, false}},
	{"IndexHTMLDirectory", "User-agent: *\nAllow: /d/index.html\nDisallow: /d/\n", "bot", "/d/",
		[4]bool{false, true, false, false}},
	{"WholeUserAgentHeader", "User-agent: FooBot\nDisallow: /\n", "FooBot/2.1 (+https://foo.example/bot)", "/",
		[4]bool{false, true, false, false}},
	{"EmptyAgentName", "User-agent:\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "", "/x",
		[4]bool{true, false, true, true}},
	{"NULEndsValue", "User-agent: *\nDisallow: /a\x00b\n", "bot", "/a",
		[4]bool{true, false, true, true}},
	{"StarWithText", "User-agent: * everyone\nDisallow: /\n", "bot", "/x",
		[4]bool{false, false, true, true}},
}

// TestProfileDifferences shows each documented difference between the
// profiles (docs/profiles.md).
func TestProfileDifferences(t *testing.T) {
	t.Parallel()
	for _, d := range profileDiffs {
		t.Run(d.name, func(t *testing.T) {
			for i, p := range Profiles {
				pol := compileString(d.src, p)
				if got := pol.Allowed(d.agent, d.url); got != d.want[i] {
					t.Errorf("%s: Allowed(%q, %q) = %v, want %v (%s)", p, d.agent, d.url, got, d.want[i], pol.Decide(d.agent, d.url))
				}
			}
		})
	}
}

// TestProfilesAgree shows what every profile shares.
func TestProfilesAgree(t *testing.T) {
	t.Parallel()
	tests := []profileDiff{
		{"RulesBeforeUserAgentIgnored", "Disallow: /\nUser-agent: *\nDisallow: /x\n", "bot", "/y", [4]bool{true, true, true, true}},
		{"EmptyDisallowAllows", "User-agent: *\nDisallow:\n", "bot", "/", [4]bool{true, true, true, true}},
		{"SpecificGroupReplacesStar", "User-agent: *\nDisallow: /\n\nUser-agent: bot\nDisallow: /private\n", "bot", "/x", [4]bool{true, true, true, true}},
		{"PrefixMatch", "User-agent: *\nDisallow: /help\n", "bot", "/help.html", [4]bool{false, false, false, false}},
		{"CaseSensitivePaths", "User-agent: *\nDisallow: /Help\n", "bot", "/help", [4]bool{true, true, true, true}},
		{"CaseInsensitiveAgents", "User-agent: BOT\nDisallow: /\n", "bot", "/", [4]bool{false, false, false, false}},
		{"FragmentIgnored", "User-agent: *\nDisallow: /ab\n", "bot", "/a#b", [4]bool{true, true, true, true}},
	}
	for _, d := range tests {
		t.Run(d.name, func(t *testing.T) {
			for i, p := range Profiles {
				pol := compileString(d.src, p)
				if got := pol.Allowed(d.agent, d.url); got != d.want[i] {
					t.Errorf("%s: Allowed(%q, %q) = %v, want %v (%s)", p, d.agent, d.url, got, d.want[i], pol.Decide(d.agent, d.url))
				}
			}
		})
	}
}

// TestSitemapSpellings shows that only Google reads "Site-map" and
// prefixes of "Sitemap" as Sitemap lines.
func TestSitemapSpellings(t *testing.T) {
	t.Parallel()
	src := "Sitemap: https://e.com/a.xml\nSite-map: https://e.com/b.xml\nSitemaps: https://e.com/c.xml\n"
	want := [4]int{1, 3, 1, 1}
	for i, p := range Profiles {
		if got := len(compileString(src, p).Sitemaps()); got != want[i] {
			t.Errorf("%s: len(Sitemaps()) = %d, want %d", p, got, want[i])
		}
	}
}

// TestRFC9309Tables holds RFC 9309's own tables and examples under the
// rfc9309 profile: section 2.2.2's percent-encoding table (each row as a
// pattern against each form of the path, both ways round), section
// 2.2.3's special characters and their percent-encoded literal forms, and
// the examples of section 5. docs/profiles.md ("RFC 9309's tables") says
// how we read the rows where the text contradicts itself.
func TestRFC9309Tables(t *testing.T) {
	t.Parallel()
	t.Run("2.2.2 percent-encoding", func(t *testing.T) {
		// Path, Encoded Path, Path to Match.
		rows := [][3]string{
			{"/foo/bar?baz=quz", "/foo/bar?baz=quz", "/foo/bar?baz=quz"},
			{"/foo/bar?baz=https://foo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar"},
			{"/foo/bar/\u30c4", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"},
			{"/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"},
			{"/foo/bar/%62%61%7A", "/foo/bar/%62%61%7A", "/foo/bar/baz"},
		}
		for _, row := range rows {
			for _, pat := range row {
				pol := compileString("User-agent: *\nDisallow: "+pat+"$\n", RFC9309)
				for _, u := range row {
					if pol.Allowed("x", "https://example.com"+u) {
						t.Errorf("Disallow: %s$: Allowed(%q, %q) = true, want false", pat, "x", u)
					}
				}
			}
		}
		// Encoded and raw reserved characters differ in the path.
		pol := compileString("User-agent: *\nDisallow: /a:b/c@d$\n", RFC9309)
		for _, u := range []string{"/a%3Ab/c@d", "/a:b%2Fc@d", "/a:b/c%40d"} {
			if !pol.Allowed("x", u) {
				t.Errorf("Disallow: /a:b/c@d$: Allowed(%q, %q) = false, want true", "x", u)
			}
		}
	})
	t.Run("2.2.3 special characters", func(t *testing.T) {
		tests := []struct {
			rule, url string
			allowed   bool
		}{
			{"/this/path/exactly$", "/this/path/exactly", false},
			{"/this/path/exactly$", "/this/path/exactly/not", true},
			{"/this/path/*/with/wildcard", "/this/path/x/y/with/wildcard", false},
			{"/this/path/*/with/wildcard", "/this/path/with/wildcard", true},
			// Table: "%" encoding for special characters matched verbatim.
			{"/path/file-with-a-%2A.html", "https://www.example.com/path/file-with-a-*.html", false},
			{"/path/file-with-a-%2a.html", "https://www.example.com/path/file-with-a-*.html", false},
			{"/path/file-with-a-%2A.html", "https://www.example.com/path/file-with-a-x.html", true},
			{"/path/file-with-a-%2A.html", "https://www.example.com/path/file-with-a-%2A.html", false},
			{"/path/foo-%24", "https://www.example.com/path/foo-$", false},
			{"/path/foo-%24", "https://www.example.com/path/foo-", true},
			{"/path/foo-%24", "https://www.example.com/path/foo-$x", false},
			{"/%24", "https://www.example.com/$100", false},
			{"/a*b$", "/a*b", false},
			{"/a*b$", "/a$b", false},
			{"/a$b", "/a$b", false}, // '$' before the end is literal
		}
		for _, tt := range tests {
			pol := compileString("User-agent: *\nDisallow: "+tt.rule+"\n", RFC9309)
			if got := pol.Allowed("x", tt.url); got != tt.allowed {
				t.Errorf("Disallow: %s: Allowed(%q, %q) = %v, want %v", tt.rule, "x", tt.url, got, tt.allowed)
			}
		}
	})
	t.Run("5.1 simple example", func(t *testing.T) {
		const src = "User-Agent: *\nDisallow: *.gif$\nDisallow: /example/\nAllow: /publications/\n\n" +
			"User-Agent: foobot\nDisallow:/\nAllow:/example/page.html\nAllow:/example/allowed.gif\n\n" +
			"User-Agent: barbot\nUser-Agent: bazbot\nDisallow: /example/page.html\n\nUser-Agent: quxbot\n\nEOF\n"
		runChecks(t, compileString(src, RFC9309), []check{
			{"otherbot", "/x.gif", false}, {"otherbot", "/example/x", false}, {"otherbot", "/publications/x", true},
			{"otherbot", "/publications/x.gif", true}, {"otherbot", "/x", true},
			{"foobot", "/x", false}, {"foobot", "/example/page.html", true}, {"foobot", "/example/allowed.gif", true},
			{"foobot", "/example/other.gif", false},
			{"barbot", "/example/page.html", false}, {"bazbot", "/example/page.html", false}, {"barbot", "/example/x", true},
			{"barbot", "/x.gif", true},
			{"quxbot", "/example/x", true}, {"quxbot", "/x.gif", true},
		})
	})
	t.Run("5.2 longest match", func(t *testing.T) {
		const src = "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n"
		runChecks(t, compileString(src, RFC9309), []check{
			{"foobot", "/example/page/", true}, {"foobot", "/example/page/disallowed.gif", false},
		})
	})
}
