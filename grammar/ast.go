package grammar

import "strings"

// Kind classifies a line by its field: each kind is one line production
// of the drafts' BNF. (The grammar's terminal, a line's class, adds
// whether the line is in the BNF's own form; see grammar.go.)
type Kind uint8

// The kinds of line. The names are the BNF's.
const (
	Blank          Kind = iota // blank = *space CRLF
	CommentLine                // commentline = comment CRLF
	AgentLine                  // agentline = "User-agent:" *space agent [comment] CRLF
	AllowLine                  // allowline = "Allow" ":" *space rpath [comment] CRLF
	DisallowLine               // disallowline = "Disallow" ":" *space path [comment] CRLF
	MobileAgentRec             // mobileagentrec = "Mobile-agent-server:" *space path *space (simplified_url | "none")
	Extension                  // extension = token ":" *space value [comment] CRLF
	Invalid                    // not in the BNF: no field, no colon
)

var kindNames = [...]string{"blank", "commentline", "agentline", "allowline", "disallowline", "mobileagentrec", "extension", "invalid"}

// String returns the BNF name of the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// MarshalText encodes the kind as its BNF name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// IsRule reports whether the kind is an Allow or Disallow line: the lines
// that end the User-agent head of a record.
func (k Kind) IsRule() bool { return k == AllowLine || k == DisallowLine }

// IsGroupRule reports whether the line is a rule of its group, which ends
// the User-agent head of a record: an Allow or Disallow line, or a
// Content-Usage extension line (draft-ietf-aipref-attach section 3 extends
// RFC 9309's rule production with it). A Content-Usage line keeps the Kind
// Extension.
func (l *Line) IsGroupRule() bool {
	if l.Kind.IsRule() {
		return true
	}
	return l.Kind == Extension && !l.NoColon && !l.Typo && l.FieldIs("content-usage")
}

// Line is one line of input, exactly as read, with its parts.
//
// Raw+EOL() of every line of a File, in order, after File.BOM and followed by
// File.Ignored, is the input byte for byte. Field, Value and Comment() are
// substrings of Raw (cut at the line-length limit): Field and Value without
// surrounding white space, Comment() from its '#' to the end of the line.
type Line struct {
	Pos   Pos    // start of the line
	Raw   string // the line without its end-of-line bytes
	Field string // field name as written ("User-agent", "disalow", ...)
	Value string // field value, trimmed

	// Typo is set when Field is not the BNF's spelling but a misspelling or
	// prefix that lenient parsers accept (Google's "useragent", "disalow",
	// "allowance", ...). Kind is the field it is taken for.
	Typo bool
	// NoColon is set when the line has no colon and Field and Value are its
	// two white-space separated words ("disallow /").
	NoColon bool
	// TooLong is set when the line is longer than the line-length limit;
	// Field, Value and Comment come from its first Options.MaxLineLength bytes.
	TooLong bool

	Kind Kind // its BNF line production

	eol   eolKind // which line end follows Raw (EOL returns it)
	class uint8   // its class, the grammar's terminal (classOf), set by the scanner

	// 0-based byte columns in Raw, -1 if absent; the comment runs from
	// commentCol to commentEnd. With the position and three strings, a
	// Line is 96 bytes: the scanner fills one per input line.
	fieldCol, valueCol, commentCol, commentEnd int32
}

// eolKind is a line end: one byte in a Line where a string would take 16.
type eolKind uint8

const (
	eolNone eolKind = iota // a last line without one
	eolLF
	eolCRLF
	eolCR
)

var eolText = [...]string{eolNone: "", eolLF: "\n", eolCRLF: "\r\n", eolCR: "\r"}

// EOL returns the line's end-of-line bytes: "\n", "\r\n", "\r", or "" for a
// last line without one.
func (l *Line) EOL() string { return eolText[l.eol] }

// Comment returns the line's comment, from its '#' to the end of the line
// (or of its first Options.MaxLineLength bytes), or "".
func (l *Line) Comment() string {
	if l.commentCol < 0 {
		return ""
	}
	return l.Raw[l.commentCol:l.commentEnd]
}

// FieldPos returns where the field name starts, or the line's start.
func (l *Line) FieldPos() Pos { return l.at(l.fieldCol) }

// ValuePos returns where the value starts. For an empty value it is where
// the value would start: just after the colon and any white space.
func (l *Line) ValuePos() Pos { return l.at(l.valueCol) }

// CommentPos returns where the comment's '#' is, or the line's start.
func (l *Line) CommentPos() Pos { return l.at(l.commentCol) }

// End returns the position just past the line's text, before its EOL.
func (l *Line) End() Pos { return l.at(int32(len(l.Raw))) }

func (l *Line) at(col int32) Pos {
	if col < 0 {
		return l.Pos
	}
	return Pos{Offset: l.Pos.Offset + int(col), Line: l.Pos.Line, Column: l.Pos.Column + int(col)}
}

// IsField reports whether the line is a field line: an agent, allow,
// disallow, mobile-agent-server or extension line.
func (l *Line) IsField() bool { return l.Kind >= AgentLine && l.Kind <= Extension }

// FieldIs reports whether the field name is name, ignoring case.
func (l *Line) FieldIs(name string) bool { return strings.EqualFold(l.Field, name) }

// inBNF reports whether the line is in the BNF's own form: not a
// misspelt field, not a line with no colon.
func (l *Line) inBNF() bool { return !l.Typo && !l.NoColon }

// Record is a record of the drafts' BNF (1994 "RES Format", 1996/97
// draft section 3.3): one or more User-agent lines, then the lines that
// apply to them, up to the blank line that ends it or the User-agent line
// after a rule line that starts the next record. Only lines in the BNF's
// form place records: a misspelt field (Line.Typo) or a line with no colon
// (Line.NoColon) is an odd line there, and Content-Usage and other
// extension lines are extension lines. The 1994 and 1996/97 texts group a
// file's lines by these records; RFC 9309 and Google's parser group lines
// without regard to blank lines, so a reader of those reads every node's
// lines in order.
//
// The participle grammar decides the records (grammar.go's record): each
// is a node participle builds, and its Lines are the lines of the tokens
// participle gave it.
type Record struct {
	// Pos is where the record starts: its first User-agent line.
	Pos Pos
	// EndPos is where the node after the record starts: the blank line
	// that starts a gap, the next record, or the end of the input.
	EndPos Pos
	// Lines is every line of the record, in order; never a blank line.
	Lines []*Line
	// Agents is its User-agent lines (those in the BNF's form), a subset
	// of Lines.
	Agents []*Line
}

// Gap is a run of lines outside every record, as the grammar places it:
// the file's preamble (the lines before its first User-agent line of any
// spelling), or the lines from the blank line that ends a record (or from
// the end of the preamble) up to the next record. It is the BNF's
// blankcomment and commentblank, with what the lenient reading lets
// stand among them: rules after a blank line, Sitemap lines, misspelt
// User-agent lines.
type Gap struct {
	// Pos is where the gap starts, EndPos where the node after it starts
	// (or the input ends).
	Pos, EndPos Pos
	// Lines is every line of the gap, in order.
	Lines []*Line
	// Preamble is set on the file's preamble (File.Preamble is its Lines).
	Preamble bool
}

// Node is one node of a file's top level (File.Nodes): a record or a gap.
// Exactly one of Record and Gap is set.
type Node struct {
	Record *Record
	Gap    *Gap
}

// Lines returns the node's lines.
func (n Node) Lines() []*Line {
	if n.Record != nil {
		return n.Record.Lines
	}
	return n.Gap.Lines
}

// Pos returns where the node starts.
func (n Node) Pos() Pos {
	if n.Record != nil {
		return n.Record.Pos
	}
	return n.Gap.Pos
}

// IsPreamble reports whether the node is the file's preamble: the gap
// before its first User-agent line of any spelling.
func (n Node) IsPreamble() bool { return n.Gap != nil && n.Gap.Preamble }

// EndPos returns where the node after it starts, or the input ends.
func (n Node) EndPos() Pos {
	if n.Record != nil {
		return n.Record.EndPos
	}
	return n.Gap.EndPos
}

// File is a parsed manifest: robots.txt, data.txt in its record form, or
// any file in the drafts' line format.
//
// Its tree is Nodes: what the participle grammar returns, the records and
// the gaps between them in file order, whose lines are every line of the
// file once, in order (Lines). Records and Preamble are parts of it.
type File struct {
	Name string // file name used in positions ("-" for standard input)

	// BOM holds the byte-order mark bytes skipped at the very start, whole
	// (EF BB BF) or partial, or "".
	BOM string
	// Nodes is the file's structure as the grammar returns it: its
	// records and gaps, in order. Their lines, node after node, are Lines.
	Nodes []Node
	// Lines is every line, in order: the lines of Nodes, node after node.
	Lines []*Line
	// Preamble is the lines before the first User-agent line (of any
	// spelling: a misspelt one counts): the Lines of the preamble node,
	// the first of Nodes, or nil when the file has none.
	Preamble []*Line
	// Records is the records of Nodes, in order; they share Lines'
	// elements. Lines outside every record (blank lines, rules after a
	// blank line) are in gaps.
	Records []*Record
	// Ignored is the input past the size limit, kept so nothing is lost.
	Ignored string
	// Diagnostics is every finding of the parse, sorted.
	Diagnostics Diagnostics
	// LineLimit is the line-length limit the parse applied
	// (Options.MaxLineLength, resolved; negative for none).
	LineLimit int
	// SizeLimit is the size limit the parse applied (Options.MaxSize,
	// resolved; negative for none). A File with Ignored input was cut at
	// it, or before it at Options.MaxLines.
	SizeLimit int
}

// LineText returns the part of a line's Raw that was split into field,
// value and comment: all of it, or its first LineLimit bytes when the line
// is TooLong.
func (f *File) LineText(l *Line) string {
	if l.TooLong && f.LineLimit >= 0 && f.LineLimit < len(l.Raw) {
		return l.Raw[:f.LineLimit]
	}
	return l.Raw
}

// Text returns the input the file was parsed from, byte for byte.
func (f *File) Text() string {
	n := len(f.BOM) + len(f.Ignored)
	for _, l := range f.Lines {
		n += len(l.Raw) + len(l.EOL())
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(f.BOM)
	for _, l := range f.Lines {
		b.WriteString(l.Raw)
		b.WriteString(l.EOL())
	}
	b.WriteString(f.Ignored)
	return b.String()
}

// Position returns p with the file's name.
func (f *File) Position(p Pos) Position { return PositionOf(f.Name, p) }

// Fields returns the field lines whose field name is name, ignoring case,
// anywhere in the file.
func (f *File) Fields(name string) []*Line {
	var out []*Line
	for _, l := range f.Lines {
		if l.IsField() && l.FieldIs(name) {
			out = append(out, l)
		}
	}
	return out
}
