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
	var f *File
	var room nodeRoom
	if n := lineCount(src[bom:], opts.maxLines(), 0); n <= smallFile {
		small := &smallSlab{}
		f, room = &small.f, nodeRoom{small.nodes[:0], small.recs[:0]}
		s.first, s.firstPtrs = small.store[:0:n], small.lines[:0:n]
	} else {
		slab := &fileSlab{}
		f, room = &slab.f, nodeRoom{slab.nodes[:0], slab.recs[:0]}
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
	// Field by field into the zeroed File (no composite copied in).
	f.Name, f.BOM, f.Lines, f.Ignored = name, src[:bom], s.lines, ignored
	f.LineLimit, f.SizeLimit = opts.maxLineLength(), opts.maxSize()
	f.build(s, room, src)
	s.summarize()
	f.Diagnostics = s.diags
	f.Diagnostics.Sort()
	return f
}

// fileSlab is a File with what building it needs, in one allocation: the
// node and record lists of a file of a few nodes (most files).
type fileSlab struct {
	f     File
	recs  [2]*Record
	nodes [4]Node
}

// nodeRoom is the room a slab has for the lists of a File's nodes and
// records (File.tree appends to them, and makes its own when they are
// too short).
type nodeRoom struct {
	nodes []Node
	recs  []*Record
}

// smallFile is how many lines a smallSlab holds: the corpus' median file
// by size (355 bytes) has 9, and 40% of its files have at most 10 lines.
const smallFile = 10

// smallSlab is the fileSlab of a file of at most smallFile lines, with the
// room for its lines: one allocation where a larger file takes three. Its
// node lists are shorter than a fileSlab's (the usual small file is one
// record, and a gap after it), to keep it in Go's 1280-byte size class
// with the 8-byte header Go gives an object of pointers over 512 bytes
// (TestSmallSlabSize): the collector's work follows the bytes.
type smallSlab struct {
	f     File
	recs  [1]*Record
	nodes [2]Node
	lines [smallFile]*Line
	store [smallFile]Line
}

// build runs the participle grammar over the lines (which cover src): the
// nodes it returns are the file's tree, in the room of f's slab.
//
// The token stream participle reads is one of streams, when the lexer's
// tokens fit in it, else one made for the file (lexer.Upgrade).
func (f *File) build(s *scanner, room nodeRoom, src string) {
	lx := lineLexer{name: f.Name, src: src, lines: f.Lines}
	st := streams.Get().(*tokenBuf)
	lex := st.fill(&lx)
	if lex == nil {
		lex, _ = tokens(&lineLexer{name: f.Name, src: src, lines: f.Lines}) // lineLexer.Next returns no error
	}
	tree, err := theParser().ParseFromLexer(lex)
	f.tree(s, tree, err, endPos(src, f.Lines), room)
	streams.Put(st) // the File keeps no token of it (tree)
}

// tree makes the File's tree of the nodes participle returned (tree, and
// err, the error of its parse): Nodes in file order, the Records and the
// Preamble among them. A grammar error (the grammar takes every stream of
// classes: there is none) is a diagnostic at the token where it stopped,
// or at end; the nodes participle built whole up to it are kept.
func (f *File) tree(s *scanner, tree *robotstxt, err error, end Pos, room nodeRoom) {
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
	nodes, recs := room.nodes, room.recs
	nRecs := len(tree.Head) + len(tree.Records)
	if n := nRecs + len(tree.HeadGap) + len(tree.Preamble) + len(tree.Lead) + len(tree.Gaps); n > cap(nodes) {
		nodes = make([]Node, 0, n)
	}
	if nRecs > cap(recs) {
		recs = make([]*Record, 0, nRecs)
	}
	// participle returns each production's nodes in a list of its own, in
	// file order: the file's start (at most a preamble and a lead, or a
	// record and its gap), then the records and the gaps after them. The
	// nodes are all of them, in the order of their first tokens.
	var agents []*Line // the slab of the records whose Agents are not a part of their Lines
	addGap := func(g *Gap, tokens *[]lexer.Token) {
		if len(*tokens) > 0 { // else a node a failed parse left unfinished
			f.gap(g, *tokens)
			nodes = append(nodes, Node{Gap: g})
		}
		*tokens = nil // the File keeps the node, not the token stream
	}
	addRecord := func(r *record) {
		if len(r.Tokens) > 0 {
			agents = f.record(r, agents)
			recs = append(recs, &r.Record)
			nodes = append(nodes, Node{Record: &r.Record})
		}
		r.Tokens = nil
	}
	for _, p := range tree.Preamble {
		p.Preamble = true
		addGap(&p.Gap, &p.Tokens)
		f.Preamble = p.Lines
	}
	for _, l := range tree.Lead {
		addGap(&l.Gap, &l.Tokens)
	}
	for _, r := range tree.Head {
		addRecord(r)
	}
	for _, g := range tree.HeadGap {
		addGap(&g.Gap, &g.Tokens)
	}
	rs, gs := tree.Records, tree.Gaps
	for len(rs) > 0 || len(gs) > 0 {
		if len(gs) == 0 || len(rs) > 0 && startOf(rs[0].Tokens) < startOf(gs[0].Tokens) {
			addRecord(rs[0])
			rs = rs[1:]
		} else {
			addGap(&gs[0].Gap, &gs[0].Tokens)
			gs = gs[1:]
		}
	}
	if len(nodes) > 0 {
		f.Nodes = nodes
	}
	if len(recs) > 0 {
		f.Records = recs
	}
}

// The tokens of a node participle built (its Tokens field) are a part of
// the token stream it read (lexer.PeekingLexer.Range), which goes on past
// them to its EOF token: the token after a node's last, which participle
// sets an EndPos field to, is where the node ends. A node's lines are the
// lines of its tokens' runs: from the first line of its first token up to
// the first line of the token after it.

// next returns the token after tokens[i] in the stream.
func next(tokens []lexer.Token, i int) *lexer.Token { return &tokens[:i+2][i+1] }

// lineIndex returns the index in f.Lines of the first line of t's run, or
// len(f.Lines) for EOF.
func (f *File) lineIndex(t *lexer.Token) int {
	if t.Type == lexer.EOF {
		return len(f.Lines)
	}
	return t.Pos.Line - 1
}

// span returns the positions and lines of the node of tokens.
func (f *File) span(tokens []lexer.Token) (start, end Pos, lines []*Line) {
	first, after := &tokens[0], next(tokens, len(tokens)-1)
	i, j := f.lineIndex(first), f.lineIndex(after)
	return posOf(first.Pos), posOf(after.Pos), f.Lines[i:j:j]
}

// startOf returns the offset where the node of tokens starts, or -1 for
// a node the failed parse left unfinished, which has none.
func startOf(tokens []lexer.Token) int {
	if len(tokens) == 0 {
		return -1
	}
	return tokens[0].Pos.Offset
}

func posOf(p lexer.Position) Pos { return Pos{Offset: p.Offset, Line: p.Line, Column: p.Column} }

// gap sets a Gap from the tokens participle gave its node.
func (f *File) gap(g *Gap, tokens []lexer.Token) {
	g.Pos, g.EndPos, g.Lines = f.span(tokens)
}

// record sets the Record of a node participle built: its positions and
// Lines (span), and its Agents, the lines of its Agentline tokens: the
// run of its first token when it is the only one, as it nearly always
// is, else a part of the slab agents, which it makes for the whole file
// the first time and returns.
func (f *File) record(n *record, agents []*Line) []*Line {
	r := &n.Record
	r.Pos, r.EndPos, r.Lines = f.span(n.Tokens)
	runs := 0
	for i := range n.Tokens {
		if n.Tokens[i].Type == tAgent {
			runs++
		}
	}
	if runs == 1 { // the first token, where the record starts
		k := f.lineIndex(next(n.Tokens, 0)) - f.lineIndex(&n.Tokens[0])
		r.Agents = r.Lines[:k:k]
		n.Tokens = nil // the File keeps the node, not the token stream
		return agents
	}
	if agents == nil {
		k := 0
		for _, l := range f.Lines {
			if l.class == uint8(tAgent) {
				k++
			}
		}
		agents = make([]*Line, 0, k)
	}
	a0 := len(agents)
	for i := range n.Tokens {
		if t := &n.Tokens[i]; t.Type == tAgent {
			agents = append(agents, f.Lines[f.lineIndex(t):f.lineIndex(next(n.Tokens, i))]...)
		}
	}
	r.Agents = agents[a0:len(agents):len(agents)]
	n.Tokens = nil
	return agents
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
