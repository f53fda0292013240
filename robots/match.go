package robots

import (
	"encoding/binary"
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
// and needs percent-normalising.
//
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
	p := a.policy.profile
	raw, slash := pathOf(url)
	if !slash {
		switch p {
		case RFC9309:
			if !needsNormRFCPath(raw) {
				return a.decidePath(raw)
			}
		case Draft:
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
	b := buf[:0]
	if slash {
		b = append(b, '/')
	}
	switch a.policy.profile {
	case RFC9309:
		b = normRFC(b, raw, true)
	case Draft:
		b = normDraft(b, raw)
	default:
		b = append(b, raw...)
	}
	return a.decidePath(bytesString(b))
}

// decidePath decides a path in the profile's comparison form.
func (a *Agent) decidePath(path string) Decision {
	p := a.policy.profile
	if (p == RFC9309 || p == Draft) && path == "/robots.txt" {
		return Decision{Allowed: true, Reason: ReasonRobotsTxt}
	}
	var r *Rule
	if a.idx == nil {
		r = a.first(a.all, path)
	} else {
		// The rules for the path's second byte and those for any byte,
		// each in decision order: merge them on the fly.
		gen := a.lists[0]
		var spec []mrule
		if len(path) >= 2 {
			if k := a.idx[path[1]]; k != 0 {
				spec = a.lists[k]
			}
		}
		r = a.firstMerged(gen, spec, path)
	}
	if r != nil {
		return Decision{Allowed: r.Allow, Rule: r, Group: r.Group, Global: a.global, Reason: ReasonRule}
	}
	if len(a.groups) == 0 {
		return Decision{Allowed: true, Reason: ReasonNoGroup}
	}
	return Decision{Allowed: true, Group: a.groups[0], Global: a.global, Reason: ReasonNoRule}
}

// wildcard is the compiled form of a pattern with '*'.
type wildcard struct {
	segs    []string // the normalised pattern split at '*'
	need    byteSet  // the bytes of segs[1:]: a path lacking one cannot match
	needAny bool     // need is not empty
}

// byteSet is a set of bytes.
type byteSet [4]uint64

// addString adds the bytes of str. A long str marks a byte table first
// (one independent store per byte, where setting bits directly makes each
// byte wait for the last) and packs it into bits eight at a time.
func (s *byteSet) addString(str string) {
	if len(str) < 64 {
		for i := 0; i < len(str); i++ {
			c := str[i]
			s[c>>6] |= 1 << (c & 63)
		}
		return
	}
	var seen [256]byte
	for i := 0; i < len(str); i++ {
		seen[str[i]] = 1
	}
	for w := 0; w < 4; w++ {
		var word uint64
		for k := 0; k < 8; k++ {
			v := binary.LittleEndian.Uint64(seen[w*64+k*8:])
			// Multiplying gathers the low bits of the eight bytes into the
			// top byte: byte j's bit lands at bit 56+j, without carries.
			word |= (v * 0x0102040810204080 >> 56) << (k * 8)
		}
		s[w] |= word
	}
}

// pathBytes is the set of bytes of the path being decided, computed the
// first time a wildcard rule needs it: a wildcard rule whose segments hold
// a byte the path lacks cannot match, and most cannot.
type pathBytes struct {
	set  byteSet
	done bool
	head uint64 // the path's first 8 bytes, little-endian, zero-padded
}

// load8 returns the first 8 bytes of s as a little-endian word,
// zero-padded.
func load8(s string) uint64 {
	if len(s) >= 8 {
		return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
	}
	var w uint64
	for i := len(s) - 1; i >= 0; i-- {
		w = w<<8 | uint64(s[i])
	}
	return w
}

// lacks reports whether path lacks some byte of need.
func (pb *pathBytes) lacks(need *byteSet, path string) bool {
	if !pb.done {
		pb.set.addString(path)
		pb.done = true
	}
	return need[0]&^pb.set[0] != 0 || need[1]&^pb.set[1] != 0 || need[2]&^pb.set[2] != 0 || need[3]&^pb.set[3] != 0
}

// first returns the first rule of list that matches path, or nil.
func (a *Agent) first(list []mrule, path string) *Rule {
	pb := pathBytes{head: load8(path)}
	for i := range list {
		if a.matches(&list[i], path, &pb) {
			return a.rules[list[i].idx]
		}
	}
	return nil
}

// firstMerged returns the first rule, in decision order, of two lists in
// decision order that matches path, or nil.
func (a *Agent) firstMerged(x, y []mrule, path string) *Rule {
	pb := pathBytes{head: load8(path)}
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		var m *mrule
		if j >= len(y) || i < len(x) && x[i].idx < y[j].idx {
			m = &x[i]
			i++
		} else {
			m = &y[j]
			j++
		}
		if a.matches(m, path, &pb) {
			return a.rules[m.idx]
		}
	}
	return nil
}

// matches reports whether the rule m matches path.
func (a *Agent) matches(m *mrule, path string, pb *pathBytes) bool {
	n := m.n
	if uint32(len(path)) < n {
		return false
	}
	// The first 8 bytes in one comparison, the rest (rarely reached)
	// against the arena.
	mask := ^uint64(0)
	if n < 8 {
		mask = 1<<(8*n) - 1
	}
	if (pb.head^m.head)&mask != 0 {
		return false
	}
	if n > 8 && a.arena[m.off+8:m.off+n] != path[8:n] {
		return false
	}
	switch {
	case m.flags&mWild != 0:
		r := a.rules[m.idx]
		if r.wild.needAny && pb.lacks(&r.wild.need, path) {
			return false
		}
		return r.match(path)
	case m.flags&mAnchored != 0:
		return uint32(len(path)) == n
	}
	return true
}

// mrule is a rule as the decision loop scans it: 24 bytes, the first 8
// bytes of its literal prefix inline and the rest in the agent's arena, so
// that scanning an agent's rules reads contiguous memory and most
// rejections cost one comparison. A wildcard rule's full match goes to its
// Rule.
type mrule struct {
	head   uint64 // the prefix's first 8 bytes, as load8 reads a path
	off, n uint32 // literal prefix (the whole pattern without '*') in arena
	idx    uint32 // index in Agent.rules
	flags  uint8
}

const (
	mWild     = 1 << iota // pattern has '*': finish with Rule.match
	mAnchored             // pattern ends with '$': the path must end here
)

// minDispatch is how many rules an agent needs before a dispatch table
// by the path's second byte pays for its half kilobyte.
const minDispatch = 8

// buildLists lays out the agent's rules for deciding: an arena of their
// literal prefixes and, for agents with many rules, a dispatch on the byte
// after the path's leading '/': lists[idx[c]] holds, in decision order,
// the rules whose prefix is "/c..." and those that may match whatever
// follows the '/' ("/", "/*...", patterns without a leading '/');
// lists[0] holds only the latter (or every rule, without dispatch).
func (a *Agent) buildLists() {
	if len(a.rules) == 0 {
		return
	}
	prefix := func(r *Rule) string {
		if r.wild != nil {
			return r.wild.segs[0]
		}
		return r.lit
	}
	size := 0
	for _, r := range a.rules {
		size += len(prefix(r))
	}
	arena := make([]byte, 0, size)
	// With dispatch, the entries are placed by key (counting sort, stable):
	// the rules for any second byte first, then those of each byte.
	dispatch := len(a.rules) >= minDispatch
	var count, start [257]int
	if dispatch {
		for _, r := range a.rules {
			count[dispatchKey(prefix(r))+1]++
		}
		a.idx = new([256]uint16)
		a.lists = make([][]mrule, 1, 8)
		off := count[0]
		for c := 0; c < 256; c++ {
			if count[c+1] > 0 {
				a.idx[c] = uint16(len(a.lists))
				a.lists = append(a.lists, nil)
				start[c+1] = off
				off += count[c+1]
			}
		}
	}
	ms := make([]mrule, len(a.rules))
	next := start
	for i, r := range a.rules {
		pre := prefix(r)
		m := mrule{idx: uint32(i), off: uint32(len(arena)), n: uint32(len(pre)), head: load8(pre)}
		if r.wild != nil {
			m.flags |= mWild
		}
		if r.anchored {
			m.flags |= mAnchored
		}
		arena = append(arena, pre...)
		j := i
		if dispatch {
			k := dispatchKey(pre) + 1
			j = next[k]
			next[k]++
		}
		ms[j] = m
	}
	a.arena = bytesString(arena)
	if !dispatch {
		a.all = ms
		return
	}
	a.lists[0] = ms[:count[0]:count[0]]
	for c := 0; c < 256; c++ {
		if j := a.idx[c]; j != 0 {
			lo, hi := start[c+1], start[c+1]+count[c+1]
			a.lists[j] = ms[lo:hi:hi]
		}
	}
}

// dispatchKey returns the byte after a prefix's leading '/', or -1 when
// the rule may match any second byte of a path.
func dispatchKey(pre string) int {
	if len(pre) >= 2 && pre[0] == '/' {
		return int(pre[1])
	}
	return -1
}

func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// match reports whether the rule's pattern matches path.
func (r *Rule) match(path string) bool {
	if r.never {
		return false
	}
	if r.wild == nil {
		if r.anchored {
			return path == r.lit
		}
		return strings.HasPrefix(path, r.lit)
	}
	return globMatch(r.wild.segs, r.anchored, path)
}

// globMatch matches a pattern split at its '*' against a prefix of path
// (all of path when anchored). Each middle segment is placed at its
// leftmost occurrence after the previous one: with '*' the only wildcard,
// a leftmost placement leaves the most room for what follows, so no
// backtracking is needed.
func globMatch(segs []string, anchored bool, path string) bool {
	first := segs[0]
	if !strings.HasPrefix(path, first) {
		return false
	}
	rest := path[len(first):]
	last := len(segs) - 1
	if anchored && !strings.HasSuffix(rest, segs[last]) {
		return false // cheap rejection before any search
	}
	for i := 1; i < last; i++ {
		s := segs[i]
		if s == "" {
			continue
		}
		j := strings.Index(rest, s)
		if j < 0 {
			return false
		}
		rest = rest[j+len(s):]
	}
	s := segs[last]
	if anchored {
		return strings.HasSuffix(rest, s)
	}
	return s == "" || strings.Contains(rest, s)
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
	early := indexAny3(url, start)
	proto := strings.Index(url[start:], "://")
	if proto >= 0 {
		proto += start
	}
	if early >= 0 && (proto < 0 || early < proto) {
		proto = -1
	}
	if proto < 0 {
		proto = start
	} else {
		proto += 3
	}
	ps := indexAny3(url, proto)
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
// from, or -1.
func indexAny3(s string, from int) int {
	for i := from; i < len(s); i++ {
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
// bytes at a time.
func needsNormRFCPath(s string) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	const pct, star, dollar = 0x2525252525252525, 0x2A2A2A2A2A2A2A2A, 0x2424242424242424
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))
		x, y, z := w^pct, w^star, w^dollar // a zero byte where s has '%', '*', '$'
		if w&hi != 0 || ((x-lo)&^x|(y-lo)&^y|(z-lo)&^z)&hi != 0 {
			return true
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '%' || c == '*' || c == '$' || c >= 0x80 {
			return true
		}
	}
	return false
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
