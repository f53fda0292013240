package grammar

import (
	"fmt"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// streamLexer gives the tokens of a stream of token types, one byte each,
// with no text: a token stream that no input yields, for the tests and
// benchmarks of participle's pass alone.
type streamLexer struct {
	stream string
	next   int
}

func (l *streamLexer) Next() (lexer.Token, error) {
	if l.next == len(l.stream) {
		return lexer.Token{Type: lexer.EOF}, nil
	}
	l.next++
	return lexer.Token{Type: lexer.TokenType(l.stream[l.next-1]), Pos: lexer.Position{Line: l.next, Column: 1}}, nil
}

func streamOf(types ...lexer.TokenType) string {
	b := make([]byte, len(types))
	for i, t := range types {
		b[i] = byte(t)
	}
	return string(b)
}

// recordsStream returns the token stream of n records.
func recordsStream(n int) string {
	return strings.Repeat(streamOf(tAgent, tRule), n)
}

// TestGrammarFails: a token stream the lexer never makes fails the
// grammar, and the parse says so in a diagnostic, keeping the records
// participle built before it; it does not panic.
func TestGrammarFails(t *testing.T) {
	tests := []struct {
		name    string
		stream  string
		records int
	}{
		{"agent without rules", streamOf(tAgent, tAgent, tRule), 0},
		{"rules without agent", streamOf(tAgent, tRule, tRule), 1},
		{"rules first", streamOf(tRule, tAgent, tRule), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lex, err := tokens(&streamLexer{stream: tt.stream})
			if err != nil {
				t.Fatal(err)
			}
			f := &File{Name: "r"}
			s := &scanner{name: "r"}
			f.Lines = make([]*Line, len(tt.stream))
			for i := range f.Lines {
				f.Lines[i] = &Line{Pos: Pos{Offset: i, Line: i + 1, Column: 1}, eol: eolLF}
			}
			f.tree(s, lex, Pos{Offset: len(tt.stream), Line: len(tt.stream) + 1, Column: 1}, nil)
			if len(s.diags) != 1 || s.diags[0].Code != CodeGrammar || s.diags[0].Severity != Error {
				t.Fatalf("diagnostics = %v, want one %q error", s.diags, CodeGrammar)
			}
			if len(f.Records) != tt.records {
				t.Errorf("len(Records) = %d, want %d", len(f.Records), tt.records)
			}
		})
	}
}

// parseStream runs participle's pass over a token stream.
func parseStream(stream string) func() {
	return func() {
		lex, _ := tokens(&streamLexer{stream: stream})
		if _, err := theParser().ParseFromLexer(lex); err != nil {
			panic(err)
		}
	}
}

// TestGrammarAllocs keeps the cost of participle's pass (reading the
// token stream and building the records) where it was measured:
// participle v2.1.4, lexer.Upgrade included, over the tokens of 1 and 4
// records (see BenchmarkGrammar).
func TestGrammarAllocs(t *testing.T) {
	for _, tt := range []struct{ records, most int }{{1, 28}, {4, 75}} {
		got := testing.AllocsPerRun(100, parseStream(recordsStream(tt.records)))
		if got > float64(tt.most) {
			t.Errorf("participle over %d records: %.0f allocations, want at most %d", tt.records, got, tt.most)
		}
	}
}

// BenchmarkGrammar is synthetic (token streams, not files): participle's
// pass alone over the tokens of 1, 4 and 16 records.
func BenchmarkGrammar(b *testing.B) {
	for _, n := range []int{1, 4, 16} {
		run := parseStream(recordsStream(n))
		b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				run()
			}
		})
	}
}

// TestParseAllocs keeps what a parse allocates besides participle's pass
// (TestGrammarAllocs, whose stream lexer costs one allocation the parse
// does not make): the File with its lexer and, for a file of at most
// smallFile lines, the lines themselves (one allocation); a larger file
// adds its line store and the list of its lines (two).
func TestParseAllocs(t *testing.T) {
	record := "# the crawlers\nUser-agent: *\nDisallow: /private/\nAllow: /private/open\n"
	participle := testing.AllocsPerRun(100, parseStream(recordsStream(1))) - 1
	for _, tt := range []struct {
		name  string
		src   string
		extra float64
	}{
		{"4 lines", record, 1},
		{"10 lines", record + strings.Repeat("Disallow: /x\n", 6), 1},
		{"11 lines", record + strings.Repeat("Disallow: /x\n", 7), 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := testing.AllocsPerRun(100, func() { ParseString("robots.txt", tt.src, Options{}) })
			if want := participle + tt.extra; got != want {
				t.Errorf("ParseString(%q) allocations = %.0f, want %.0f (participle's %.0f and %.0f)", tt.src, got, want, participle, tt.extra)
			}
		})
	}
}
