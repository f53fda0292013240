package grammar

import (
	"fmt"
	"sort"
	"strings"
)

// Severity says how bad a Diagnostic is.
type Severity int

// The severities, from the least to the most severe.
const (
	Warning Severity = iota + 1 // input deviates from the specification; its meaning is still clear
	Error                       // input is wrong; part of it is ignored or its meaning is unclear
)

// String returns "warning" or "error".
func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// MarshalText encodes the severity as its name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Diagnostic is one finding about a manifest: its severity, a one-line
// summary, an optional detail, and where it is. Code is a short stable name
// of the check that produced it (Codes lists the parser's: "no-colon",
// "markup", ...; the interpreters add theirs), for filtering.
type Diagnostic struct {
	Severity Severity
	Code     string
	Summary  string
	Detail   string
	Filename string
	Range    Range
	// Extra is what the reader that made the diagnostic attaches for its
	// own use, as hcl's Diagnostic.Extra: package robots says there which
	// of its profiles a finding concerns (robots.Concerns). The grammar
	// knows only syntax: it never sets Extra, and copies it as it is.
	Extra any
}

// The codes of the parser's diagnostics (docs/grammar.md describes each).
const (
	CodeMarkup       = "markup"         // error: an HTML or XML document, not a plain-text manifest
	CodeTooLarge     = "too-large"      // input past Options.MaxSize, kept in File.Ignored
	CodeTooManyLines = "too-many-lines" // lines past Options.MaxLines, kept in File.Ignored
	CodeLineTooLong  = "line-too-long"  // a line past Options.MaxLineLength
	CodeNoColon      = "no-colon"       // a two-word line without a colon
	CodeInvalidLine  = "invalid-line"   // a line that is no field, comment or blank
	CodeNUL          = "nul"            // a NUL byte in a line
	CodeUTF8         = "utf8"           // a line that is not valid UTF-8

	// CodeGrammar is an error of the participle grammar. The lexer's
	// token streams are all in the grammar, so no input yields it (the
	// corpus and fuzz tests check that); it is not in Codes.
	CodeGrammar = "grammar"
)

// Codes lists every code the parser emits, in the order docs/grammar.md
// lists them.
var Codes = []string{CodeMarkup, CodeTooLarge, CodeTooManyLines, CodeLineTooLong, CodeNoColon, CodeInvalidLine, CodeNUL, CodeUTF8}

// Position returns where the diagnostic starts, with its file name.
func (d *Diagnostic) Position() Position {
	return PositionOf(d.Filename, d.Range.Start)
}

// Error returns "file:line:col: severity: summary".
func (d *Diagnostic) Error() string {
	return fmt.Sprintf("%s: %s: %s", d.Position(), d.Severity, d.Summary)
}

// Diagnostics is a list of diagnostics, as go/scanner's ErrorList. Its
// methods sort it by position and tell whether any is an error.
type Diagnostics []*Diagnostic

// Len, Less and Swap implement sort.Interface: by file name, then offset,
// then severity (errors first), then summary.
func (ds Diagnostics) Len() int      { return len(ds) }
func (ds Diagnostics) Swap(i, j int) { ds[i], ds[j] = ds[j], ds[i] }
func (ds Diagnostics) Less(i, j int) bool {
	a, b := ds[i], ds[j]
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	if a.Range.Start.Offset != b.Range.Start.Offset {
		return a.Range.Start.Offset < b.Range.Start.Offset
	}
	if a.Severity != b.Severity {
		return a.Severity > b.Severity
	}
	return a.Summary < b.Summary
}

// Sort sorts the list in place, keeping the order of equal entries. A
// list of one is left as it is (sort.Stable would box it for nothing).
func (ds Diagnostics) Sort() {
	if len(ds) > 1 {
		sort.Stable(ds)
	}
}

// HasErrors reports whether any diagnostic is an Error.
func (ds Diagnostics) HasErrors() bool { return ds.Count(Error) > 0 }

// Count returns how many diagnostics have severity s.
func (ds Diagnostics) Count(s Severity) int {
	n := 0
	for _, d := range ds {
		if d.Severity == s {
			n++
		}
	}
	return n
}

// Limit returns the list with at most perCode diagnostics of each code,
// in order, and for each code that had more, one diagnostic after its last
// kept one that counts those left out. A report on junk input stays
// readable and its size bounded.
func (ds Diagnostics) Limit(perCode int) Diagnostics {
	counts := map[string]int{}
	for _, d := range ds {
		counts[d.Code]++
	}
	over := false
	for _, n := range counts {
		over = over || n > perCode
	}
	if !over {
		return ds
	}
	kept := map[string]int{}
	out := make(Diagnostics, 0, len(ds))
	for _, d := range ds {
		kept[d.Code]++
		switch k := kept[d.Code]; {
		case k < perCode:
			out = append(out, d)
		case k == perCode:
			out = append(out, d)
			if n := counts[d.Code]; n > perCode {
				out = append(out, leftOut(d, n-perCode))
			}
		}
	}
	return out
}

// leftOut is the diagnostic that stands, after last, for n more of its code.
func leftOut(last *Diagnostic, n int) *Diagnostic {
	return &Diagnostic{Severity: last.Severity, Code: last.Code, Filename: last.Filename, Range: last.Range, Extra: last.Extra,
		Summary: fmt.Sprintf("%d more %q diagnostics like this one are left out", n, last.Code)}
}

// Err returns the list as an error when it holds any Error, else nil.
func (ds Diagnostics) Err() error {
	if ds.HasErrors() {
		return ds
	}
	return nil
}

// Error returns the first diagnostic and how many more there are, as
// go/scanner's ErrorList does.
func (ds Diagnostics) Error() string {
	switch len(ds) {
	case 0:
		return "no diagnostics"
	case 1:
		return ds[0].Error()
	}
	return fmt.Sprintf("%s (and %d more)", ds[0].Error(), len(ds)-1)
}

// Format writes the diagnostic as BurntSushi/toml does: the summary, then the
// offending line of src with a caret under the column. src is the whole
// input the positions refer to; if the line cannot be found only the first
// line is written.
func (d *Diagnostic) Format(src string) string {
	var b strings.Builder
	b.WriteString(d.Error())
	if d.Detail != "" {
		b.WriteString("\n  ")
		b.WriteString(d.Detail)
	}
	p := d.Range.Start
	if !p.IsValid() || p.Offset > len(src) {
		return b.String()
	}
	start := p.Offset - (p.Column - 1)
	if start < 0 || start > len(src) {
		return b.String()
	}
	end := start
	for end < len(src) && src[end] != '\n' && src[end] != '\r' {
		end++
	}
	line := src[start:end]
	const max = 120
	col := p.Column - 1
	if len(line) > max {
		from := 0
		if col > max/2 {
			from = col - max/2
		}
		to := from + max
		if to > len(line) {
			to = len(line)
		}
		line = line[from:to]
		col -= from
	}
	shown, caret := printable(line, col)
	fmt.Fprintf(&b, "\n\n%5d | %s\n      | %s^", p.Line, shown, strings.Repeat(" ", caret))
	return b.String()
}

// printable writes a line so that it prints on one terminal line as text
// output writes what a site wrote: a tab as a space, other control bytes
// and DEL as \xNN. It returns the line and where byte col of it now stands,
// so that the caret below stays under it.
func printable(s string, col int) (string, int) {
	var b strings.Builder
	caret := col
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\t':
			b.WriteByte(' ')
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
			if i < col {
				caret += 3
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), caret
}
