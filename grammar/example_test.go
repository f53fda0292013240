package grammar_test

import (
	"fmt"

	"github.com/sitetxt/sitetxt/grammar"
)

func ExampleParse() {
	src := "Disallow: /early\nUser-agent: FooBot\nDisallow /private\n\nAllow: /\n"
	f := grammar.Parse("robots.txt", []byte(src), grammar.Options{})
	for _, r := range f.Records {
		fmt.Printf("record at %s with %d agent(s), %d lines\n", r.Pos, len(r.Agents), len(r.Lines))
	}
	for _, l := range f.Lines {
		fmt.Printf("%s %s %q %q\n", l.Pos, l.Kind, l.Field, l.Value)
	}
	for _, d := range f.Diagnostics {
		fmt.Println(d)
	}
	fmt.Println(f.Text() == src)
	// Output:
	// record at 2:1 with 1 agent(s), 2 lines
	// 1:1 disallowline "Disallow" "/early"
	// 2:1 agentline "User-agent" "FooBot"
	// 3:1 disallowline "Disallow" "/private"
	// 4:1 blank "" ""
	// 5:1 allowline "Allow" "/"
	// robots.txt:3:1: warning: missing ":" after field "Disallow"
	// true
}

func ExampleDiagnostic_Format() {
	src := "User-agent: *\nDisallow /a /b\n"
	f := grammar.ParseString("robots.txt", src, grammar.Options{})
	fmt.Println(f.Diagnostics[0].Format(src))
	// Output:
	// robots.txt:2:1: warning: line is not a "field: value" line
	//
	//     2 | Disallow /a /b
	//       | ^
}

func ExampleNode() {
	src := "# rules\nUser-agent: FooBot\nDisallow: /private\n# end\n\nSitemap: /s.xml\nUser-agent: *\nAllow: /\n"
	f := grammar.ParseString("robots.txt", src, grammar.Options{})
	for _, n := range f.Nodes {
		switch {
		case n.Record != nil:
			fmt.Printf("record %s-%s: %d lines, agents on line %d\n", n.Pos(), n.EndPos(), len(n.Lines()), n.Record.Agents[0].Pos.Line)
		case n.IsPreamble():
			fmt.Printf("preamble %s-%s: %d lines\n", n.Pos(), n.EndPos(), len(n.Lines()))
		default:
			fmt.Printf("gap %s-%s: %d lines\n", n.Pos(), n.EndPos(), len(n.Lines()))
		}
	}
	// Output:
	// preamble 1:1-2:1: 1 lines
	// record 2:1-5:1: 3 lines, agents on line 2
	// gap 5:1-7:1: 2 lines
	// record 7:1-9:1: 2 lines, agents on line 7
}
