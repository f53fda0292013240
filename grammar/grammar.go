package grammar

import (
	"io"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar. Its productions are the drafts' BNF (section
// 3.3 of Koster's 1996 draft and of its 1997 revision, the format section
// of the data.txt draft) over the BNF's line productions: each terminal is
// a class of line (classOf), as a lexer's terminals are classes of word,
// and ~x, participle's negation, is a line of any class but x. EBNF
// returns the grammar as participle prints it, docs/grammar.ebnf keeps it
// and docs/grammar.md maps each production to the draft's text.
//
// The lexer (lineLexer) decides one thing: the class of each line. It
// hands participle one token per run of consecutive lines of one class (a
// lexical run, as a lexer reads a run of letters as one word), so that
// participle reads one token where a record has ten Disallow lines; a
// token is its class and the position of its run's first line, and has
// no value (participle boxes the value of every token it reads). Where a
// record, a gap or the preamble starts and ends is decided by the
// productions below and nowhere else: a node's lines are the lines of
// the tokens participle gave it (File.tree).
//
// The BNF is strict; real files are not. Each leniency is an alternative
// or a repetition of a production, and its comment says how it departs
// from the BNF. Where the order of alternatives or the shape of a
// repetition is there for speed (participle tries alternatives in turn,
// and each try and each repetition costs it an allocation), the comment
// says so: the language is the same.

// The classes of line: the terminals of the grammar. Each is one line
// production of the BNF (TestLineClasses holds each to it), but for the
// two lenient classes, which no production of the BNF takes. A line's
// class is set by the scanner (split), once.
const (
	// tBlank is blank = *space CRLF.
	tBlank lexer.TokenType = iota + 1
	// tComment is commentline = comment CRLF.
	tComment
	// tAgent is agentline = "User-agent:" *space agent [comment] CRLF.
	tAgent
	// tRule is ruleline = (disallowline | allowline), the 1996 draft's:
	// disallowline = "Disallow" ":" *space path [comment] CRLF and
	// allowline = "Allow" ":" *space rpath [comment] CRLF.
	tRule
	// tExtension is extension = token ":" *space value [comment] CRLF, the
	// 1997 revision's line for any other field (Crawl-delay, Sitemap,
	// Content-Usage; Mobile-agent-server, its draft's mobileagentrec),
	// whose field name is a token (RFC 1945: no control byte, space or
	// separator such as "<" or "/").
	tExtension
	// tAgentlike is a line that lenient readers take for a User-agent
	// line but that is not an agentline: a misspelt field (Line.Typo:
	// "useragent", "User agent") or no colon (Line.NoColon: "User-agent
	// bot"). Lenient: no production of the BNF takes it.
	tAgentlike
	// tInvalid is any other line that no production of the BNF takes: no
	// field (Kind Invalid), a misspelt or colon-less Allow, Disallow or
	// extension line ("disalow: /", "Disallow /"), or a field name that
	// is no token (the lines of an HTML page: "<a href=x>more: here").
	// Lenient: no production.
	tInvalid
)

// symbols names the classes for participle; EBNF prints them lower case.
var symbols = map[string]lexer.TokenType{
	"EOF":         lexer.EOF,
	"Blank":       tBlank,
	"Commentline": tComment,
	"Agentline":   tAgent,
	"Ruleline":    tRule,
	"Extension":   tExtension,
	"Agentlike":   tAgentlike,
	"Invalid":     tInvalid,
}

// classOf returns the class of a line from its Kind, whether it is in
// the BNF's own form (Line.inBNF) and, for an extension, whether its
// field name is a token.
func classOf(l *Line) lexer.TokenType {
	switch l.Kind {
	case Blank:
		return tBlank
	case CommentLine:
		return tComment
	case AgentLine:
		if l.inBNF() {
			return tAgent
		}
		return tAgentlike
	case AllowLine, DisallowLine:
		if l.inBNF() {
			return tRule
		}
	case Extension, MobileAgentRec:
		if l.inBNF() && isToken(l.Field) {
			return tExtension
		}
	}
	return tInvalid
}

// isToken reports whether s is a token of RFC 1945 (section 2.2), which
// the BNF's extension line takes for its field: one or more US-ASCII
// bytes that are no control byte, space or separator.
func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7F || separators[c] {
			return false
		}
	}
	return s != ""
}

// separators are RFC 1945's tspecials, which a token does not hold.
var separators = [128]bool{'(': true, ')': true, '<': true, '>': true, '@': true, ',': true, ';': true,
	':': true, '\\': true, '"': true, '/': true, '[': true, ']': true, '?': true, '=': true, '{': true, '}': true}

// robotstxt is the file:
//
//	robotstxt    = *blankcomment
//	             | *blankcomment record *( 1*commentblank 1*record )
//	               *blankcomment
//
// that is, the file's leading *blankcomment (Preamble, then Lead), and
// its records, each with the gap after it (Gap: the BNF's commentblank,
// or at the end its *blankcomment). participle decides each node; the
// file's top level is every one of them, in order (File.Nodes).
//
// The file starts with its first record and the gap after it, or with
// its preamble, its lead or both; the alternative with the record is
// tried first, for speed: most files start with a User-agent line. The
// other matches nothing only in an empty file: a token stream that is not
// empty starts with a line that Record, Preamble or Lead takes (the
// classes are these three productions' first lines; participle panics on
// an alternative that matches nothing before the end of its input, and
// TestLoadCorpus and FuzzParse hold that none does).
//
// Lenient: a record may follow a record with no gap between them, as the
// BNF's 1*record allows (a User-agent line after rule lines starts one);
// lines of any class but agentline may stand in a gap (see gap, preamble
// and lead).
type robotstxt struct {
	Head     []*record   `parser:"( @@"`
	HeadGap  []*gap      `parser:"  @@?"`
	Preamble []*preamble `parser:"| @@?"`
	Lead     []*lead     `parser:"  @@? )"`
	Records  []*record   `parser:"( @@"`
	Gaps     []*gap      `parser:"  @@? )*"`
}

// record is a record:
//
//	record    = *commentline agentline *(commentline | agentline)
//	            1*ruleline *(commentline | ruleline)
//	ruleline  = (disallowline | allowline | extension)
//
// A record starts at a User-agent line (its run of User-agent lines) and
// has its rule lines at once, or other lines first: more User-agent
// lines, comments, extensions, and then its rule lines, if any. Its rule
// lines, and the lines among and after them, run to the blank line that
// starts the gap after it or to the User-agent line that starts the next
// record. The usual record, rule lines at once, is the first alternative,
// for speed: the second takes it too.
//
// Lenient, where the BNF is strict:
//   - The record starts at its first User-agent line: comment lines
//     before it (the BNF's leading *commentline) stay in the gap or
//     preamble before it, where readers that end a group at a blank line
//     expect them.
//   - Extension lines (Crawl-delay, Sitemap, Content-Usage), agentlike and
//     invalid lines may stand among the User-agent lines: the 1997 BNF's
//     ruleline takes an extension line, but a Crawl-delay line between
//     two User-agent lines does not end the record's User-agent lines.
//   - A record may have no rule line (the BNF asks for 1*ruleline): a
//     User-agent line with a blank line or the end of the file after it.
//   - Agentlike and invalid lines may stand among the rule lines.
type record struct {
	Record
	Tokens []lexer.Token
	// Usual is agentline 1*ruleline *(commentline | ruleline); Other is
	// agentline *(commentline | agentline), then the same rule lines,
	// which the record may lack.
	Usual struct{} `parser:"  Agentline Ruleline ~( Blank | Agentline )*"`
	Other struct{} `parser:"| Agentline ~( Ruleline | Blank )* ( Ruleline ~( Blank | Agentline )* )?"`
}

// gap is the gap after a record:
//
//	commentblank = *commentline blank *(blankcomment)
//	blankcomment = 1*(blank | commentline)
//
// It starts at the blank line that ends the record (the comment lines
// before it are the record's, as its *(commentline | ruleline) reads
// them) and runs to the next User-agent line, or the end of the file.
//
// Lenient: a line of any class but agentline may stand in a gap. Rule
// lines after a blank line that ended their record are common, and so
// are Sitemap lines; an agentlike line starts no record.
type gap struct {
	Gap
	Tokens []lexer.Token
	Body   struct{} `parser:"Blank ~Agentline*"`
}

// preamble is the file's leading *blankcomment, up to its first
// User-agent line of any spelling (File.Preamble):
//
//	blankcomment = 1*(blank | commentline)
//
// Lenient: invalid, extension and rule lines may stand in it (rules
// before any User-agent line are common; lint reports them). The
// alternatives are in the order of their frequency in the corpus's
// preambles (for speed: invalid lines are most of an HTML page).
type preamble struct {
	Gap
	Tokens []lexer.Token
	Body   struct{} `parser:"( Blank | Invalid | Commentline | Extension | Ruleline )+"`
}

// lead is the rest of the file's leading *blankcomment when an agentlike
// line (a misspelt User-agent line) ends its preamble: from that line to
// the first record. Lenient: the BNF has no such line; it starts no
// record.
type lead struct {
	Gap
	Tokens []lexer.Token
	Body   struct{} `parser:"Agentlike ~Agentline*"`
}

// lineLexer is the participle lexer: one token per run of consecutive
// lines of one class, then EOF. It decides nothing but the class.
type lineLexer struct {
	name  string
	src   string // the text the lines cover
	lines []*Line
	next  int
}

func (l *lineLexer) Next() (lexer.Token, error) {
	start := l.next
	if start == len(l.lines) {
		return lexer.Token{Type: lexer.EOF, Pos: l.pos(start)}, nil
	}
	c := l.lines[start].class
	for l.next++; l.next < len(l.lines) && l.lines[l.next].class == c; l.next++ {
	}
	return lexer.Token{Type: lexer.TokenType(c), Pos: l.pos(start)}, nil
}

// pos returns where line i starts, or for i == len(lines) where the input
// ends.
func (l *lineLexer) pos(i int) lexer.Position {
	var p Pos
	if i < len(l.lines) {
		p = l.lines[i].Pos
	} else {
		p = endPos(l.src, l.lines)
	}
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

// A tokenBuf is a token stream for participle that parses reuse: most
// files have a few tokens (a record of ten lines is two), and making a
// stream for each (lexer.Upgrade: the stream, its token list grown token
// by token) costs a small file more than its lines. It is made once, by
// lexer.Upgrade, with room for streamRoom tokens; a parse writes the
// lexer's tokens into it (fill), up to its EOF token, and participle
// reads up to that EOF token and never past it. The tokens of a node
// participle returns are a part of the stream: File.tree reads them and
// drops them before the tokenBuf goes back to streams.
type tokenBuf struct{ pl *lexer.PeekingLexer }

// streamRoom is how many tokens a stream holds, EOF included: the
// corpus's median file has 3.
const streamRoom = 32

var streams = sync.Pool{New: func() any {
	pl, _ := lexer.Upgrade(&fillLexer{n: streamRoom - 1}) // fillLexer.Next returns no error
	return &tokenBuf{pl: pl}
}}

// fill writes the tokens of lx into the stream and rewinds it, and
// returns it; or returns nil, when they do not fit (lx is then spent).
func (st *tokenBuf) fill(lx *lineLexer) *lexer.PeekingLexer {
	room := st.pl.Range(0, streamRoom)
	for i := range room {
		room[i], _ = lx.Next()
		if room[i].Type == lexer.EOF {
			st.pl.LoadCheckpoint(lexer.Checkpoint{})
			return st.pl
		}
	}
	return nil
}

// fillLexer is the lexer a stream is made with: n tokens, then EOF.
type fillLexer struct{ n int }

func (l *fillLexer) Next() (lexer.Token, error) {
	if l.n == 0 {
		return lexer.Token{Type: lexer.EOF}, nil
	}
	l.n--
	return lexer.Token{Type: tBlank}, nil
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
