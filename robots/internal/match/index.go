package match

import (
	"bytes"
	"math"
	"slices"
	"strings"
)

// NoRule is the rank of no rule.
const NoRule = ^uint32(0)

// Index finds the first rule, in decision order, that matches a path.
// It is a trie over the rules' literal prefixes (the whole pattern of a
// rule without '*', the part before the first '*' otherwise), with runs of
// single-child nodes merged into one edge. A rule sits at the node its
// literal prefix ends at, by its rank: its place in decision order
// (longest pattern first, Allow first on ties, then file order; file order
// for the drafts). A decision walks the path down the trie once; every
// node on the way holds rules whose prefix the path starts with:
//
//   - a plain rule matches: the node keeps the best (lowest) rank of its
//     plain rules;
//   - a '$'-anchored rule matches when the path ends at the node: the
//     node keeps the best rank of those too;
//   - a wildcard rule matches when the rest of its pattern does: the
//     node keeps them in rank order; after the walk (so that the plain
//     rules' best bounds them) they are tried only while their rank beats
//     the best match so far, and where a node has minScan or more, only
//     those whose rarest literal the path holds (keyScan).
//
// The decision is the lowest rank found. Its cost is the path's length
// (one child lookup per edge, one key test per byte) plus the wildcard
// rules tried on the way, not the number of rules.
type Index struct {
	nodes []node
	first []byte     // the first byte of each node's edge, for child lookup
	label string     // edge labels
	wild  []wildRule // wildcard rules, node by node, in rank order
	spans []wildSpan // the nodes' runs of wild; spans[0] is unused
	scans []*keyScan // the key scans of nodes with many wildcard rules
	// wide holds, for the nodes with wideKids to 255 children, by an
	// ASCII byte, 1 + the offset of the child whose edge starts with it,
	// or 0: 128 bytes a node (a byte above 0x7F is searched for: paths
	// are ASCII in comparison form).
	wide [][128]uint8
	// frag is set when no rule holds a '#', so that a walk may stop at a
	// URL's fragment without cutting it off first (a pattern holds one
	// only from a %23 the drafts decode).
	frag bool
	// skip is the root's one child when the root holds no rule and that
	// child's edge is one byte (the '/' every pattern starts with), else 0:
	// a walk starts there.
	skip uint32
}

// wildRule is a wildcard rule as its node tries it: what its pattern
// requires after its literal prefix, its segments (the literals between
// its '*'s) split once at build time into the middle ones and the last, so
// that a decision rejects most rules with one comparison: an anchored rule
// must end with the last segment, an unanchored rule of one segment must
// contain it.
type wildRule struct {
	tail     string // the pattern after the prefix's '*' (a final '*' dropped when unanchored)
	split    int32  // the index of tail's last '*', or -1
	rank     uint32
	anchored bool
	// rare, when hasRare is set, is a byte of an unanchored rule's
	// segments that few paths hold (see rareByte): a path without it
	// is rejected by one IndexByte, where a search for the segment
	// compares at every position.
	rare    byte
	hasRare bool
}

// mid returns the rule's middle segments ("a*b"), or "".
func (w *wildRule) mid() string {
	if w.split < 0 {
		return ""
	}
	return w.tail[:w.split]
}

// last returns the rule's last segment.
func (w *wildRule) last() string { return w.tail[w.split+1:] }

// node is a node of a Index.
type node struct {
	off, n      uint32 // its edge: label[off : off+n]
	child       uint32 // its children: nodes[child : child+nkids], by first byte
	plain, anch uint32 // best rank of the plain and of the '$'-anchored rules ending here
	wilds       uint32 // its wildcard rules: spans[wilds], or 0 for none
	nkids       uint16
	wide        uint16 // with wideKids to 255 children: 1 + the index of their table in Index.wide, else 0
}

// wideKids is how many children a node needs before its child is found
// by its first byte in a table (Index.wide) rather than scanned for or
// searched: on the corpus, the '/' node of most files, whose scan of
// five to eight children mispredicts its end.
const wideKids = 5

// wildSpan is the wildcard rules of a node whose literal prefix ends there.
type wildSpan struct {
	w0, w1 uint32 // wild[w0:w1]
	scan   uint32 // with many of them: 1 + their keyScan's index in scans, else 0
}

// maxSpans is how many nodes with wildcard rules a walk keeps to try
// after it; the wildcard rules of nodes deeper still are tried during it.
const maxSpans = 8

// walked is what a walk down the trie found: the best plain or anchored
// rank on the path's way, the nodes with wildcard rules passed (and how
// deep in the path each is), and how much of the path it read.
type walked struct {
	best  uint32
	n     int // spans[:n]
	read  int // the walk's outcome depends on path[:read] only
	over  bool
	spans [maxSpans]struct{ sp, d uint32 }
}

// Lookup returns the rank of the first rule in decision order that
// matches path, or NoRule. The walk down the trie gathers the best plain
// and anchored rank first; the wildcard rules of the nodes passed are
// tried after it, so that only those ranking above it are.
func (ix *Index) Lookup(path string) uint32 {
	var w walked
	ix.walk(path, false, &w)
	return ix.wilds(&w, path)
}

// walk walks path down the trie into w. When frag is set, path is what
// follows the path's start in a URL, its fragment not cut off: a '#' ends
// the path (no edge holds one: see Index.frag), and the wildcard rules
// of nodes past maxSpans are not tried but w.over set.
func (ix *Index) walk(path string, frag bool, w *walked) {
	best := NoRule
	n := 0
	nd := &ix.nodes[0]
	d := 0
	if ix.skip != 0 && len(path) > 0 && path[0] == ix.first[ix.skip] {
		nd, d = &ix.nodes[ix.skip], 1
	}
	for {
		best = min(best, nd.plain)
		if d == len(path) || frag && path[d] == '#' {
			best = min(best, nd.anch)
		}
		if nd.wilds != 0 {
			if n < len(w.spans) {
				w.spans[n].sp, w.spans[n].d = nd.wilds, uint32(d)
				n++
			} else if frag {
				w.over = true
			} else {
				best = ix.firstWild(&ix.spans[nd.wilds], path[d:], best)
			}
		}
		if d == len(path) || nd.nkids == 0 {
			w.read = d
			break
		}
		// The child whose edge starts with path[d] (a few children scanned
		// here: the walk is most of a decision on small files), then the
		// rest of its edge.
		k, kids, c := -1, ix.kids(nd), path[d]
		switch {
		case len(kids) < wideKids:
			for j, b := range kids {
				if b == c {
					k = j
					break
				}
			}
		case nd.wide != 0 && c < 128:
			k = int(ix.wide[nd.wide-1][c]) - 1
		default:
			k = bytes.IndexByte(kids, c)
		}
		if k < 0 {
			w.read = d + 1
			break
		}
		nd = &ix.nodes[int(nd.child)+k]
		if e := int(nd.n); e > 1 {
			if len(path)-d < e {
				w.read = len(path)
				break
			}
			if e <= 8 && len(path)-d >= 8 {
				// Up to eight bytes compared as one word (label has eight
				// bytes after its last edge).
				if (Load64(path, d)^Load64(ix.label, int(nd.off)))<<(64-8*e) != 0 {
					w.read = d + e
					break
				}
			} else if path[d+1:d+e] != ix.label[nd.off+1:nd.off+nd.n] {
				w.read = d + e
				break
			}
		}
		d += int(nd.n)
	}
	w.best, w.n = best, n
}

// needWild reports whether a wildcard rule of the nodes a walk passed
// ranks above the best rank it found: whether wilds has rules to try.
func (ix *Index) needWild(w *walked) bool {
	for _, s := range w.spans[:w.n] {
		if ix.wild[ix.spans[s.sp].w0].rank < w.best {
			return true
		}
	}
	return false
}

// wilds returns the lowest rank of the walk's best and the wildcard
// rules of the nodes it passed that match path.
func (ix *Index) wilds(w *walked, path string) uint32 {
	best := w.best
	for _, s := range w.spans[:w.n] {
		best = ix.firstWild(&ix.spans[s.sp], path[s.d:], best)
	}
	return best
}

// firstWild returns the lowest rank below best of the wildcard rules of
// sp that match rest, the path after their literal prefix, or best.
func (ix *Index) firstWild(sp *wildSpan, rest string, best uint32) uint32 {
	if ix.wild[sp.w0].rank >= best {
		// They are in rank order: none ranks above best.
		return best
	}
	if sp.scan != 0 {
		return ix.scans[sp.scan-1].first(ix.wild, rest, best)
	}
	for i := sp.w0; i < sp.w1; i++ {
		w := &ix.wild[i]
		if w.rank >= best {
			break
		}
		if w.match(rest) {
			return w.rank
		}
	}
	return best
}

// kids returns the first bytes of nd's children's edges, in their order.
func (ix *Index) kids(nd *node) []byte { return ix.first[nd.child : nd.child+uint32(nd.nkids)] }

// entry is a rule as buildIndex places it.
type entry struct {
	prefix string
	rank   uint32
	kind   uint8 // ePlain, eAnch, eWild
}

const (
	ePlain = iota
	eAnch
	eWild
)

// build builds the index of rules, which are in decision order, tuned by t.
func build(rules []Pattern, t Tuning) *Index {
	es := make([]entry, 0, len(rules))
	// Of wildcard rules with the same pattern, only the first in decision
	// order can decide: the others are left out (a file of one pattern
	// repeated costs one rule per decision, not one per line).
	type pattern struct {
		lit      string
		anchored bool
	}
	var seen map[pattern]bool
	for i, r := range rules {
		if r.Wild {
			key := pattern{r.Lit, r.Anchored}
			if seen == nil {
				seen = map[pattern]bool{}
			}
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		e := entry{prefix: r.Lit, rank: uint32(i)}
		switch {
		case r.Wild:
			j := strings.IndexByte(r.Lit, '*')
			e.prefix = r.Lit[:j]
			if j < len(r.Lit)-1 {
				e.kind = eWild
			}
			// else "/a*" and "/a*$" match whatever follows "/a": a plain rule.
		case r.Anchored:
			e.kind = eAnch
		}
		es = append(es, e)
	}
	slices.SortFunc(es, func(x, y entry) int {
		if c := strings.Compare(x.prefix, y.prefix); c != 0 {
			return c
		}
		return int(x.rank) - int(y.rank)
	})
	b := indexBuilder{es: es, rules: rules, tune: t, labels: make([]string, 1, len(es)+1)}
	b.nodes = make([]node, 1, len(es)+1)
	b.first = make([]byte, 1, len(es)+1)
	b.build(0, 0, len(es), 0)
	b.nodes, b.first, b.wild = slices.Clip(b.nodes), slices.Clip(b.first), slices.Clip(b.wild)
	if cap(b.nodes) > len(b.nodes)+len(b.nodes)/4 {
		b.nodes, b.first = slices.Clone(b.nodes), slices.Clone(b.first)
	}
	if cap(b.wild) > len(b.wild)+len(b.wild)/4 {
		b.wild = slices.Clone(b.wild)
	}
	var label strings.Builder
	label.Grow(b.size + 8)
	for i := range b.nodes {
		nd := &b.nodes[i]
		lab := b.labels[i]
		nd.off, nd.n = uint32(label.Len()), uint32(len(lab))
		label.WriteString(lab)
	}
	label.WriteString("\x00\x00\x00\x00\x00\x00\x00\x00") // for walk's word compare
	frag := !slices.ContainsFunc(rules, func(r Pattern) bool { return strings.IndexByte(r.Lit, '#') >= 0 })
	ix := &Index{nodes: b.nodes, first: b.first, label: label.String(), wild: b.wild, spans: b.spans, scans: b.scans, frag: frag}
	ix.buildWide()
	if r := &ix.nodes[0]; r.plain == NoRule && r.anch == NoRule && r.wilds == 0 && r.nkids == 1 && ix.nodes[r.child].n == 1 {
		ix.skip = r.child
	}
	return ix
}

// buildWide gives the nodes with wideKids to 255 children their table of
// children by first byte (Index.wide), while there is room for one.
func (ix *Index) buildWide() {
	for i := range ix.nodes {
		nd := &ix.nodes[i]
		if nd.nkids < wideKids || nd.nkids > math.MaxUint8 || len(ix.wide) == math.MaxUint16 {
			continue
		}
		var t [128]uint8
		for j, c := range ix.kids(nd) {
			if c < 128 {
				t[c] = uint8(j + 1)
			}
		}
		ix.wide = append(ix.wide, t)
		nd.wide = uint16(len(ix.wide))
	}
}

type indexBuilder struct {
	rules  []Pattern
	tune   Tuning
	es     []entry
	nodes  []node
	first  []byte
	labels []string
	wild   []wildRule
	scans  []*keyScan
	spans  []wildSpan
	size   int
}

// build fills in node n for the entries es[lo:hi], which share their
// first depth bytes (the node's whole prefix), and builds its children.
func (b *indexBuilder) build(n, lo, hi, depth int) {
	if n >= len(b.labels) {
		b.labels = append(b.labels, make([]string, n+1-len(b.labels))...)
	}
	nd := node{plain: NoRule, anch: NoRule}
	w0 := uint32(len(b.wild))
	// Entries ending here sort first (a prefix sorts before its
	// extensions), and by rank among themselves.
	i := lo
	for ; i < hi && len(b.es[i].prefix) == depth; i++ {
		e := &b.es[i]
		switch e.kind {
		case ePlain:
			nd.plain = min(nd.plain, e.rank)
		case eAnch:
			nd.anch = min(nd.anch, e.rank)
		default:
			b.wild = append(b.wild, b.wildRule(e))
		}
	}
	if sp := (wildSpan{w0: w0, w1: uint32(len(b.wild))}); sp.w1 > sp.w0 {
		if sp.w1-sp.w0 >= b.tune.MinScan {
			b.scans = append(b.scans, buildScan(b.wild, sp.w0, sp.w1, b.tune))
			sp.scan = uint32(len(b.scans))
		}
		if len(b.spans) == 0 {
			b.spans = append(b.spans, wildSpan{})
		}
		nd.wilds = uint32(len(b.spans))
		b.spans = append(b.spans, sp)
	}
	// The children: one per distinct next byte, their slots reserved
	// together so that they are contiguous.
	at := func(j int) byte { return b.es[j].prefix[depth] }
	kids := byteRuns(i, hi, at, nil)
	nd.child, nd.nkids = uint32(len(b.nodes)), uint16(kids)
	for k := 0; k < kids; k++ {
		b.nodes = append(b.nodes, node{})
		b.first = append(b.first, 0)
	}
	b.nodes[n] = nd
	k := int(nd.child) - 1
	byteRuns(i, hi, at, func(c byte, j0, j int) {
		k++
		// The child's edge runs to the longest prefix its entries share:
		// sorted, that of the first and the last.
		x, y := b.es[j0].prefix, b.es[j-1].prefix
		l := depth + 1
		for l < len(x) && l < len(y) && x[l] == y[l] {
			l++
		}
		b.first[k] = c
		if k >= len(b.labels) {
			b.labels = append(b.labels, make([]string, k+1-len(b.labels))...)
		}
		b.labels[k] = x[depth:l]
		b.size += l - depth
		b.build(k, j0, j, l)
	})
}

// byteRuns calls fn (when not nil) for each run of the entries [lo, hi)
// that share the byte at(j), in order (the entries are sorted by it), and
// returns how many runs there are: the children of a trie node.
func byteRuns(lo, hi int, at func(int) byte, fn func(c byte, from, to int)) int {
	n := 0
	for j := lo; j < hi; n++ {
		c, j0 := at(j), j
		for j < hi && at(j) == c {
			j++
		}
		if fn != nil {
			fn(c, j0, j)
		}
	}
	return n
}

// wildRule returns the wildRule of a wildcard entry.
func (b *indexBuilder) wildRule(e *entry) wildRule {
	r := b.rules[e.rank]
	w := wildRule{rank: e.rank, anchored: r.Anchored, tail: r.Lit[len(e.prefix)+1:]}
	if !w.anchored {
		// A pattern matches a prefix of the path: a final '*' adds nothing.
		w.tail = strings.TrimSuffix(w.tail, "*")
	}
	w.split = int32(strings.LastIndexByte(w.tail, '*'))
	if !w.anchored {
		w.rare, w.hasRare = rareByte(w.tail)
	}
	return w
}

// urlBytes is the bytes of URL paths from the most to the least of them
// holding it, as measured over the shared corpus' 105,048 URLs ('/' is in
// every path, 'e' in 86%, '.' in 24%, '?' in 13%, 'A' in 4.5%); the bytes
// not listed are rarer still.
const urlBytes = "/esatorinlc-mhdupgbyfwv1.2k09834=7?56_xjCzSAqN&EBMPDTIFLH%ROGWU+VKQZJYX:|,)('"

// commonURLBytes is how many of urlBytes' first bytes are held by so
// many paths (two thirds or more) that testing for one first would
// cost more than it saves.
const commonURLBytes = 10

// rareByte returns the byte of tail (outside its '*'s) that the fewest
// paths hold, by urlBytes, and whether it is rare enough to test for.
func rareByte(tail string) (byte, bool) {
	best, rank := byte(0), -1
	for i := 0; i < len(tail); i++ {
		if c := tail[i]; c != '*' {
			if r := strings.IndexByte(urlBytes, c); r < 0 {
				return c, true // rarer than any listed
			} else if r > rank {
				best, rank = c, r
			}
		}
	}
	return best, rank >= commonURLBytes
}

// match reports whether rest, the path after the rule's literal prefix,
// matches the rest of the rule.
func (w *wildRule) match(rest string) bool {
	if w.hasRare && strings.IndexByte(rest, w.rare) < 0 {
		return false
	}
	last := w.last()
	if w.anchored {
		if !strings.HasSuffix(rest, last) {
			return false
		}
	} else if w.split < 0 {
		return strings.Contains(rest, last)
	}
	return globSegments(w.mid(), last, w.anchored, rest)
}

// matchAt reports whether rest, the path after the rule's literal prefix,
// matches the rest of the rule with its segment tail[s0:s1] at p: the
// segments before it placed in rest[:p], those after it after it, each at
// its leftmost place. A rule matches rest when it matches with that
// segment at one of the places rest holds it.
func (w *wildRule) matchAt(rest string, s0, s1, p int) bool {
	seg := w.tail[s0:s1]
	if p < 0 || len(rest)-p < len(seg) || rest[p:p+len(seg)] != seg {
		return false
	}
	if s0 > 0 && !globSegments(w.tail[:s0-1], "", false, rest[:p]) {
		return false
	}
	after := rest[p+len(seg):]
	if s1 == len(w.tail) {
		return !w.anchored || after == ""
	}
	mid := ""
	if s1 < int(w.split) {
		mid = w.tail[s1+1 : w.split]
	}
	return globSegments(mid, w.last(), w.anchored, after)
}
