package robots_test

import (
	"fmt"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/robots"
)

const exampleRobots = `User-agent: FooBot
Allow: /public/
Disallow: /

User-agent: *
Disallow: /private/
Crawl-delay: 2
Sitemap: https://example.com/sitemap.xml
`

func ExampleCompile() {
	f := grammar.ParseString("robots.txt", exampleRobots, grammar.Options{})
	pol := robots.Compile(f, robots.RFC9309)
	fmt.Println(len(pol.Groups()), "groups")
	fmt.Println(pol.Sitemaps()[0].URL)
	fmt.Println(pol.Agent("AnyBot").CrawlDelay().Delay)
	// Output:
	// 2 groups
	// https://example.com/sitemap.xml
	// 2s
}

func ExamplePolicy_Allowed() {
	pol := robots.Compile(grammar.ParseString("robots.txt", exampleRobots, grammar.Options{}), robots.RFC9309)
	fmt.Println(pol.Allowed("FooBot/2.1 (+https://foo.example/bot)", "https://example.com/public/a.html"))
	fmt.Println(pol.Allowed("FooBot", "/index.html"))
	fmt.Println(pol.Allowed("OtherBot", "/index.html"))
	fmt.Println(pol.Allowed("OtherBot", "/private/x"))
	// Output:
	// true
	// false
	// true
	// false
}

func ExamplePolicy_Decide() {
	pol := robots.Compile(grammar.ParseString("robots.txt", exampleRobots, grammar.Options{}), robots.RFC9309)
	for _, u := range []string{"/public/a", "/b", "/robots.txt"} {
		d := pol.Decide("FooBot", u)
		if d.Rule != nil {
			fmt.Printf("%s: %v, line %d: %s\n", u, d.Allowed, d.Rule.Line.Pos.Line, d.Rule)
		} else {
			fmt.Printf("%s: %v, %s\n", u, d.Allowed, d.Reason)
		}
	}
	// Output:
	// /public/a: true, line 2: Allow: /public/
	// /b: false, line 3: Disallow: /
	// /robots.txt: true, /robots.txt is always allowed
}

func ExamplePolicy_Agent() {
	pol := robots.Compile(grammar.ParseString("robots.txt", exampleRobots, grammar.Options{}), robots.Google)
	foo := pol.Agent("FooBot") // select the rules once
	for _, u := range []string{"/public/", "/x"} {
		fmt.Println(u, foo.Allowed(u))
	}
	// Output:
	// /public/ true
	// /x false
}

func ExampleLint() {
	src := "Disallow: /early\nUser-agent: *\ndisalow: /typo\nDisallow: private\n"
	for _, d := range robots.Lint(grammar.ParseString("robots.txt", src, grammar.Options{})) {
		fmt.Println(d)
	}
	// Output:
	// robots.txt:1:1: warning: Disallow line before any User-agent line is ignored
	// robots.txt:3:1: warning: field "disalow" is not "Disallow"; only the google profile accepts it
	// robots.txt:4:11: warning: pattern "private" does not start with "/" or "*" and never matches a path
}

// Lint's findings that matter only under some profiles say which; a tool
// that reads the file one way leaves the others out.
func ExampleConcerns() {
	src := "User-agent: *\nDisallow: /a\n\nDisallow: /b\n"
	for _, d := range robots.Lint(grammar.ParseString("robots.txt", src, grammar.Options{})) {
		fmt.Println(d.Code, robots.Concerns(d, robots.RFC9309), robots.Concerns(d, robots.Draft), robots.ConcernedProfiles(d))
	}
	// Output:
	// rule-outside-record false true [draft norobots]
}

func ExampleProductToken() {
	fmt.Println(robots.ProductToken("FooBot/2.1 (+https://foo.example/bot)"))
	// Output: FooBot
}

func ExampleParseProfile() {
	p, err := robots.ParseProfile("google")
	fmt.Println(p, err)
	// Output: google <nil>
}

func ExampleGroup_String() {
	pol := robots.Compile(grammar.ParseString("robots.txt", exampleRobots, grammar.Options{}), robots.RFC9309)
	for _, g := range pol.Groups() {
		fmt.Println(g)
	}
	d := pol.Decide("FooBot", "/private/x")
	fmt.Println(d.Group, "decides:", d.Rule)
	// Output:
	// User-agent: FooBot (line 1)
	// User-agent: * (line 5)
	// User-agent: FooBot (line 1) decides: Disallow: /
}

func ExamplePolicy_Explain() {
	pol := robots.Compile(grammar.ParseString("robots.txt", exampleRobots, grammar.Options{}), robots.RFC9309)
	e := pol.Explain("OtherBot/1.0")
	fmt.Println(e.Why)
	for _, g := range e.Groups {
		fmt.Println(g)
	}
	fmt.Println("rules,", e.Order+":")
	for _, r := range e.Rules {
		fmt.Printf("  line %d: %s\n", r.Line.Pos.Line, r)
	}
	fmt.Println("crawl-delay:", e.CrawlDelay.Delay)
	fmt.Println("sitemap:", e.Sitemaps[0].URL)

	draft := robots.Compile(grammar.ParseString("robots.txt", exampleRobots, grammar.Options{}), robots.Draft)
	e = draft.Explain("FooBot/2.1")
	fmt.Println(e.Why)
	fmt.Println("rules,", e.Order+":", e.Rules)
	// Output:
	// no User-agent line names "OtherBot/1.0", so the "*" group applies
	// User-agent: * (line 5)
	// rules, longest match first; on a tie Allow wins:
	//   line 6: Disallow: /private/
	// crawl-delay: 2s
	// sitemap: https://example.com/sitemap.xml
	// a User-agent line names "FooBot", the product token of "FooBot/2.1"
	// rules, in file order; the first match decides: [Allow: /public/ Disallow: /]
}

func ExampleProfile_ParseOptions() {
	// A file parsed as the profile reads it: google reads all of it.
	for _, p := range robots.Profiles {
		fmt.Println(p, p.ParseOptions().MaxSize)
	}
	// Output:
	// rfc9309 512000
	// google -1
	// draft 512000
	// norobots 512000
}
