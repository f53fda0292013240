package match

import "strings"

// Pattern is a rule's pattern in its profile's comparison form, as the
// index matches it: Lit is the pattern with a final '$' removed (Anchored
// set) and runs of '*' as one '*' (Wild set when it holds one). A rule
// whose pattern is empty as written matches nothing: it is not given to
// the index.
type Pattern struct {
	Lit      string
	Anchored bool
	Wild     bool
}

// Tuning is where the index's speed structures start: the build-time
// thresholds that decide which structure a node gets. Default holds the
// constants a Policy builds with; tests build with others (BuildTuned) so
// that every structure is reached by small inputs, with no global state.
type Tuning struct {
	MinScan  uint32 // wildcard rules a node needs for a keyScan
	MinDense int    // keys a keyScan needs for the dense pass
}

// Default is the tuning Build uses.
var Default = Tuning{MinScan: minScan, MinDense: minDense}

// Build returns the index of pats, which are in decision order: the rank
// Lookup returns is an index in pats.
func Build(pats []Pattern) *Index { return build(pats, Default) }

// BuildTuned is Build with the thresholds of t.
func BuildTuned(pats []Pattern, t Tuning) *Index { return build(pats, t) }

// Match reports whether p matches path, one rule alone.
func (p Pattern) Match(path string) bool {
	switch {
	case p.Wild:
		return globMatch(p.Lit, p.Anchored, path)
	case p.Anchored:
		return path == p.Lit
	}
	return strings.HasPrefix(path, p.Lit)
}

// LookupURL decides the common case without finding the path's end or
// testing all of it for bytes to normalise first: raw is a URL's path
// from its first '/', fragment included. The walk down the index stops
// at a '#' by itself, and its outcome depends only on the bytes it read:
// when none of them is one that normalising would change (rfc: RFC
// 9309's form; else the path is compared as given), the path in
// comparison form starts with the same bytes. Only when wildcard rules
// are to be tried is the fragment cut off and the rest of the path
// tested. ok is false when the caller must normalise the path and call
// Lookup.
func (ix *Index) LookupURL(raw string, rfc bool) (k uint32, ok bool) {
	if !ix.frag {
		return 0, false
	}
	var w walked
	ix.walk(raw, true, &w)
	if w.over || rfc && needsNormRFCPrefix(raw, w.read) {
		return 0, false
	}
	if !ix.needWild(&w) {
		return w.best, true
	}
	path := raw
	if h := strings.IndexByte(raw, '#'); h >= 0 {
		path = raw[:h]
	}
	if rfc && NeedsNormRFCPath(path) {
		return 0, false
	}
	return ix.wilds(&w, path), true
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

// Dense reports whether one of the index's key scans makes the dense
// pass: for tests that must reach it.
func (ix *Index) Dense() bool {
	for _, ks := range ix.scans {
		if ks.dense {
			return true
		}
	}
	return false
}
