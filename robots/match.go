package robots

import (
	"encoding/binary"
	"slices"
	"strings"
	"unsafe"
)

// Allowed reports whether the crawler named agent may fetch url, which is
// an absolute URL or a path. See Agent for what agent may be.
func (pol *Policy) Allowed(agent, url string) bool {
	return pol.Agent(agent).Decide(url).Allowed
}

// Decide returns whether the crawler named agent may fetch url, which is
// an absolute URL or a path, and why. See Agent for what agent may be.
func (pol *Policy) Decide(agent, url string) Decision {
	return pol.Agent(agent).Decide(url)
}

// Allowed reports whether the crawler may fetch url, an absolute URL or a
// path.
func (a *Agent) Allowed(url string) bool { return a.Decide(url).Allowed }

// pathBufSize is the stack buffer a decision normalises the path into;
// a longer path that needs rewriting costs one allocation.
const pathBufSize = 2048

// Decide returns whether the crawler may fetch url, an absolute URL or a
// path, and why. It allocates nothing unless the path is longer than 2 KiB
// and needs percent-normalising (the agent's first decision builds its
// rule index).
//
// A decision walks the path down the agent's rule index (see ruleIndex):
// its cost depends on the path and on the wildcard rules whose literal
// prefix the path starts with, not on how many rules the agent has.
// Matching a rule costs O(len(path) + len(pattern)) for patterns without
// '*'. A pattern with '*' is matched segment by segment: each literal
// segment is searched (strings.Index) from where the previous one ended,
// leftmost placement being optimal when '*' is the only wildcard, so there
// is no backtracking and the searches together scan each path byte at most
// once, plus the segments' lengths. Go's strings.Index compares up to
// min(len(segment), 64) bytes per position for segments of up to 64 bytes
// (SIMD brute force) and is expected linear (Rabin-Karp) beyond, so a
// match costs O((len(path) + len(pattern)) * 64) at worst and
// O(len(path) + len(pattern)) in practice: see BenchmarkAdversarial.
func (a *Agent) Decide(url string) Decision {
	p := a.profile
	raw, slash := pathOf(url)
	if !slash {
		switch p.desc().percent {
		case percentRFC:
			if !needsNormRFCPath(raw) {
				return a.decidePath(raw)
			}
		case percentDraft:
			if strings.IndexByte(raw, '%') < 0 {
				return a.decidePath(raw)
			}
		default:
			return a.decidePath(raw)
		}
	}
	return a.decideRewritten(raw, slash)
}

// decideRewritten normalises the path into a stack buffer (kept out of
// Decide so the common case does not pay for clearing it).
func (a *Agent) decideRewritten(raw string, slash bool) Decision {
	var buf [pathBufSize]byte
	return a.decidePath(bytesString(a.appendPath(buf[:0], raw, slash)))
}

// appendPath appends a URL's raw path (from pathOf) to dst in the
// profile's comparison form: what Decide and Usage match rules against.
func (a *Agent) appendPath(dst []byte, raw string, slash bool) []byte {
	if slash {
		dst = append(dst, '/')
	}
	switch a.profile.desc().percent {
	case percentRFC:
		return normRFC(dst, raw, true)
	case percentDraft:
		return normDraft(dst, raw)
	}
	return append(dst, raw...)
}

// decidePath decides a path in the profile's comparison form.
func (a *Agent) decidePath(path string) Decision {
	p := a.profile
	if p.desc().robotsTxt && path == "/robots.txt" {
		return Decision{Allowed: true, Reason: ReasonRobotsTxt}
	}
	if len(a.rules) > 0 {
		if k := a.index().lookup(path); k != noRule {
			r := a.rules[k]
			return Decision{Allowed: r.Allow, Rule: r, Group: r.Group, Global: a.global, Reason: ReasonRule}
		}
	}
	if len(a.groups) == 0 {
		return Decision{Allowed: true, Reason: ReasonNoGroup}
	}
	return Decision{Allowed: true, Group: a.groups[0], Global: a.global, Reason: ReasonNoRule}
}

// index returns the agent's rule index, building it on first use: most
// callers decide for one crawler of the many a file names.
func (a *Agent) index() *ruleIndex {
	if ix := a.ix.Load(); ix != nil {
		return ix
	}
	a.ixOnce.Do(func() { a.ix.Store(buildIndex(a.rules)) })
	return a.ix.Load()
}

// noRule is the rank of no rule.
const noRule = ^uint32(0)

// ruleIndex finds the first rule, in decision order, that matches a path.
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
//     node keeps them in rank order, and they are tried only while their
//     rank beats the best match so far.
//
// The decision is the lowest rank found. Its cost is the path's length
// (one child lookup per edge) plus the wildcard rules tried on the way,
// not the number of rules.
type ruleIndex struct {
	nodes []node
	first []byte     // the first byte of each node's edge, for child lookup
	label string     // edge labels
	wild  []wildRule // wildcard rules, node by node, in rank order
	spans []wildSpan // the nodes' runs of wild; spans[0] is unused
	scans []*keyScan // the automata of nodes with many wildcard rules
}

// wildRule is a wildcard rule as its node tries it: what its pattern
// requires after its literal prefix, split once at compile time so that a
// decision rejects most rules with one comparison: an anchored rule must
// end with last, an unanchored rule with no middle must contain it.
type wildRule struct {
	mid, last string // the pattern after the prefix's '*': middle segments ("a*b"), and the last one
	rank      uint32
	anchored  bool
}

// node is a node of a ruleIndex.
type node struct {
	off, n      uint32 // its edge: label[off : off+n]
	child       uint32 // its children: nodes[child : child+nkids], by first byte
	plain, anch uint32 // best rank of the plain and of the '$'-anchored rules ending here
	wilds       uint32 // its wildcard rules: spans[wilds], or 0 for none
	nkids       uint16
}

// wildSpan is the wildcard rules of a node whose literal prefix ends there.
type wildSpan struct {
	w0, w1 uint32 // wild[w0:w1]
	scan   uint32 // with many of them: 1 + their keyScan's index in scans, else 0
}

// lookup returns the rank of the first rule in decision order that
// matches path, or noRule.
func (ix *ruleIndex) lookup(path string) uint32 {
	best := noRule
	nd := &ix.nodes[0]
	d := 0
	for {
		best = min(best, nd.plain)
		if d == len(path) {
			best = min(best, nd.anch)
		}
		if nd.wilds != 0 {
			best = ix.firstWild(&ix.spans[nd.wilds], path[d:], best)
		}
		if d == len(path) || nd.nkids == 0 {
			return best
		}
		c := ix.child(nd, path[d])
		if c < 0 {
			return best
		}
		nd = &ix.nodes[c]
		if len(path)-d < int(nd.n) || path[d:d+int(nd.n)] != ix.label[nd.off:nd.off+nd.n] {
			return best
		}
		d += int(nd.n)
	}
}

// firstWild returns the lowest rank below best of the wildcard rules of
// sp that match rest, the path after their literal prefix, or best.
func (ix *ruleIndex) firstWild(sp *wildSpan, rest string, best uint32) uint32 {
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

// child returns the index of nd's child whose edge starts with c, or -1.
func (ix *ruleIndex) child(nd *node, c byte) int {
	lo, hi := int(nd.child), int(nd.child)+int(nd.nkids)
	if hi-lo <= 8 {
		for i, b := range ix.first[lo:hi] {
			if b == c {
				return lo + i
			}
		}
		return -1
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ix.first[m] < c {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < int(nd.child)+int(nd.nkids) && ix.first[lo] == c {
		return lo
	}
	return -1
}

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

// buildIndex builds the index of rules, which are in decision order.
func buildIndex(rules []*Rule) *ruleIndex {
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
		if r.wild {
			key := pattern{r.lit, r.anchored}
			if seen == nil {
				seen = map[pattern]bool{}
			}
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		e := entry{prefix: r.lit, rank: uint32(i)}
		switch {
		case r.wild:
			j := strings.IndexByte(r.lit, '*')
			e.prefix = r.lit[:j]
			if j < len(r.lit)-1 {
				e.kind = eWild
			}
			// else "/a*" and "/a*$" match whatever follows "/a": a plain rule.
		case r.anchored:
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
	b := indexBuilder{es: es, rules: rules, labels: make([]string, 1, len(es)+1)}
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
	label.Grow(b.size)
	for i := range b.nodes {
		nd := &b.nodes[i]
		lab := b.labels[i]
		nd.off, nd.n = uint32(label.Len()), uint32(len(lab))
		label.WriteString(lab)
	}
	return &ruleIndex{nodes: b.nodes, first: b.first, label: label.String(), wild: b.wild, spans: b.spans, scans: b.scans}
}

type indexBuilder struct {
	rules  []*Rule
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
	nd := node{plain: noRule, anch: noRule}
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
		if sp.w1-sp.w0 >= minScan {
			b.scans = append(b.scans, buildScan(b.wild, sp.w0, sp.w1))
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
	kids := 0
	for j := i; j < hi; {
		c := b.es[j].prefix[depth]
		for j < hi && b.es[j].prefix[depth] == c {
			j++
		}
		kids++
	}
	nd.child, nd.nkids = uint32(len(b.nodes)), uint16(kids)
	for k := 0; k < kids; k++ {
		b.nodes = append(b.nodes, node{})
		b.first = append(b.first, 0)
	}
	b.nodes[n] = nd
	k := int(nd.child)
	for j := i; j < hi; k++ {
		c := b.es[j].prefix[depth]
		j0 := j
		for j < hi && b.es[j].prefix[depth] == c {
			j++
		}
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
	}
}

// wildRule returns the wildRule of a wildcard entry.
func (b *indexBuilder) wildRule(e *entry) wildRule {
	r := b.rules[e.rank]
	w := wildRule{rank: e.rank, anchored: r.anchored, last: r.lit[len(e.prefix)+1:]}
	if !w.anchored {
		// A pattern matches a prefix of the path: a final '*' adds nothing.
		w.last = strings.TrimSuffix(w.last, "*")
	}
	if j := strings.LastIndexByte(w.last, '*'); j >= 0 {
		w.mid, w.last = w.last[:j], w.last[j+1:]
	}
	return w
}

// key returns a literal the path must contain after the rule's prefix for
// the rule to match: its first segment after the prefix (never empty).
func (w *wildRule) key() string {
	if w.mid == "" {
		return w.last
	}
	if j := strings.IndexByte(w.mid, '*'); j >= 0 {
		return w.mid[:j]
	}
	return w.mid
}

// match reports whether rest, the path after the rule's literal prefix,
// matches the rest of the rule.
func (w *wildRule) match(rest string) bool {
	if w.anchored {
		if !strings.HasSuffix(rest, w.last) {
			return false
		}
	} else if w.mid == "" {
		return strings.Contains(rest, w.last)
	}
	return globSegments(w.mid, w.last, w.anchored, rest)
}

func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// match reports whether the rule's pattern matches path.
func (r *Rule) match(path string) bool {
	switch {
	case r.never:
		return false
	case r.wild:
		return globMatch(r.lit, r.anchored, path)
	case r.anchored:
		return path == r.lit
	}
	return strings.HasPrefix(path, r.lit)
}

// globMatch matches a pattern with '*' (and no '$') against a prefix of
// path (all of path when anchored). Each middle segment is placed at its
// leftmost occurrence after the previous one: with '*' the only wildcard,
// a leftmost placement leaves the most room for what follows, so no
// backtracking is needed. The segments are read from the pattern as it is:
// nothing is stored per '*'.
func globMatch(pat string, anchored bool, path string) bool {
	i := strings.IndexByte(pat, '*')
	return strings.HasPrefix(path, pat[:i]) && globTail(pat[i+1:], anchored, path[i:])
}

// globTail matches what follows a pattern's first '*' against what
// follows the pattern's literal prefix in the path.
func globTail(mid string, anchored bool, rest string) bool {
	last := ""
	if j := strings.LastIndexByte(mid, '*'); j >= 0 {
		mid, last = mid[:j], mid[j+1:]
	} else {
		mid, last = "", mid
	}
	if anchored && !strings.HasSuffix(rest, last) {
		return false // cheap rejection before any search
	}
	return globSegments(mid, last, anchored, rest)
}

// globSegments places the middle segments mid ("a*b*c") at their leftmost
// occurrences in rest, then the last segment after them.
func globSegments(mid, last string, anchored bool, rest string) bool {
	for mid != "" {
		seg := mid
		if j := strings.IndexByte(mid, '*'); j >= 0 {
			seg, mid = mid[:j], mid[j+1:]
		} else {
			mid = ""
		}
		if seg == "" {
			continue
		}
		j := strings.Index(rest, seg)
		if j < 0 {
			return false
		}
		rest = rest[j+len(seg):]
	}
	if anchored {
		return strings.HasSuffix(rest, last)
	}
	return strings.Contains(rest, last)
}

// pathOf returns the part of a URL that rules match: path, parameters and
// query, without the fragment. It follows Google's GetPathParamsQuery: an
// initial "//" introduces an authority, "://" ends a scheme only before any
// '/', '?' or ';', and the result always starts with '/'. When the part
// found starts with '?' or ';', slash is set: the caller must put a '/'
// before it. Nothing is allocated.
func pathOf(url string) (path string, slash bool) {
	start := 0
	if len(url) >= 2 && url[0] == '/' && url[1] == '/' {
		start = 2
	}
	// "://" ends a scheme only before any '/', '?' or ';': only when the
	// first of them is the first '/' of "://".
	ps := indexAny3(url, start)
	if ps > start && url[ps] == '/' && url[ps-1] == ':' && ps+1 < len(url) && url[ps+1] == '/' {
		ps = indexAny3(url, ps+2)
	}
	if ps < 0 {
		return "/", false
	}
	end := len(url)
	if h := strings.IndexByte(url[start:], '#'); h >= 0 {
		h += start
		if h < ps {
			return "/", false
		}
		end = h
	}
	if url[ps] != '/' {
		return url[ps:end], true
	}
	return url[ps:end], false
}

// indexAny3 returns the index of the first '/', '?' or ';' at or after
// from, or -1. It skips eight bytes at a time while none of them is one.
func indexAny3(s string, from int) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	const slash, qmark, semi = 0x2F2F2F2F2F2F2F2F, 0x3F3F3F3F3F3F3F3F, 0x3B3B3B3B3B3B3B3B
	i := from
	for ; i+8 <= len(s); i += 8 {
		w := load64(s, i)
		x, y, z := w^slash, w^qmark, w^semi // a zero byte where s has '/', '?', ';'
		if ((x-lo)&^x|(y-lo)&^y|(z-lo)&^z)&hi != 0 {
			break // the loop below finds which byte
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '/' || c == '?' || c == ';' {
			return i
		}
	}
	return -1
}

const upperHex = "0123456789ABCDEF"

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// isUnreserved reports whether c is an RFC 3986 unreserved character.
func isUnreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// needsNormRFC reports whether normRFC would change the pattern s: whether
// it holds a '%' or a byte outside ASCII. It tests eight bytes at a time.
func needsNormRFC(s string) bool {
	const lo, hi, pct = 0x0101010101010101, 0x8080808080808080, 0x2525252525252525
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))
		x := w ^ pct // a zero byte where s has '%'
		if w&hi != 0 || (x-lo)&^x&hi != 0 {
			return true
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '%' || c >= 0x80 {
			return true
		}
	}
	return false
}

// needsNormRFCPath reports whether normRFC would change the path s:
// whether it holds a '%', '*', '$' or a byte outside ASCII. It tests eight
// bytes at a time, the last eight overlapping the ones before.
func needsNormRFCPath(s string) bool {
	if len(s) < 8 {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c == '%' || c == '*' || c == '$' || c >= 0x80 {
				return true
			}
		}
		return false
	}
	for i := 0; i+8 < len(s); i += 8 {
		if normWord(load64(s, i)) {
			return true
		}
	}
	return normWord(load64(s, len(s)-8))
}

// normWord reports whether one of the eight bytes of w is '%', '*', '$'
// or outside ASCII.
func normWord(w uint64) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	const pct, star, dollar = 0x2525252525252525, 0x2A2A2A2A2A2A2A2A, 0x2424242424242424
	x, y, z := w^pct, w^star, w^dollar // a zero byte where w has '%', '*', '$'
	return (w|(x-lo)&^x|(y-lo)&^y|(z-lo)&^z)&hi != 0
}

// load64 returns the eight bytes of s at i, little-endian.
func load64(s string, i int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))
}

// normRFC appends s in RFC 9309's comparison form to dst: escapes of
// unreserved characters decoded, other escapes upper-cased, octets outside
// ASCII percent-encoded (section 2.2.2). In the query (after the first
// '?'), escapes of ':', '/', '?' and '@' are decoded too: they mean the
// same raw or encoded there, and section 2.2.2's table has the pattern
// "/foo/bar?baz=https://foo.bar" match "/foo/bar?baz=https%3A%2F%2Ffoo.bar".
// When path is set, s is a URL's path, where '*' and '$' are ordinary
// characters: they are encoded as "%2A" and "%24", which is how a pattern
// writes them literally (section 2.2.3, Table 2); in a pattern a '$'
// before its end is literal and is encoded too.
func normRFC(dst []byte, s string, path bool) []byte {
	query := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s):
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if !ok1 || !ok2 {
				dst = append(dst, c)
				continue
			}
			v := hi<<4 | lo
			if isUnreserved(v) || query && (v == ':' || v == '/' || v == '?' || v == '@') {
				dst = append(dst, v)
			} else {
				dst = append(dst, '%', upperHex[hi], upperHex[lo])
			}
			i += 2
		case c >= 0x80:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		case path && c == '*':
			dst = append(dst, "%2A"...)
		case c == '$' && (path || i < len(s)-1):
			// A pattern's '$' before its end is literal too.
			dst = append(dst, "%24"...)
		default:
			if c == '?' {
				query = true
			}
			dst = append(dst, c)
		}
	}
	return dst
}

// normDraft appends s in the 1996/1997 drafts' comparison form to dst:
// every %xx escape decoded except %2F, which stays an escape (upper-cased).
func normDraft(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) {
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				if v := hi<<4 | lo; v == '/' {
					dst = append(dst, "%2F"...)
				} else {
					dst = append(dst, v)
				}
				i += 2
				continue
			}
		}
		dst = append(dst, c)
	}
	return dst
}

// escapeGoogle returns a pattern as Google's parser compares it: octets
// outside ASCII percent-encoded, existing escapes upper-cased.
func escapeGoogle(s string) string {
	need := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || c == '%' {
			need = true
			break
		}
	}
	if !need {
		return s
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b = append(b, '%', upper(s[i+1]), upper(s[i+2]))
			i += 2
		case c >= 0x80:
			b = append(b, '%', upperHex[c>>4], upperHex[c&15])
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

func isHex(c byte) bool { _, ok := unhex(c); return ok }

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// minScan is how many wildcard rules a node needs before it finds
// candidates with a keyScan rather than trying them in turn.
var minScan = uint32(8)

// keyScan groups the wildcard rules of one node by what they require: the
// key of each (the literal the path must contain after the node's
// prefix). It is an Aho-Corasick automaton over the keys: one pass over
// the rest of the path finds every key that occurs in it, and only the
// rules of those keys are tried, in rank order at each match. A path
// costs its length in transitions plus the rules whose key it holds,
// however many rules the node has.
type keyScan struct {
	root   [256]uint32 // the root state's child on each byte, or 0: the path's bytes no key starts with cost one load
	states []acState
	by     []byte   // the byte on the edge into each state
	out    []uint32 // indexes in ruleIndex.wild, state by state, in rank order
}

// acState is a state of a keyScan: a key prefix.
type acState struct {
	child, nkids uint32 // states[child : child+nkids], by byte
	fail         uint32 // the longest proper suffix that is a state
	dict         uint32 // the next state on the fail chain with output, or 0
	o0, o1       uint32 // out[o0:o1]: the rules whose key ends here
}

// first returns the lowest rank below best of the rules whose key occurs
// in rest and which match it, or best.
func (ks *keyScan) first(wild []wildRule, rest string, best uint32) uint32 {
	s := uint32(0)
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if s == 0 {
			if s = ks.root[c]; s == 0 {
				continue
			}
		} else {
			for {
				if t := ks.next(s, c); t != 0 {
					s = t
					break
				}
				if s = ks.states[s].fail; s == 0 {
					s = ks.root[c]
					break
				}
			}
		}
		for o := s; o != 0; o = ks.states[o].dict {
			st := &ks.states[o]
			for _, k := range ks.out[st.o0:st.o1] {
				w := &wild[k]
				if w.rank >= best {
					break
				}
				if w.match(rest) {
					best = w.rank
					break
				}
			}
		}
	}
	return best
}

// next returns the child of state s on byte c, or 0.
func (ks *keyScan) next(s uint32, c byte) uint32 {
	st := &ks.states[s]
	lo, hi := int(st.child), int(st.child+st.nkids)
	if hi-lo <= 8 {
		for i, b := range ks.by[lo:hi] {
			if b == c {
				return uint32(lo + i)
			}
		}
		return 0
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ks.by[m] < c {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < int(st.child+st.nkids) && ks.by[lo] == c {
		return uint32(lo)
	}
	return 0
}

// buildScan builds the keyScan of the wildcard rules wild[w0:w1], which
// are in rank order.
func buildScan(wild []wildRule, w0, w1 uint32) *keyScan {
	type kv struct {
		key string
		k   uint32
	}
	keys := make([]kv, 0, w1-w0)
	for k := w0; k < w1; k++ {
		keys = append(keys, kv{wild[k].key(), k})
	}
	// Sorted by key, then rank: each state's outputs come out in rank order.
	slices.SortFunc(keys, func(x, y kv) int {
		if c := strings.Compare(x.key, y.key); c != 0 {
			return c
		}
		return int(x.k) - int(y.k)
	})
	ks := &keyScan{states: make([]acState, 1), by: make([]byte, 1)}
	// The trie, one byte per edge, children contiguous.
	var build func(s uint32, lo, hi, depth int)
	build = func(s uint32, lo, hi, depth int) {
		st := acState{o0: uint32(len(ks.out))}
		i := lo
		for ; i < hi && len(keys[i].key) == depth; i++ {
			ks.out = append(ks.out, keys[i].k)
		}
		st.o1 = uint32(len(ks.out))
		n := 0
		for j := i; j < hi; n++ {
			c := keys[j].key[depth]
			for j < hi && keys[j].key[depth] == c {
				j++
			}
		}
		st.child, st.nkids = uint32(len(ks.states)), uint32(n)
		for k := 0; k < n; k++ {
			ks.states = append(ks.states, acState{})
			ks.by = append(ks.by, 0)
		}
		ks.states[s] = st
		t := st.child
		for j := i; j < hi; t++ {
			c := keys[j].key[depth]
			j0 := j
			for j < hi && keys[j].key[depth] == c {
				j++
			}
			ks.by[t] = c
			build(t, j0, j, depth+1)
		}
	}
	build(0, 0, len(keys), 0)
	for t := uint32(1); t < 1+ks.states[0].nkids; t++ {
		ks.root[ks.by[t]] = t
	}
	// Failure and output links, breadth first.
	queue := []uint32{0}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		st := ks.states[s]
		for t := st.child; t < st.child+st.nkids; t++ {
			queue = append(queue, t)
			f := uint32(0)
			if s != 0 {
				c := ks.by[t]
				for f = ks.states[s].fail; ; f = ks.states[f].fail {
					if g := ks.next(f, c); g != 0 {
						f = g
						break
					}
					if f == 0 {
						break
					}
				}
			}
			ks.states[t].fail = f
			if fs := &ks.states[f]; fs.o1 > fs.o0 {
				ks.states[t].dict = f
			} else {
				ks.states[t].dict = fs.dict
			}
		}
	}
	return ks
}
