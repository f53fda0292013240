package grammar

import (
	"errors"
	"fmt"

	"github.com/alecthomas/participle/v2"
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
	var slab *fileSlab
	if n := lineCount(src[bom:], opts.maxLines(), 0); n <= smallFile {
		small := &smallSlab{}
		slab = &small.fileSlab
		s.first, s.firstPtrs = small.store[:0:n], small.lines[:0:n]
	} else {
		slab = &fileSlab{}
		s.reserve(n)
	}
	s.scan(bom)
	if s.stop >= 0 {
		p := Pos{Offset: s.stop, Line: len(s.lines) + 1, Column: 1}
		s.diag(Warning, CodeTooManyLines, Range{p, p},
			fmt.Sprintf("input has more than %d lines; the last %d bytes are ignored", len(s.lines), len(src)-s.stop+len(ignored)))
		src, ignored = src[:s.stop], src[s.stop:]+ignored
	}
	if ignored != "" && s.stop < 0 {
		end := endPos(src, s.lines)
		s.diag(Warning, CodeTooLarge, Range{end, end},
			fmt.Sprintf("input is larger than %d bytes; the last %d bytes are ignored", len(src), len(ignored)))
	}
	f := &slab.f
	// Field by field into the zeroed File (no composite copied in).
	f.Name, f.BOM, f.Lines, f.Ignored = name, src[:bom], s.lines, ignored
	f.LineLimit, f.SizeLimit = opts.maxLineLength(), opts.maxSize()
	f.build(s, slab, src)
	s.summarize()
	f.Diagnostics = s.diags
	f.Diagnostics.Sort()
	return f
}

// fileSlab is a File with what building it needs, in one allocation: the
// lexer of its lines, and the record list of a file of at most two
// records (most files).
type fileSlab struct {
	f    File
	lx   lineLexer
	recs [2]*Record
}

// smallFile is how many lines a smallSlab holds: the corpus' median file
// by size (355 bytes) has 9, and 40% of its files have at most 10 lines.
const smallFile = 10

// smallSlab is the fileSlab of a file of at most smallFile lines, with the
// room for its lines: one allocation where a larger file takes three.
type smallSlab struct {
	fileSlab
	lines [smallFile]*Line
	store [smallFile]Line
}

// build finds the Preamble and runs the participle grammar over the lines
// (src, which they cover): its Records are the file's. A grammar error,
// which the token stream the lexer makes cannot cause, is a diagnostic.
// slab is the one f is part of.
func (f *File) build(s *scanner, slab *fileSlab, src string) {
	f.Preamble = f.Lines
	for i, l := range f.Lines {
		if l.Kind == AgentLine {
			f.Preamble = f.Lines[:i:i]
			break
		}
	}
	slab.lx.name, slab.lx.src, slab.lx.lines = f.Name, src, f.Lines
	lex, _ := tokens(&slab.lx) // lineLexer.Next returns no error
	f.tree(s, lex, endPos(src, f.Lines), slab.recs[:0])
}

// tree runs the participle grammar over the token stream lex: the
// Records it returns are the file's. A grammar error (on the
// lexer's tokens there is none: see robotstxt) is a diagnostic at the
// token where it stopped, or at end; the records participle built whole
// up to it are kept.
func (f *File) tree(s *scanner, lex *lexer.PeekingLexer, end Pos, recs []*Record) {
	tree, err := theParser().ParseFromLexer(lex)
	if err != nil {
		var perr participle.Error
		if errors.As(err, &perr) {
			lp := perr.Position()
			end = Pos{Offset: lp.Offset, Line: lp.Line, Column: lp.Column}
		}
		s.diag(Error, CodeGrammar, Range{end, end}, "the grammar failed: "+err.Error())
	}
	if tree == nil {
		return
	}
	if len(tree.Records) > cap(recs) {
		recs = make([]*Record, 0, len(tree.Records))
	}
	var agents []*Line // the slab of the records whose Agents are not a part of their Lines
	for _, n := range tree.Records {
		if len(n.Tokens) == 0 {
			continue // a record the failed parse left unfinished
		}
		recs = append(recs, &n.Record)
		agents = f.span(n, agents)
		n.Tokens = nil // the File keeps the node, not the token stream
	}
	if len(recs) > 0 {
		f.Records = recs
	}
}

// span sets the Record of a node participle built: its positions (where
// its first token's run starts, and where its last token's run ends: a
// line's start, or the end of the input), its Lines (the file's lines
// from Pos up to EndPos) and its Agents (from its Agentlines run alone,
// where every one of them stands; taken from the slab agents, see
// agentLines).
func (f *File) span(n *record, agents []*Line) []*Line {
	r := &n.Record
	p, q := n.Tokens[0].Pos, n.Tokens[len(n.Tokens)-1].Pos
	r.Pos = Pos{Offset: p.Offset, Line: p.Line, Column: p.Column}
	// q is where the Rulelines run starts, or for an empty run the line
	// after the User-agent lines or the end of the input.
	start, end := p.Line-1, q.Line-1
	if end >= len(f.Lines) || f.Lines[end].Pos.Offset != q.Offset {
		end = len(f.Lines) // the end of the input
	}
	agentEnd := end // where the Agentlines run ends: no User-agent line is past it
	if end < len(f.Lines) && classOf(f.Lines[end]) == tRule {
		end = runEnd(f.Lines, end+1, tRule)
	}
	if end < len(f.Lines) {
		r.EndPos = f.Lines[end].Pos
	} else {
		r.EndPos = endPos("", f.Lines) // records have lines: src is not read
	}
	r.Lines = f.Lines[start:end:end]
	r.Agents, agents = f.agentLines(r.Lines[:agentEnd-start], agents)
	return agents
}

// agentLines returns the User-agent lines in the BNF's form of a record's
// Agentlines run (lines): the first lines themselves when they come first and together, as
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
