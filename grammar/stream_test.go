package grammar

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/alecthomas/participle/v2/lexer"
)

// streamLexer gives the tokens of a stream of classes, one byte each,
// with no text: a token stream that no input yields, for the tests and
// benchmarks of participle's pass alone.
type streamLexer struct {
	stream string
	next   int
}

func (l *streamLexer) Next() (lexer.Token, error) {
	if l.next == len(l.stream) {
		return lexer.Token{Type: lexer.EOF, Pos: lexer.Position{Line: l.next + 1, Column: 1}}, nil
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

// recordsStream returns the token stream of n records, each with a gap
// after it but the last: the corpus' commonest file shape.
func recordsStream(n int) string {
	return strings.TrimSuffix(strings.Repeat(streamOf(tAgent, tRule, tBlank), n), streamOf(tBlank))
}

// parseStream runs participle's pass over a token stream, as Parse does:
// in a reused token stream (tokenBuf) when it fits.
func parseStream(stream string) func() {
	return func() {
		st := streams.Get().(*tokenBuf)
		defer streams.Put(st)
		lex := st.pl
		if room := lex.Range(0, streamRoom); len(stream) < len(room) {
			lx := streamLexer{stream: stream}
			for i := 0; i <= len(stream); i++ {
				room[i], _ = lx.Next()
			}
			lex.LoadCheckpoint(lexer.Checkpoint{})
		} else {
			lex, _ = tokens(&streamLexer{stream: stream})
		}
		if _, err := theParser().ParseFromLexer(lex); err != nil {
			panic(err)
		}
	}
}

// TestGrammarAllocs keeps the cost of participle's pass (reading the
// token stream and building the nodes) where it was measured: participle
// v2.1.4, in a reused token stream (tokenBuf), over the tokens of 1 and 4
// records (see BenchmarkGrammar): 30 for the first record, 42 for each
// gap and record after it (with a stream made by lexer.Upgrade for each
// parse, 36 and 43; on main before issue 43, whose grammar read a record
// as two tokens and no gaps: 28 and 75).
func TestGrammarAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("under -race, sync.Pool drops reused token streams on purpose")
	}
	for _, tt := range []struct{ records, most int }{{1, 30}, {4, 156}} {
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
// (TestGrammarAllocs): the File and, for a file of at most smallFile
// lines, the lines themselves (one allocation); a larger file adds its
// line store and the list of its lines (two).
func TestParseAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("under -race, sync.Pool drops reused token streams on purpose")
	}
	record := "User-agent: *\nDisallow: /private/\nAllow: /private/open\n"
	participle := testing.AllocsPerRun(100, parseStream(recordsStream(1)))
	for _, tt := range []struct {
		name  string
		src   string
		extra float64
	}{
		{"3 lines", record, 1},
		{"10 lines", record + strings.Repeat("Disallow: /x\n", 7), 1},
		{"11 lines", record + strings.Repeat("Disallow: /x\n", 8), 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := testing.AllocsPerRun(100, func() { ParseString("robots.txt", tt.src, Options{}) })
			if want := participle + tt.extra; got != want {
				t.Errorf("ParseString(%q) allocations = %.0f, want %.0f (participle's %.0f and %.0f)", tt.src, got, want, participle, tt.extra)
			}
		})
	}
}

// TestSmallSlabSize checks that a small file's slab (its File, node lists
// and lines) stays in Go's 1280-byte size class, with the 8-byte header
// of an object of pointers over 512 bytes.
func TestSmallSlabSize(t *testing.T) {
	if n := unsafe.Sizeof(smallSlab{}); n > 1280-8 {
		t.Errorf("smallSlab is %d bytes, want at most %d", n, 1280-8)
	}
}
