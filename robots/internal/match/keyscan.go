package match

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strings"
)

// minScan is how many wildcard rules a node needs before it finds
// candidates with a keyScan rather than trying them in turn.
const minScan = 4

// keyScan finds, in one pass over the rest of a path, the few wildcard
// rules of one node that can match it. Each rule is filed under one key:
// a literal every path it matches holds after the node's prefix. Where a
// segment of the rule (what lies between its '*'s) has four bytes or
// more, the key is the four-byte window of its segments that the fewest
// of the node's rules hold; otherwise it is the rule's longest segment,
// of two or three bytes. A rule whose segments are all one byte long
// ("/*/*/", "/*.") has no key: the keyless rules are tried after the pass,
// whose matches (longer patterns, which rank first) often spare them. Real
// patterns ("/*?sort=", "/*/print/", "/*.pdf$") mostly begin with a byte
// every path holds, so a rule's rarest window, not its first byte, is what
// tells it apart.
//
// The pass passes over every position of the path where no key starts
// (lead, a bitmap of the keys' first two bytes, six bits of each) and
// tests the others in a blocked Bloom filter of the keys' hashes (and of
// the first two bytes of the two- and three-byte keys); only what it lets
// through is looked up in the table of keys. A key's rules are tried in
// rank order, only while they rank above the best match so far, each
// verified where the key was found (scanOut). A path costs its length in
// bitmap tests, plus the rules whose key it holds, however many rules the
// node has. A scan of minDense keys or more makes the dense pass instead
// (densePass).
type keyScan struct {
	lead    [64]uint64 // the keys' first two bytes, the low six bits of each (word by the second)
	short   bool       // some keys have two or three bytes
	two     []uint64   // a dense scan's exact bitmap of its short keys' first two bytes (8 KB), when it has some
	filter  []uint64   // two bits a hash in one word: of the keys, and of the first two bytes of the short ones
	fshift  uint8      // 64 - log2 of filter's words
	table   []keySlot  // open addressing, at most half full
	tshift  uint8      // 64 - log2(len(table))
	out     []scanOut  // the rules of each key, key by key, in rank order, after the keyless ones
	keyless uint32     // out[:keyless]: the rules with no key, tried after the pass
	dense   bool       // a scan of minDense keys or more: see densePass
}

// keySlot is a key of a keyScan, where its rules are in out, and the rank
// of the first of them, so that a key whose rules all rank below the best
// match so far is passed over without reading out.
type keySlot struct {
	key    uint64 // the key's bytes little-endian, its length in bits 32..34; 0 for an empty slot
	o0, o1 uint32 // out[o0:o1]
	rank   uint32 // out[o0].rank
}

// scanOut is a rule a key leads to: its index in Index.wild and its
// rank, kept here so that rules ranking below the best match so far are
// passed over without reading them, and where its key lies in it: in its
// segment tail[s0:s1], at offset at. A key found at i places that segment
// at i-at, and the rule is verified there (wildRule.matchAt): the segment
// compared, the others searched for only before and after it. A rule
// whose only segment is its key, with no '$', matches wherever its key is
// found (at is atExact); a rule keyed by a short segment, or with no key,
// is matched whole (at is atNone).
type scanOut struct {
	k, rank    uint32
	s0, s1, at int32
}

const (
	atNone  = -1
	atExact = -2
)

// keyOf packs the n (2 to 4) bytes of s at i into a key.
func keyOf(s string, i, n int) uint64 {
	var v uint64
	for j := n - 1; j >= 0; j-- {
		v = v<<8 | uint64(s[i+j])
	}
	return v | uint64(n)<<32
}

// hashKey mixes a key into 64 bits, of which the filter and the table
// take the top ones.
func hashKey(k uint64) uint64 { return k * 0x9E3779B97F4A7C15 }

// first returns the lowest rank below best of the rules of the scan that
// match rest, or best: those whose key occurs in rest, found by the pass,
// then the keyless ones.
func (ks *keyScan) first(wild []wildRule, rest string, best uint32) uint32 {
	if ks.dense {
		best = ks.densePass(wild, rest, best)
	} else {
		best = ks.pass(wild, rest, best)
	}
	return ks.tryRules(wild, rest, best, ks.out[:ks.keyless], 0)
}

// pass is first's pass for a scan that is not dense. At each position of
// rest it loads the four bytes there as one word and, when its first two
// bytes may start a key (lead), tests the keys that start there in the
// filter: the four-byte one, and the two- and three-byte ones when the
// first two bytes of one are in it.
func (ks *keyScan) pass(wild []wildRule, rest string, best uint32) uint32 {
	// Along a slice of rest's bytes: each word is loaded with no bounds
	// check.
	b := BytesOf(rest)
	for ; len(b) >= 4; b = b[1:] {
		w := uint64(binary.LittleEndian.Uint32(b))
		if ks.lead[w>>8&63]&(1<<(w&63)) == 0 {
			continue // no key starts with these two bytes
		}
		i := len(rest) - len(b)
		if ks.short && ks.mayHold(w&0xffff|shortPrefix) {
			best = ks.tryShort(wild, rest, best, w, i)
		}
		if k := w | 4<<32; ks.mayHold(k) {
			best = ks.try(wild, rest, best, k, i)
		}
	}
	return ks.tail(wild, rest, best, len(rest)-len(b))
}

// tail tries the keys of two or three bytes at the positions of rest from
// i, its last three, where no four-byte key fits.
func (ks *keyScan) tail(wild []wildRule, rest string, best uint32, i int) uint32 {
	if !ks.short {
		return best
	}
	for ; i < len(rest); i++ {
		for n := 2; n <= 3 && i+n <= len(rest); n++ {
			if k := keyOf(rest, i, n); ks.mayHold(k) {
				best = ks.try(wild, rest, best, k, i)
			}
		}
	}
	return best
}

// densePass is first's pass for a dense keyScan: nearly every byte starts
// a key there, so no lead byte is tested. At each position it tests the
// four-byte key in the filter and the first two bytes of the shorter keys
// in the exact bitmap two, 64 positions at a time without a branch
// (blockHits), then tries the keys at the positions that passed,
// four-byte keys first.
func (ks *keyScan) densePass(wild []wildRule, rest string, best uint32) uint32 {
	two := ks.two
	if two == nil {
		two = noTwo[:]
	}
	tw := (*[1 << 10]uint64)(two)
	for i := 0; i+4 <= len(rest); i += 64 {
		end := min(len(rest)-3, i+64)
		m4, m2 := blockHits((*[1 << denseFilter]uint64)(ks.filter), tw, rest, i, end)
		// The four-byte keys first: their rules are the longer patterns,
		// which rank first, and the best match they find bounds the
		// shorter keys' rules.
		for m4 != 0 {
			j := i + bits.TrailingZeros64(m4)
			m4 &= m4 - 1
			best = ks.try(wild, rest, best, uint64(load32(rest, j))|4<<32, j)
		}
		for m2 != 0 {
			j := i + bits.TrailingZeros64(m2)
			m2 &= m2 - 1
			best = ks.tryShort(wild, rest, best, uint64(load32(rest, j)), j)
		}
	}
	return ks.tail(wild, rest, best, max(len(rest)-3, 0))
}

// blockHits returns the positions of rest from i to end (at most 64)
// whose four-byte window may be a key (in filter) and whose first two
// bytes may start a shorter one (in two), as bits from i: a loop without
// a branch a position, since which positions hit is not predictable.
func blockHits(filter *[1 << denseFilter]uint64, two *[1 << 10]uint64, rest string, i, end int) (m4, m2 uint64) {
	s := rest[i : end+3]
	// Each bit enters at the top, so that it is shifted in by a constant;
	// the four bytes are read one by one, which the compiler makes one
	// load.
	for j := 3; j < len(s); j++ {
		w := uint64(s[j-3]) | uint64(s[j-2])<<8 | uint64(s[j-1])<<16 | uint64(s[j])<<24
		h := hashKey(w | 4<<32)
		f := filter[h>>(64-denseFilter)]
		m4 = m4>>1 | b2u(f&(1<<(h>>32&63)) != 0)&b2u(f&(1<<(h>>38&63)) != 0)<<63
		m2 = m2>>1 | b2u(two[w>>6&(1<<10-1)]&(1<<(w&63)) != 0)<<63
	}
	n := uint(64-(end-i)) & 63
	return m4 >> n, m2 >> n
}

// b2u is 1 for true, 0 for false.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// noTwo is keyScan.two for a dense scan with no key of two or three bytes.
var noTwo [1 << 16 / 64]uint64

// tryShort tries the keys of two and three bytes that may start with the
// first two bytes of w, four bytes found at i in rest.
func (ks *keyScan) tryShort(wild []wildRule, rest string, best uint32, w uint64, i int) uint32 {
	if k := w&0xffff | 2<<32; ks.mayHold(k) {
		best = ks.try(wild, rest, best, k, i)
	}
	if k := w&0xffffff | 3<<32; ks.mayHold(k) {
		best = ks.try(wild, rest, best, k, i)
	}
	return best
}

// try tries the rules of key k, found at i in rest, when it is a key.
func (ks *keyScan) try(wild []wildRule, rest string, best uint32, k uint64, i int) uint32 {
	s := ks.find(k)
	if s < 0 {
		return best
	}
	sl := &ks.table[s]
	if sl.rank >= best {
		return best // its rules rank below the best match so far
	}
	return ks.tryRules(wild, rest, best, ks.out[sl.o0:sl.o1], i)
}

// tryRules tries rules, which are in rank order, while they rank above
// best; the first that matches rest is the best, and its rank is
// returned. Their key was found at i.
func (ks *keyScan) tryRules(wild []wildRule, rest string, best uint32, rules []scanOut, i int) uint32 {
	for _, o := range rules {
		if o.rank >= best {
			break
		}
		switch o.at {
		case atExact:
		case atNone:
			if !wild[o.k].match(rest) {
				continue
			}
		default:
			if !wild[o.k].matchAt(rest, int(o.s0), int(o.s1), i-int(o.at)) {
				continue
			}
		}
		return o.rank
	}
	return best
}

// find returns the slot of key k in the table, or -1.
func (ks *keyScan) find(k uint64) int {
	mask := len(ks.table) - 1
	for s := int(hashKey(k) >> ks.tshift); ; s = (s + 1) & mask {
		switch ks.table[s].key {
		case k:
			return s
		case 0:
			return -1
		}
	}
}

// eachSegment calls fn with each literal segment of a wildcard rule
// after its prefix, tail[s0:s1], the empty ones left out.
func (w *wildRule) eachSegment(fn func(s0, s1 int)) {
	for s0 := 0; s0 < len(w.tail); {
		s1 := strings.IndexByte(w.tail[s0:], '*')
		if s1 < 0 {
			s1 = len(w.tail)
		} else {
			s1 += s0
		}
		if s1 > s0 {
			fn(s0, s1)
		}
		s0 = s1 + 1
	}
}

// windowCount is how many times each four-byte window occurs in the
// segments of a keyScan's rules: the windows, sorted.
type windowCount []uint64

// of returns how many times window k occurs.
func (wc windowCount) of(k uint64) int {
	lo, _ := slices.BinarySearch(wc, k)
	hi, _ := slices.BinarySearch(wc[lo:], k+1)
	return hi
}

// scanKey returns the key of a wildcard rule, its four-byte window the
// fewest of the node's rules hold (count), or its longest segment of two
// or three bytes when none has four, or 0 when its segments are one byte
// each; and the scanOut that finds the rule by it.
func scanKey(w *wildRule, k uint32, count windowCount) (uint64, scanOut) {
	o := scanOut{k: k, rank: w.rank, at: atNone}
	best, bestN := uint64(0), 0
	s0, s1 := 0, 0 // the longest short segment
	w.eachSegment(func(a, b int) {
		s := w.tail[a:b]
		if len(s) < 4 {
			if len(s) > s1-s0 {
				s0, s1 = a, b
			}
			return
		}
		for i := 0; i+4 <= len(s); i++ {
			k := keyOf(s, i, 4)
			if n := count.of(k); best == 0 || n < bestN {
				best, bestN = k, n
				o.s0, o.s1, o.at = int32(a), int32(b), int32(i)
			}
		}
	})
	if best == 0 && s1-s0 >= 2 {
		// A short key is its whole segment: placing it tells nothing that
		// matching the rule whole does not (and that is done once).
		best = keyOf(w.tail, s0, s1-s0)
		o.s0, o.s1 = int32(s0), int32(s1)
	}
	if best != 0 && w.split < 0 && !w.anchored && int(o.s1-o.s0) == int(best>>32) {
		o.at = atExact // the key is the whole rule
	}
	return best, o
}

// buildScan builds the keyScan of the wildcard rules wild[w0:w1], which
// are in rank order.
func buildScan(wild []wildRule, w0, w1 uint32, t Tuning) *keyScan {
	var count windowCount
	for k := w0; k < w1; k++ {
		w := &wild[k]
		w.eachSegment(func(s0, s1 int) {
			for i := s0; i+4 <= s1; i++ {
				count = append(count, keyOf(w.tail, i, 4))
			}
		})
	}
	slices.Sort(count)
	type kv struct {
		key uint64
		out scanOut
	}
	keys := make([]kv, 0, w1-w0)
	for k := w0; k < w1; k++ {
		key, o := scanKey(&wild[k], k, count)
		keys = append(keys, kv{key, o})
	}
	// By key, then rank: the keyless rules first, each key's rules in
	// rank order.
	slices.SortFunc(keys, func(x, y kv) int {
		if x.key != y.key {
			if x.key < y.key {
				return -1
			}
			return 1
		}
		return int(x.out.rank) - int(y.out.rank)
	})
	nkeys, nshort := 0, 0
	for i := range keys {
		if k := keys[i].key; k != 0 && (i == 0 || k != keys[i-1].key) {
			nkeys++
			if k>>32 < 4 {
				nshort++
			}
		}
	}
	ks := &keyScan{out: make([]scanOut, 0, len(keys)), dense: nkeys >= t.MinDense && nkeys+nshort <= maxDense}
	b := bits.Len(uint(nkeys * 2))
	ks.table, ks.tshift = make([]keySlot, 1<<b), uint8(64-b)
	i := 0
	for ; i < len(keys) && keys[i].key == 0; i++ {
		ks.out = append(ks.out, keys[i].out)
	}
	ks.keyless = uint32(i)
	for i < len(keys) {
		k, o0 := keys[i].key, uint32(len(ks.out))
		for ; i < len(keys) && keys[i].key == k; i++ {
			ks.out = append(ks.out, keys[i].out)
		}
		ks.add(keySlot{key: k, o0: o0, o1: uint32(len(ks.out)), rank: ks.out[o0].rank})
	}
	// Sixteen bits an entry (a key, and the first two bytes of a short
	// one), two set in one word an entry (a blocked Bloom filter): about
	// one window in fifty that no key is gets through to the table.
	fb := max(bits.Len(uint((nkeys+nshort)*16)), 9) - 6 // log2 of the words
	if ks.dense {
		fb = denseFilter
		if nshort > 0 {
			ks.two = make([]uint64, 1<<16/64)
		}
	}
	ks.filter, ks.fshift = make([]uint64, 1<<fb), uint8(64-fb)
	for _, sl := range ks.table {
		if sl.key != 0 {
			ks.mark(sl.key)
		}
	}
	return ks
}

// add enters a key that is not in the table.
func (ks *keyScan) add(sl keySlot) {
	mask := len(ks.table) - 1
	s := int(hashKey(sl.key) >> ks.tshift)
	for ks.table[s].key != 0 {
		s = (s + 1) & mask
	}
	ks.table[s] = sl
}

// mark sets the bits of key k in the bitmaps and the filter the passes
// test.
func (ks *keyScan) mark(k uint64) {
	ks.lead[k>>8&63] |= 1 << (k & 63)
	if k>>32 < 4 {
		ks.short = true
		if ks.two != nil {
			ks.two[k>>6&(1<<10-1)] |= 1 << (k & 63)
		}
		h := hashKey(k&0xffff | shortPrefix)
		ks.filter[h>>ks.fshift] |= filterBits(h)
	}
	h := hashKey(k)
	ks.filter[h>>ks.fshift] |= filterBits(h)
}

// minDense is how many keys a keyScan needs before its pass is dense,
// and maxDense how many entries (keys, and the first two bytes of the
// short ones) its filter, of 1<<denseFilter words (32 KB), holds at most:
// sixteen bits an entry or more, as a scan's filter has. Its size is a
// constant so that blockHits finds a word with a constant shift.
const minDense = 512

const (
	denseFilter = 12
	maxDense    = 1 << (denseFilter + 6) / 16
)

// shortPrefix marks, in the filter, the first two bytes of a two- or
// three-byte key: one test at a position before the two keys' own.
const shortPrefix = 5 << 32

// filterBits is the two bits of a key's filter word, taken from its hash
// below the bits that choose the word (at most 26 of them).
func filterBits(h uint64) uint64 {
	return 1<<(h>>32&63) | 1<<(h>>38&63)
}

// mayHold reports whether the filter may hold key k.
func (ks *keyScan) mayHold(k uint64) bool {
	h := hashKey(k)
	m := filterBits(h)
	return ks.filter[h>>ks.fshift]&m == m
}
