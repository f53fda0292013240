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
	src := "Sitemap: https://e.com/a.xml\nSite-map: https://e.com/b.xml\nSitemaps: https://e.com/c.xml\n"
	want := [4]int{1, 3, 1, 1}
	for i, p := range Profiles {
		if got := len(compileString(src, p).Sitemaps()); got != want[i] {
			t.Errorf("%s: len(Sitemaps()) = %d, want %d", p, got, want[i])
		}
	}
}
