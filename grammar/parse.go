package grammar

import (
	"fmt"

	"github.com/alecthomas/participle/v2/lexer"
)

// Parse parses a manifest. It never fails: every byte of src is kept in the
// returned File, and every deviation from the drafts' BNF is a diagnostic in
// File.Diagnostics. name is used in positions; opts sets the limits.
func Parse(name string, src []byte, opts Options) *File {
	limit := opts.maxSize()
	var ignored string
	if limit >= 0 && len(src) > limit {
		ignored = string(src[limit:])
		src = src[:limit]
	}
	return parse(name, string(src), ignored, opts)
}

// ParseString is Parse for a string.
func ParseString(name, src string, opts Options) *File {
	limit := opts.maxSize()
	var ignored string
	if limit >= 0 && len(src) > limit {
		src, ignored = src[:limit], src[limit:]
	}
	return parse(name, src, ignored, opts)
}

func parse(name, src, ignored string, opts Options) *File {
	s := &scanner{name: name, src: src, opts: opts} // on the stack
	bom := BOMLen(src)
	if at, what := markup(src); at >= 0 {
		s.html = true
		p := PosAt(src, at)
		s.diag(Error, CodeMarkup, Range{p, p}, fmt.Sprintf("input looks like an %s document, not a plain-text manifest", what))
	}
	s.scan(bom)
	if s.stop >= 0 {
		p := Pos{Offset: s.stop, Line: len(s.lines) + 1, Column: 1}
		s.diag(Warning, CodeTooManyLines, Range{p, p},
			fmt.Sprintf("input has more than %d lines; the last %d bytes are ignored", len(s.lines), len(src)-s.stop+len(ignored)))
		src, ignored = src[:s.stop], src[s.stop:]+ignored
	}
	if ignored != "" && s.stop < 0 {
		end := PosAt(src, len(src))
		if n := len(s.lines); n > 0 {
			end = s.lines[n-1].End()
			if s.lines[n-1].EOL != "" {
				end = Pos{Offset: len(src), Line: end.Line + 1, Column: 1}
			}
		}
		s.diag(Warning, CodeTooLarge, Range{end, end},
			fmt.Sprintf("input is larger than %d bytes; the last %d bytes are ignored", len(src), len(ignored)))
	}
	s.summarize()
	slab := &fileSlab{}
	f := &slab.f
	// Field by field into the zeroed slab (no composite copied in).
	f.Name, f.BOM, f.Lines, f.Ignored = name, src[:bom], s.lines, ignored
	f.LineLimit, f.SizeLimit = opts.maxLineLength(), opts.maxSize()
	f.build(slab)
	f.Diagnostics = s.diags
	f.Diagnostics.Sort()
	return f
}

// fileSlab is a File with what building it needs, in one allocation: the
// participle lexer over its lines, and the record of a file that has one
// (most have one or two).
type fileSlab struct {
	f           File
	peek        lexer.PeekingLexer
	rec         [1]Record
	recp        [1]*Record
	agentStarts []int // the first line of each Agentlines token (tokens)
	starts      [4]int
}

// build finds the Preamble and runs the participle grammar over the lines
// to place the Records; slab is the one f is part of.
func (f *File) build(slab *fileSlab) {
	f.Preamble = f.Lines
	for i, l := range f.Lines {
		if l.Kind == AgentLine {
			f.Preamble = f.Lines[:i:i]
			break
		}
	}
	if len(f.Preamble) == len(f.Lines) {
		return // no User-agent line, so no record
	}
	if _, err := theParser().ParseFromLexer(slab.tokens(f.Lines)); err != nil {
		// Every sequence of lines is a robotstxt; an error here is a bug.
		panic("grammar: " + err.Error())
	}
	switch n := len(slab.agentStarts); n {
	case 0:
	case 1:
		f.records(slab.rec[:], slab.recp[:], slab.agentStarts)
	default:
		f.records(make([]Record, n), make([]*Record, n), slab.agentStarts)
	}
}

// records places the records participle parsed, as many as recs holds, in
// recs and f.Records (set to ptrs): record k starts at the k-th
// Agentlines token, whose first line is starts[k].
func (f *File) records(recs []Record, ptrs []*Record, starts []int) {
	f.Records = ptrs
	var agents []*Line // the slab of the records whose Agents are not a part of their Lines
	for i := range recs {
		r := &recs[i]
		// A record runs to the gap after it, which starts at a blank line,
		// or to the next record.
		start, end := starts[i], len(f.Lines)
		if i+1 < len(recs) {
			end = starts[i+1]
		}
		for j := start + 1; j < end; j++ {
			if f.Lines[j].Kind == Blank {
				end = j
				break
			}
		}
		r.Lines = f.Lines[start:end:end]
		r.Pos = r.Lines[0].Pos
		r.Agents, agents = f.agentLines(r.Lines, agents)
		f.Records[i] = r
	}
}

// agentLines returns the User-agent lines in the BNF's form of a record's
// lines: the first lines themselves when they come first and together, as
// they nearly always do, else a part of slab, which it makes for the whole
// file the first time and returns.
func (f *File) agentLines(lines, slab []*Line) ([]*Line, []*Line) {
	isAgent := func(l *Line) bool { return l.Kind == AgentLine && l.inBNF() }
	j := 0
	for j < len(lines) && isAgent(lines[j]) {
		j++
	}
	together := true
	for _, l := range lines[j:] {
		if isAgent(l) {
			together = false
			break
		}
	}
	if together {
		return lines[:j:j], slab
	}
	if slab == nil {
		n := 0
		for _, l := range f.Lines {
			if isAgent(l) {
				n++
			}
		}
		slab = make([]*Line, 0, n)
	}
	a0 := len(slab)
	for _, l := range lines {
		if isAgent(l) {
			slab = append(slab, l)
		}
	}
	return slab[a0:len(slab):len(slab)], slab
}

// PosAt returns the Pos of a byte offset in src as Parse counts positions:
// lines end at LF, CRLF or CR, columns count bytes from 1, and a
// byte-order mark at the very start is not part of line 1.
func PosAt(src string, off int) Pos {
	if off > len(src) {
		off = len(src)
	}
	bom := BOMLen(src)
	if off < bom {
		off = bom
	}
	line, col := 1, 1
	for i := bom; i < off; i++ {
		switch src[i] {
		case '\n':
			line, col = line+1, 1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				col++
				continue
			}
			line, col = line+1, 1
		default:
			col++
		}
	}
	return Pos{Offset: off, Line: line, Column: col}
}
