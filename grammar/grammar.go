package grammar

import (
	"io"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar. Its terminals are runs of classified lines; its
// types are named after the drafts' BNF productions, and its EBNF (EBNF
// returns it) is kept in docs/grammar.ebnf.
//
// The BNF is strict; real files are not. Where the grammar is more lenient
// than the production it names, its doc comment says how.

// The terminals are runs of lines. Three kinds of line place the drafts'
// records: User-agent lines, rule lines (Allow and Disallow) and blank
// lines, which end a record. Only lines in the BNF's own form count: a
// misspelt field (Line.Typo) or a line with no colon (Line.NoColon) is not
// an agentline or a ruleline of the BNF. Every other line (comment,
// extension, Content-Usage, Mobile-agent-server, invalid) is trivia: every
// production of the drafts that accepts it where it stands accepts it
// anywhere among the lines around it, so it never moves a record boundary.
// The scanner therefore cuts the lines into runs: a User-agent line and
// the User-agent lines and trivia after it (Agentlines), a rule line and
// the rule lines and trivia after it (Rulelines), or the lines outside
// every record (a gap): from a blank line, or the start of the file, up to
// the next User-agent line. It hands participle one token per Agentlines
// or Rulelines run and drops the gaps: they separate records, which is all
// they do (a record ends where the gap after it starts, at its blank
// line), so the grammar costs no node per blank line. Every Agentlines
// token is followed by a Rulelines one, an empty run where the record has
// no rule line (the BNF asks for one; see record below), so the production
// needs no alternative and no optional part.

// robotstxt is the whole file, and its one field is the drafts' record:
// a run of User-agent lines (Agentlines) and the run of rule lines after
// it (Rulelines), repeated.
//
//	robotstxt    = *blankcomment
//	             | *blankcomment record *( 1*commentblank 1*record )
//	               *blankcomment
//	blankcomment = 1*(blank | commentline)
//	commentblank = *commentline blank *(blankcomment)
//
//	record       = *commentline agentline *(commentline | agentline)
//	               1*ruleline *(commentline | ruleline)
//	agentline    = "User-agent:" *space agent  [comment] CRLF
//	ruleline     = (disallowline | allowline | extension)
//	disallowline = "Disallow" ":" *space path [comment] CRLF
//	allowline    = "Allow" ":" *space rpath [comment] CRLF
//	extension    = token ":" *space value [comment] CRLF
//
// Lenient: any line may stand outside the records (File.Preamble: rule
// lines with no User-agent line above them are common, and so are rules
// after a blank line that ended their record); all of them, blank lines
// included, are the gaps between the records, which the lexer drops.
// Within a record, extension and invalid lines may stand among the
// User-agent lines, whose run ends at the first Allow or Disallow line;
// invalid lines may stand among the rule lines; a record may have no rule
// line (its Rulelines run is empty). Comment lines before a User-agent line stay with whatever precedes
// it. A Mobile-agent-server line (mobileagentrec) and a Content-Usage line
// are extension lines with productions of their own.
//
// The grammar captures nothing, and a record is not a production of its
// own (a struct): record k starts at the k-th Agentlines token, whose
// first line the lexer keeps (fileSlab.tokens), and it ends where the gap
// after it starts (its blank line), or at the next record. Measured on
// participle v2.1.4 over a token stream of one record
// (BenchmarkGrammarForms): a record struct captured with @@ costs 21
// allocations a parse, a record count captured on each Agentlines token
// 16, and this form 9; each further record costs about 13, 10 and 6
// (TestGrammarAllocs keeps it so). An optional Rulelines (no empty run)
// would cost 2 more a record.
type robotstxt struct {
	Records struct{} `parser:"(Agentlines Rulelines)*"`
}

// symbols names the terminals: each is a run of lines (see above).
var symbols = map[string]lexer.TokenType{
	"EOF":        lexer.EOF,
	"Agentlines": tAgent,
	"Rulelines":  tRule,
}

// The classes of line, and the token types: the class of a run's first
// line. Trivia (tOther) starts no run of its own except at the start of
// the file, where it starts a gap. Gaps are not tokens: the lexer drops
// them.
const (
	tOther lexer.TokenType = iota + 1
	tGap
	tAgent
	tRule
)

// classOf returns the class of a line in the drafts' BNF.
func classOf(l *Line) lexer.TokenType {
	switch l.Kind {
	case Blank:
		return tGap
	case AgentLine:
		if l.inBNF() {
			return tAgent
		}
	case AllowLine, DisallowLine:
		if l.inBNF() {
			return tRule
		}
	}
	return tOther
}

// lineLexer is the participle lexer: one token per Agentlines or
// Rulelines run of lines, and an empty Rulelines run after an Agentlines
// run that a blank line or the end of the file follows; the gaps are
// dropped. A token is its type only: the grammar captures no value and no
// position (a record starts at its Agentlines run, whose first line the
// lexer's user keeps from start), so files of the same shape give the same
// tokens (see fileSlab.tokens).
type lineLexer struct {
	lines []*Line
	next  int
	start int             // the first line of the last token's run
	last  lexer.TokenType // the last token's type
}

func (l *lineLexer) Next() (lexer.Token, error) {
	for l.next < len(l.lines) {
		c := classOf(l.lines[l.next])
		if l.next == 0 && c != tAgent {
			c = tGap // the lines before the first record
		}
		if l.last == tAgent && c != tRule {
			// A blank line after the User-agent lines: no rule line.
			return l.emptyRule(), nil
		}
		l.start = l.next
		l.next++
		for l.next < len(l.lines) {
			k := classOf(l.lines[l.next])
			if c == tGap && k != tAgent || k == c || k == tOther {
				l.next++
				continue
			}
			break
		}
		if c != tGap {
			l.last = c
			return lexer.Token{Type: c}, nil
		}
	}
	if l.last == tAgent {
		return l.emptyRule(), nil // the file ends after the User-agent lines
	}
	return lexer.Token{Type: lexer.EOF}, nil
}

// emptyRule returns the empty Rulelines run of a record with no rule line.
func (l *lineLexer) emptyRule() lexer.Token {
	l.last, l.start = tRule, l.next
	return lexer.Token{Type: tRule}
}

// lineDefinition is the lexer.Definition participle is built with. Parse
// does not call Lex: it hands the scanner's lines to participle directly.
type lineDefinition struct{}

func (lineDefinition) Symbols() map[string]lexer.TokenType { return symbols }

func (lineDefinition) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	s := &scanner{name: filename, src: string(src)}
	s.scan(BOMLen(s.src))
	return &lineLexer{lines: s.lines}, nil
}

var (
	parserOnce sync.Once
	parser     *participle.Parser[robotstxt]
)

func theParser() *participle.Parser[robotstxt] {
	parserOnce.Do(func() {
		parser = participle.MustBuild[robotstxt](participle.Lexer(lineDefinition{}))
	})
	return parser
}

// EBNF returns the grammar in EBNF, as participle prints it.
func EBNF() string { return theParser().String() }
