package aipref_test

import (
	"fmt"

	"github.com/sitetxt/sitetxt/aipref"
)

func ExampleParse() {
	u, err := aipref.Parse(`ai-use=n, search=y;reason="ok", future-label=n`)
	fmt.Println(u.TrainAI, u.AIUse, u.Search, err)
	_, err = aipref.Parse("Train-AI=n")
	fmt.Println(err != nil)
	// Output:
	// unknown disallow allow <nil>
	// true
}

// A use that is Search is governed by search, whatever train-ai says
// (draft-ietf-aipref-vocab-08 section 4.3).
func ExampleUsage_Overridden() {
	u, _ := aipref.Parse("train-ai=n, search=y")
	fmt.Println(u.Get(aipref.Search), u.Overridden(aipref.Search))
	fmt.Println(u.Get(aipref.TrainAI), u.Overridden(aipref.TrainAI))
	// Output:
	// allow [train-ai]
	// disallow []
}

func ExampleCheck() {
	for _, p := range aipref.Check("train-ai=n, train-genai=n") {
		fmt.Println(p.Offset, p.Code)
	}
	// Output:
	// 12 usage-legacy
}

func ExampleParseSignals() {
	s, _ := aipref.ParseSignals("search=yes,ai-train=no,use=reference")
	fmt.Println(s.Words())
	fmt.Println(len(aipref.CheckSignals("search=yes,ai-train=no,use=reference")))
	// Output:
	// search allow, ai-train disallow, use reference
	// 0
}

func ExampleDerive() {
	cu, _ := aipref.Parse("train-ai=y")
	cs, _ := aipref.ParseSignals("ai-train=no, ai-input=yes")
	d := aipref.Derive(cu, cs)
	fmt.Println(d.Usage, d.From[aipref.TrainAI], d.From[aipref.AIUse])
	// Output:
	// train-ai=n, ai-use=y content-signal content-signal
}

// A Content-Usage header may arrive as several field lines: they are one
// Dictionary, and a later value for a label replaces an earlier one.
func ExampleParseField() {
	u, err := aipref.ParseField([]string{"train-ai=n, search=y", "train-ai=y"})
	fmt.Println(u, err)
	// Output:
	// train-ai=y, search=y <nil>
}

func ExampleRobotsTags() {
	lines := []string{"noai, noimageai", "otherbot: noindex"}
	for _, t := range aipref.RobotsTags("X-Robots-Tag", lines, "ExampleBot/1.0") {
		fmt.Println(t.Directives)
	}
	// Output:
	// [noai noimageai]
}
