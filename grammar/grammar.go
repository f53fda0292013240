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
// The lexer (lineLexer) therefore cuts the lines into runs, one token
// each: a User-agent line and the User-agent lines and trivia after it
// (Agentlines), a rule line and the rule lines and trivia after it
// (Rulelines). The lines outside every record (a gap: the BNF's
// blankcomment and what stands among it, from a blank line, or the start
// of the file, up to the next User-agent line) are no token, as a lexer
// skips white space: no production reads them, and a record's end is
// where its last token's run ends (runEnd). A token is its type and its
// Pos, where its run's first line starts; it has no Value (participle
// boxes the value of every token it reads, and the run's lines are the
// File's). Every Agentlines token is followed by a Rulelines one, an empty
// run where the record has no rule line (the BNF asks for one; see record
// below), so the production needs no alternative.
//
// The token stream is therefore always (Agentlines Rulelines)* EOF, which
// is a robotstxt: the grammar cannot fail on it (TestLoadCorpus and
// FuzzParse check it). Should it fail all the same, the parse keeps what
// participle returned and says so in a diagnostic (CodeGrammar).

// robotstxt is the whole file: the drafts' records (Record) and the gaps
// between them.
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
// Lenient: any line may stand outside the records, in a Gap (File.Preamble:
// rule lines with no User-agent line above them are common, and so are
// rules after a blank line that ended their record). Within a record,
// extension and invalid lines may stand among the User-agent lines, whose
// run ends at the first Allow or Disallow line; invalid lines may stand
// among the rule lines; a record may have no rule line (its Rulelines run
// is empty). Comment lines before a User-agent line stay with whatever
// precedes it. A Mobile-agent-server line (mobileagentrec) and a
// Content-Usage line are extension lines with productions of their own in
// their drafts; to the records they are trivia, so the grammar has no
// node for them (packages mobileagent and robots read them from
// File.Lines), nor for the data.txt record form, whose records are the
// same records.
//
// participle builds the tree: Records is what it returns, a record node
// for each record of the file.
type robotstxt struct {
	Records []*record `parser:"@@*"`
}

// record is the node participle builds for a record: the Record the tree
// shows, and the tokens participle sets on the node (Tokens: the
// record's Agentlines and Rulelines), which File.span turns into the
// Record's positions: where the first token's run starts and where the
// last one's ends. participle's tokens stay here: none of its types leave
// the package. (participle boxes the tokens' slice once per record, where
// Pos and EndPos fields cost a boxed lexer.Position each, and Pos one
// more on the repetition's last, failing try.)
type record struct {
	Record
	Tokens []lexer.Token
	// Runs holds the production: it captures nothing.
	Runs struct{} `parser:"Agentlines Rulelines"`
}

// symbols names the terminals: each is a run of lines (see above).
var symbols = map[string]lexer.TokenType{
	"EOF":        lexer.EOF,
	"Agentlines": tAgent,
	"Rulelines":  tRule,
}

// The classes of line, and the token types: the class of a run's first
// line. Trivia (tOther) starts no run of its own; a blank line (tGap)
// starts a gap, which is no token.
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

// lineLexer is the participle lexer: one token per run of lines
// (Agentlines, Rulelines), an empty Rulelines run after an Agentlines run
// that a blank line or the end of the file follows, and none for a gap.
type lineLexer struct {
	name  string
	src   string // the text the lines cover
	lines []*Line
	next  int
	last  lexer.TokenType // the last token's type
}

func (l *lineLexer) Next() (lexer.Token, error) {
	if l.last != tAgent {
		for l.next < len(l.lines) && classOf(l.lines[l.next]) != tAgent {
			l.next++ // a gap: no token
		}
	}
	if l.next == len(l.lines) {
		if l.last == tAgent {
			return l.emptyRule(), nil // the file ends after the User-agent lines
		}
		return lexer.Token{Type: lexer.EOF, Pos: l.pos(l.next)}, nil
	}
	c := classOf(l.lines[l.next])
	if l.last == tAgent && c != tRule {
		// A blank line after the User-agent lines: no rule line.
		return l.emptyRule(), nil
	}
	start := l.next
	l.next = runEnd(l.lines, start+1, c)
	l.last = c
	p := l.pos(start)
	return lexer.Token{Type: c, Pos: p}, nil
}

// runEnd returns the index of the line after the run of class c (tAgent
// or tRule) that continues at line i: the run goes on over lines of its
// class and trivia.
func runEnd(lines []*Line, i int, c lexer.TokenType) int {
	for ; i < len(lines); i++ {
		if k := classOf(lines[i]); k != c && k != tOther {
			break
		}
	}
	return i
}

// emptyRule returns the empty Rulelines run of a record with no rule line.
func (l *lineLexer) emptyRule() lexer.Token {
	l.last = tRule
	return lexer.Token{Type: tRule, Pos: l.pos(l.next)}
}

// pos returns where line i starts, or for i == len(lines) where the input
// ends.
func (l *lineLexer) pos(i int) lexer.Position {
	if i < len(l.lines) {
		p := l.lines[i].Pos
		return lexer.Position{Filename: l.name, Offset: p.Offset, Line: p.Line, Column: p.Column}
	}
	p := endPos(l.src, l.lines)
	return lexer.Position{Filename: l.name, Offset: p.Offset, Line: p.Line, Column: p.Column}
}

// endPos returns the position just past the last of lines, which cover
// src: the start of the line after them, or the end of a last line with no
// end-of-line bytes.
func endPos(src string, lines []*Line) Pos {
	n := len(lines)
	if n == 0 {
		return PosAt(src, len(src))
	}
	if end := lines[n-1].End(); lines[n-1].eol == eolNone {
		return end
	} else {
		return Pos{Offset: end.Offset + len(lines[n-1].EOL()), Line: end.Line + 1, Column: 1}
	}
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
	return &lineLexer{name: filename, src: s.src, lines: s.lines}, nil
}

// tokens reads the token stream of lx for participle.
func tokens(lx lexer.Lexer) (*lexer.PeekingLexer, error) { return lexer.Upgrade(lx) }

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
