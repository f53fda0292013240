package robots_test

import (
	"fmt"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/robots"
)

// The example of draft-ietf-aipref-attach-05 section 3.4: the preference
// for a URL comes from the longest matching Content-Usage rule (a rule
// without a path is the shortest), and a disallowed URL has none.
func ExampleAgent_Usage() {
	f := grammar.ParseString("robots.txt", `User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y
`, grammar.Options{})
	a := robots.Compile(f, robots.RFC9309).Agent("ExampleBot")
	for _, path := range []string{"/test", "/never/test", "/ai-ok/test"} {
		u := a.Usage(path)
		if !u.Applies {
			fmt.Printf("%s: not crawled, no preference\n", path)
			continue
		}
		fmt.Printf("%s: %s (line %d)\n", path, u.Usage, u.Rules[0].Line.Pos.Line)
	}
	// Output:
	// /test: train-ai=n (line 4)
	// /never/test: not crawled, no preference
	// /ai-ok/test: train-ai=y (line 5)
}

func ExamplePolicy_Licenses() {
	f := grammar.ParseString("robots.txt", "License: https://example.com/license.xml\nUser-agent: *\nAllow: /\n", grammar.Options{})
	for _, l := range robots.Compile(f, robots.RFC9309).Licenses() {
		fmt.Println(l.URL, "line", l.Line.Pos.Line)
	}
	// Output:
	// https://example.com/license.xml line 1
}

func ExamplePolicy_LLMPolicies() {
	f := grammar.ParseString("robots.txt", "User-agent: *\nAllow: /\nLLM-Policy: https://example.com/llms.txt\n", grammar.Options{})
	for _, l := range robots.Compile(f, robots.RFC9309).LLMPolicies() {
		fmt.Println(l.URL, "line", l.Line.Pos.Line)
	}
	// Output:
	// https://example.com/llms.txt line 3
}

// A Content-Signal line before any User-agent line speaks for the whole
// origin; one in a group for that group's crawlers. Agent.Usage combines
// those that apply to a crawler.
func ExamplePolicy_Signals() {
	f := grammar.ParseString("robots.txt", `Content-Signal: ai-train=no, use=reference

User-agent: *
Allow: /

User-agent: ExampleBot
Content-Signal: search=yes
Allow: /
`, grammar.Options{})
	pol := robots.Compile(f, robots.RFC9309)
	for _, s := range pol.Signals() {
		fmt.Println("origin:", s.Signals, "line", s.Line.Pos.Line)
	}
	fmt.Println("ExampleBot:", pol.Agent("ExampleBot").Usage("/page").Signal)
	fmt.Println("OtherBot:", pol.Agent("OtherBot").Usage("/page").Signal)
	// Output:
	// origin: ai-train=no, use=reference line 1
	// ExampleBot: search=yes, ai-train=no, use=reference
	// OtherBot: ai-train=no, use=reference
}
