package grammar

import (
	"fmt"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
)

// The grammar captures nothing (see robotstxt). These are the other forms
// it could take, each placing the same records, kept to measure what a
// capture costs participle: BenchmarkGrammarForms reports their
// allocations over token streams of 1 and 4 records, and TestGrammarAllocs
// keeps the grammar at the cheapest.

// formRecord is the record as a struct of its own, captured with @@.
type formRecord struct {
	Agents bool `parser:"Agentlines"`
	Rules  bool `parser:"Rulelines"`
}

type formStruct struct {
	Records []formRecord `parser:"@@*"`
}

// formCount counts the records by capturing each Agentlines token.
type formCount struct {
	Records recordCount `parser:"(@Agentlines Rulelines)*"`
}

type recordCount int

func (c *recordCount) Capture([]string) error { *c++; return nil }

// streamOf returns the token stream of n records.
func streamOf(n int) string {
	return strings.Repeat(string([]byte{byte(tAgent), byte(tRule)}), n)
}

func allocsOf[G any](p *participle.Parser[G], shape string) float64 {
	lex := upgrade(shape)
	return testing.AllocsPerRun(200, func() {
		l := *lex
		if _, err := p.ParseFromLexer(&l); err != nil {
			panic(err)
		}
	})
}

// TestGrammarAllocs checks that participle's pass over the grammar
// allocates no more than its cheapest form measured (participle v2.1.4: 9
// allocations over one record, about 6 for each further one), and less
// than the forms that capture.
func TestGrammarAllocs(t *testing.T) {
	structs := participle.MustBuild[formStruct](participle.Lexer(lineDefinition{}))
	counts := participle.MustBuild[formCount](participle.Lexer(lineDefinition{}))
	for _, n := range []int{1, 4} {
		got := allocsOf(theParser(), streamOf(n))
		if limit := float64(9 + 6*(n-1)); got > limit {
			t.Errorf("participle over %d records: %.0f allocations, want at most %.0f", n, got, limit)
		}
		if s, c := allocsOf(structs, streamOf(n)), allocsOf(counts, streamOf(n)); got >= s || got >= c {
			t.Errorf("participle over %d records: %.0f allocations, not fewer than a captured record (%.0f) or count (%.0f)", n, got, s, c)
		}
	}
}

// BenchmarkGrammarForms is synthetic (token streams, not files): the cost
// of participle's pass under each form of the grammar.
func BenchmarkGrammarForms(b *testing.B) {
	forms := []struct {
		name  string
		parse func(shape string) func()
	}{
		{"nocapture", formParse(theParser())},
		{"count", formParse(participle.MustBuild[formCount](participle.Lexer(lineDefinition{})))},
		{"struct", formParse(participle.MustBuild[formStruct](participle.Lexer(lineDefinition{})))},
	}
	for _, f := range forms {
		for _, n := range []int{1, 4} {
			run := f.parse(streamOf(n))
			b.Run(fmt.Sprintf("%s/records=%d", f.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					run()
				}
			})
		}
	}
}

func formParse[G any](p *participle.Parser[G]) func(shape string) func() {
	return func(shape string) func() {
		lex := upgrade(shape)
		return func() {
			l := *lex
			if _, err := p.ParseFromLexer(&l); err != nil {
				panic(err)
			}
		}
	}
}
