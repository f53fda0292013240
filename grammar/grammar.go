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
	Preamble bool     `parser:"(Blank | Commentline | Extension | Disallowline | Allowline | Usageline | Invalid | Mobileagentrec)*"`
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
// line (draft-ietf-aipref-attach: "rule =/ content-usage"), which is a rule
// of its group as Allow and Disallow are: a User-agent line after it starts
// the next record. Its Line.Kind stays Extension; only the token the
// grammar sees differs (see Line.IsGroupRule).
type record struct {
	Pos   lexer.Position
	Agent bool `parser:"Agentline"`
	Head  bool `parser:"(Agentline | Blank | Commentline | Extension | Invalid | Mobileagentrec)*"`
	Rules bool `parser:"(Disallowline | Allowline | Usageline | Blank | Commentline | Extension | Invalid | Mobileagentrec)*"`
}

// symbols names the terminals: each is a line of one Kind.
var symbols = map[string]lexer.TokenType{
	"EOF":            lexer.EOF,
	"Blank":          lexer.TokenType(Blank) + 1,
	"Commentline":    lexer.TokenType(CommentLine) + 1,
	"Agentline":      lexer.TokenType(AgentLine) + 1,
	"Allowline":      lexer.TokenType(AllowLine) + 1,
	"Disallowline":   lexer.TokenType(DisallowLine) + 1,
	"Mobileagentrec": lexer.TokenType(MobileAgentRec) + 1,
	"Extension":      lexer.TokenType(Extension) + 1,
	"Invalid":        lexer.TokenType(Invalid) + 1,
	"Usageline":      usageToken,
}

// usageToken is the token type of a Content-Usage line: an Extension line
// to every interpreter, a rule line to the grammar.
const usageToken = lexer.TokenType(Invalid) + 2

// tokenType returns the terminal a line is to participle.
func tokenType(l *Line) lexer.TokenType {
	if l.Kind == Extension && l.IsGroupRule() {
		return usageToken
	}
	return lexer.TokenType(l.Kind) + 1
}

// classOf returns the class of a line (see class): a Content-Usage line is
// in the rule class.
func classOf(l *Line) uint8 {
	if l.Kind == Extension && l.IsGroupRule() {
		return class[AllowLine]
	}
	return class[l.Kind]
}

// class groups the kinds the productions never tell apart: every
// production that accepts one kind of a class accepts all of them. A run of
// lines of one class parses exactly as the same lines one token each, so
// the scanner hands participle one token per run, typed by its first line.
var class = [...]uint8{
	Blank: 0, CommentLine: 0, Extension: 0, MobileAgentRec: 0, Invalid: 0,
	AgentLine:    1,
	AllowLine:    2,
	DisallowLine: 2,
}

// lineLexer is the participle lexer: one token per scanned line.
type lineLexer struct {
	lines []*Line
	next  int
}

func (l *lineLexer) Next() (lexer.Token, error) {
	if l.next >= len(l.lines) {
		return lexer.EOFToken(lexer.Position{}), nil
	}
	ln := l.lines[l.next]
	l.next++
	c := classOf(ln)
	for l.next < len(l.lines) && classOf(l.lines[l.next]) == c {
		l.next++
	}
	return lexer.Token{
		Type:  tokenType(ln),
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
