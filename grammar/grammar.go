package grammar

import (
	"io"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar. Its terminals are whole lines, classified by the
// scanner; its types are named after the drafts' BNF productions, and its
// EBNF (EBNF returns it) is kept in docs/grammar.ebnf.
//
// The BNF is strict; real files are not. Where the grammar is more lenient
// than the production it names, its doc comment says how.

// The terminals are runs of lines. Only two kinds of line place records:
// User-agent lines, and rule lines: Allow, Disallow and Content-Usage
// (draft-ietf-aipref-attach section 3 extends RFC 9309's rule production:
// "rule =/ content-usage"; see Line.IsGroupRule). Every other line (blank,
// comment, extension, Mobile-agent-server, invalid) is trivia: every
// production of the drafts that accepts it where it stands accepts it
// anywhere among the lines around it, so it never moves a record boundary.
// The scanner therefore hands participle one token per run of lines that
// starts with a User-agent line (Agentlines) or a rule line (Rulelines)
// and goes on through lines of the same class and the trivia
// after them; only trivia at the very start of the file forms a token of
// its own (Otherlines). Consecutive tokens always differ in class, so no
// production needs an alternative.

// robotstxt is the whole file.
//
//	robotstxt    = *blankcomment
//	             | *blankcomment record *( 1*commentblank 1*record )
//	               *blankcomment
//	blankcomment = 1*(blank | commentline)
//	commentblank = *commentline blank *(blankcomment)
//
// Lenient: any line may stand before the first record (File.Preamble: rule
// lines with no User-agent line above them are common), and records need no
// blank line between them (RFC 9309 section 2.1).
type robotstxt struct {
	Preamble bool     `parser:"Otherlines? Rulelines?"`
	Records  []record `parser:"@@*"`
}

// record is a group of User-agent lines and the lines that apply to them.
//
//	record       = *commentline agentline *(commentline | agentline)
//	               1*ruleline *(commentline | ruleline)
//	agentline    = "User-agent:" *space agent  [comment] CRLF
//	ruleline     = (disallowline | allowline | usageline | extension)
//	disallowline = "Disallow" ":" *space path [comment] CRLF
//	allowline    = "Allow" ":" *space rpath [comment] CRLF
//	usageline    = "Content-Usage" ":" *space path-pattern 1*space usage-pref
//	               [comment] CRLF
//	extension    = token ":" *space value [comment] CRLF
//	mobileagentrec = "Mobile-agent-server:" *space path *space (simplified_url | "none")
//
// Lenient: blank, extension and invalid lines may stand among the
// User-agent lines, whose run ends at the first Allow or Disallow line (as
// RFC 9309 section 2.1 groups them); blank and invalid lines may stand among
// the rule lines; a record may have no rule line. Comment lines before a
// User-agent line stay with whatever precedes it. A Mobile-agent-server line
// is an extension line with a production of its own. So is a Content-Usage
// line, which is a rule of its group as Allow and Disallow are: a
// User-agent line after it starts the next record. Its Line.Kind stays
// Extension; only its class here differs (classOf).
type record struct {
	Pos    lexer.Position
	Agents bool `parser:"Agentlines"`
	Rules  bool `parser:"Rulelines?"`
}

// symbols names the terminals: each is a run of lines of one class with
// the trivia after it.
var symbols = map[string]lexer.TokenType{
	"EOF":        lexer.EOF,
	"Otherlines": tOther,
	"Agentlines": tAgent,
	"Rulelines":  tRule,
}

// The token types: the class of a run's first line.
const (
	tOther lexer.TokenType = iota + 1
	tAgent
	tRule
)

// class is the token type a line of each kind starts, or tOther for
// trivia.
var class = [...]lexer.TokenType{
	Blank: tOther, CommentLine: tOther, Extension: tOther, MobileAgentRec: tOther, Invalid: tOther,
	AgentLine:    tAgent,
	AllowLine:    tRule,
	DisallowLine: tRule,
}

// classOf returns the token type a line starts: class by its kind, except
// that a Content-Usage line is a rule line.
func classOf(l *Line) lexer.TokenType {
	if l.Kind == Extension && l.IsGroupRule() {
		return tRule
	}
	return class[l.Kind]
}

// lineLexer is the participle lexer: one token per run of lines.
type lineLexer struct {
	lines []*Line
	next  int
}

func (l *lineLexer) Next() (lexer.Token, error) {
	if l.next >= len(l.lines) {
		return lexer.EOFToken(lexer.Position{}), nil
	}
	ln := l.lines[l.next]
	c := classOf(ln)
	l.next++
	for l.next < len(l.lines) {
		if k := classOf(l.lines[l.next]); k != c && k != tOther {
			break
		}
		l.next++
	}
	return lexer.Token{
		Type:  c,
		Value: ln.Raw,
		Pos:   lexer.Position{Offset: ln.Pos.Offset, Line: ln.Pos.Line, Column: 1},
	}, nil
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
