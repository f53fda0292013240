package audit_test

import (
	"fmt"
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/audit"
)

func ExampleFile() {
	f := grammar.ParseString("robots.txt", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n", grammar.Options{})
	rep := audit.File(f, audit.Options{})
	for _, c := range rep.Categories {
		if c.Category == audit.AITraining {
			fmt.Println(c.Verdict)
		}
	}
	for _, c := range rep.Crawlers {
		if c.Token == "GPTBot" {
			fmt.Println(c.Token, c.Allowed, c.Rule.Line)
		}
	}
	// Output:
	// AI training crawlers: 1 of 81 blocked from /
	// GPTBot false 2
}

func ExampleSummarize() {
	in := make(chan audit.Input)
	go func() {
		in <- audit.Input{Name: "a", Data: []byte("User-agent: GPTBot\nDisallow: /\n")}
		in <- audit.Input{Name: "b", Data: []byte("User-agent: *\nDisallow: /private\n")}
		close(in)
	}()
	s := audit.Summarize(in, nil, 0)
	for i, c := range s.Registry.Crawlers {
		if c.Token == "GPTBot" {
			n := s.Crawlers[i][0] // rfc9309
			fmt.Printf("GPTBot: %d fully, %d partly, %d not at all\n", n[audit.Fully], n[audit.Partly], n[audit.None])
		}
	}
	// Output:
	// GPTBot: 1 fully, 1 partly, 0 not at all
}

func ExampleReadWARC() {
	var b strings.Builder
	audit.WriteWARC(&b, []audit.Capture{{URL: "https://example.org/robots.txt", Body: "User-agent: *\nDisallow: /\n"}})
	audit.ReadWARC(strings.NewReader(b.String()), func(in audit.Input) error {
		fmt.Printf("%s %d %q\n", in.Name, in.Status, in.Data)
		return nil
	})
	// Output:
	// https://example.org/robots.txt 200 "User-agent: *\nDisallow: /\n"
}
