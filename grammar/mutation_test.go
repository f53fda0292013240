package grammar

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/sitetxt/sitetxt/internal/shareddata"
	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// The grammar decides the records, and these tests show it: a grammar
// that differs from grammar.go's in one alternative or one repetition
// (a mutant, built here from struct types of its own) places other
// records on the corpus, so the check that holds the records to the
// drafts' BNF (checkRecords, which TestLoadCorpus runs on every file)
// fails on it. A mutant's nodes go through the File's own tree building
// (File.tree) with the token ranges participle gave them.

// mRoot is robotstxt over the productions R (record) and G (gap).
type mRoot[R, G any] struct {
	Head     []*R        `parser:"( @@"`
	HeadGap  []*G        `parser:"  @@?"`
	Preamble []*preamble `parser:"| @@?"`
	Lead     []*lead     `parser:"  @@? )"`
	Records  []*R        `parser:"( @@"`
	Gaps     []*G        `parser:"  @@? )*"`
}

// mRecordOverBlanks: a blank line no longer ends the rule lines (Blank
// left out of their negation).
type mRecordOverBlanks struct {
	Tokens []lexer.Token
	Usual  struct{} `parser:"  Agentline Ruleline ~Agentline*"`
	Other  struct{} `parser:"| Agentline ~( Ruleline | Blank )* ( Ruleline ~Agentline* )?"`
}

// mRecordOneRun: the rule lines are one run and at most one run after
// it (a repetition * made ?).
type mRecordOneRun struct {
	Tokens []lexer.Token
	Usual  struct{} `parser:"  Agentline Ruleline ~( Blank | Agentline )?"`
	Other  struct{} `parser:"| Agentline ~( Ruleline | Blank )? ( Ruleline ~( Blank | Agentline )? )?"`
}

// mRecordAgentsOverBlanks: a blank line no longer ends the User-agent
// lines.
type mRecordAgentsOverBlanks struct {
	Tokens []lexer.Token
	Usual  struct{} `parser:"  Agentline Ruleline ~( Blank | Agentline )*"`
	Other  struct{} `parser:"| Agentline ~Ruleline* ( Ruleline ~( Blank | Agentline )* )?"`
}

// mRecordNextAgent: a User-agent line after the rule lines no longer
// starts a record.
type mRecordNextAgent struct {
	Tokens []lexer.Token
	Usual  struct{} `parser:"  Agentline Ruleline ~Blank*"`
	Other  struct{} `parser:"| Agentline ~( Ruleline | Blank )* ( Ruleline ~Blank* )?"`
}

// mRecordNeedsRule: a record must have a rule line, as the BNF's
// 1*ruleline says (the leniency that lets it have none removed).
type mRecordNeedsRule struct {
	Tokens []lexer.Token
	Usual  struct{} `parser:"  Agentline Ruleline ~( Blank | Agentline )*"`
	Other  struct{} `parser:"| Agentline ~( Ruleline | Blank )* Ruleline ~( Blank | Agentline )*"`
}

// mGapBlanks: a gap holds blank lines only (an alternative of the
// lenient reading removed).
type mGapBlanks struct {
	Tokens []lexer.Token
	Body   struct{} `parser:"Blank+"`
}

// grammarOf is a grammar's parse of a token stream, as File.tree takes it.
type grammarOf func(lex *lexer.PeekingLexer) (*robotstxt, error)

// mutant builds the parser of root type G and returns its parse, its
// nodes turned into grammar.go's nodes with the tokens participle gave
// them. A panic of participle's (an alternative that matched nothing
// before the end of the input) is the parse's error.
func mutant[G any]() grammarOf {
	p := participle.MustBuild[G](participle.Lexer(lineDefinition{}))
	return func(lex *lexer.PeekingLexer) (tree *robotstxt, err error) {
		defer func() {
			if r := recover(); r != nil {
				tree, err = nil, fmt.Errorf("participle panicked: %v", r)
			}
		}()
		g, err := p.ParseFromLexer(lex)
		if g == nil {
			return nil, err
		}
		return asTree(reflect.ValueOf(g).Elem()), err
	}
}

// asTree returns a robotstxt with the token ranges of the nodes of a
// mutant's root v, field by field.
func asTree(v reflect.Value) *robotstxt {
	t := &robotstxt{}
	tokensOf := func(field string) [][]lexer.Token {
		f := v.FieldByName(field)
		if !f.IsValid() {
			return nil
		}
		out := make([][]lexer.Token, f.Len())
		for i := range out {
			out[i] = f.Index(i).Elem().FieldByName("Tokens").Interface().([]lexer.Token)
		}
		return out
	}
	for _, tk := range tokensOf("Head") {
		t.Head = append(t.Head, &record{Tokens: tk})
	}
	for _, tk := range tokensOf("Records") {
		t.Records = append(t.Records, &record{Tokens: tk})
	}
	for _, tk := range tokensOf("HeadGap") {
		t.HeadGap = append(t.HeadGap, &gap{Tokens: tk})
	}
	for _, tk := range tokensOf("Gaps") {
		t.Gaps = append(t.Gaps, &gap{Tokens: tk})
	}
	for _, tk := range tokensOf("Preamble") {
		t.Preamble = append(t.Preamble, &preamble{Tokens: tk})
	}
	for _, tk := range tokensOf("Lead") {
		t.Lead = append(t.Lead, &lead{Tokens: tk})
	}
	return t
}

// reparse returns a File with the lines of f and the tree grammar g
// makes of them, and the diagnostics of that parse.
func reparse(f *File, g grammarOf) (*File, Diagnostics) {
	slab := &fileSlab{}
	out := &slab.f
	out.Name, out.BOM, out.Lines = f.Name, f.BOM, f.Lines
	src := f.Text()
	src = src[len(f.BOM) : len(src)-len(f.Ignored)]
	lex, _ := tokens(&lineLexer{name: f.Name, src: src, lines: f.Lines})
	tree, err := g(lex)
	s := &scanner{name: f.Name}
	out.tree(s, tree, err, endPos(src, f.Lines), nodeRoom{slab.nodes[:0], slab.recs[:0]})
	return out, s.diags
}

// recordsText is what a test compares of a file's records: each one's
// positions, lines and User-agent lines.
func recordsText(f *File) string {
	var b strings.Builder
	for _, r := range f.Records {
		fmt.Fprintf(&b, "%d:%d %d:%d %v %v\n", r.Pos.Offset, r.Pos.Line, r.EndPos.Offset, r.EndPos.Line, lineNumbers(r.Lines), lineNumbers(r.Agents))
	}
	return b.String()
}

// mutants are the grammars that differ from grammar.go's in one place.
var mutants = []struct {
	name string
	g    func() grammarOf
}{
	{"rule lines run over blank lines", mutant[mRoot[mRecordOverBlanks, gap]]},
	{"rule lines are one run", mutant[mRoot[mRecordOneRun, gap]]},
	{"User-agent lines run over blank lines", mutant[mRoot[mRecordAgentsOverBlanks, gap]]},
	{"a User-agent line after rules starts no record", mutant[mRoot[mRecordNextAgent, gap]]},
	{"gaps hold blank lines only", mutant[mRoot[record, mGapBlanks]]},
	{"a record needs a rule line", mutant[mRoot[mRecordNeedsRule, gap]]},
}

// TestGrammarMutations runs each mutant over the whole corpus: each
// places other records than grammar.go's grammar on some files, and the
// BNF's reading (checkRecords) rejects them; grammar.go's own grammar,
// run the same way, places the records Parse does.
func TestGrammarMutations(t *testing.T) {
	slowtest.Only(t, "six grammars over every corpus file")
	names, _ := filepath.Glob(shareddata.Path("corpus/robots/*.txt"))
	if len(names) == 0 {
		t.Skip("../shared/corpus/robots is absent")
	}
	files := make([]*File, len(names))
	for i, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = Parse(filepath.Base(n), b, Options{MaxSize: -1})
	}
	own := func(lex *lexer.PeekingLexer) (*robotstxt, error) { return theParser().ParseFromLexer(lex) }
	for _, f := range files {
		if got, _ := reparse(f, own); recordsText(got) != recordsText(f) {
			t.Fatalf("%s: grammar.go's grammar through reparse places other records than Parse", f.Name)
		}
	}
	for _, m := range mutants {
		t.Run(m.name, func(t *testing.T) {
			g := m.g()
			changed, rejected, failed := 0, 0, 0
			example := ""
			for _, f := range files {
				got, diags := reparse(f, g)
				if len(diags) > 0 {
					failed++
				}
				if recordsText(got) != recordsText(f) {
					changed++
					if example == "" {
						example = f.Name
					}
				}
				if fmt.Sprint(recordSpans(got)) != fmt.Sprint(bnfRecords(got)) {
					rejected++
				}
			}
			t.Logf("records change on %d of %d files (%s first), the BNF's reading rejects %d, the grammar fails on %d",
				changed, len(files), example, rejected, failed)
			if changed == 0 || rejected == 0 {
				t.Errorf("the mutant places the same records as the grammar on every corpus file: the grammar does not decide them")
			}
		})
	}
}

// TestGrammarFails: a grammar that fails on a file (a mutant: no real
// token stream fails grammar.go's) makes a diagnostic, and the parse
// keeps the nodes participle built before it; it does not panic.
func TestGrammarFails(t *testing.T) {
	f := ParseString("r", "User-agent: a\nDisallow: /\n\n# gone\nUser-agent: b\nDisallow: /b\n", Options{})
	got, diags := reparse(f, mutant[mRoot[record, mGapBlanks]]())
	if len(diags) != 1 || diags[0].Code != CodeGrammar || diags[0].Severity != Error {
		t.Fatalf("diagnostics = %v, want one %q error", diags, CodeGrammar)
	}
	if len(got.Records) != 1 || got.Records[0].Pos.Line != 1 {
		t.Errorf("records = %s, want the first record only", recordsText(got))
	}
}
