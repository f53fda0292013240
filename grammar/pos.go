package grammar

import "fmt"

// Pos is a position in a manifest: the byte offset from the start of the
// input, and the 1-based line and column (in bytes) at that offset. The zero
// Pos is not valid; see IsValid.
type Pos struct {
	Offset int // byte offset, starting at 0
	Line   int // line number, starting at 1
	Column int // column number in bytes, starting at 1
}

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String returns "line:col", or "-" for an invalid position.
func (p Pos) String() string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Column)
}

// Position is a Pos with the name of the file it is in, laid out as
// go/token's Position (and participle's lexer.Position, which converts to
// it: the grammar's nodes get their positions from participle as
// Positions). It prints as "file:line:col".
type Position struct {
	Filename string
	Offset   int // byte offset, starting at 0
	Line     int // line number, starting at 1
	Column   int // column number in bytes, starting at 1
}

// PositionOf returns p with the file name filename.
func PositionOf(filename string, p Pos) Position {
	return Position{Filename: filename, Offset: p.Offset, Line: p.Line, Column: p.Column}
}

// Pos returns the position without its file name.
func (p Position) Pos() Pos { return Pos{Offset: p.Offset, Line: p.Line, Column: p.Column} }

// IsValid reports whether p is a real position.
func (p Position) IsValid() bool { return p.Line > 0 }

// String returns "file:line:col", "line:col" when there is no file name, or
// just the file name when the position is not valid.
func (p Position) String() string {
	switch {
	case !p.IsValid() && p.Filename == "":
		return "-"
	case !p.IsValid():
		return p.Filename
	case p.Filename == "":
		return p.Pos().String()
	}
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// Range is a span of input from Start up to, not including, End, as
// hcl's Range.
type Range struct {
	Start, End Pos
}
