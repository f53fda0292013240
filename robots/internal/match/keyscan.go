package match

import (
	"encoding/binary"
	"math"
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
// of the node's rules hold (up to fewRules of them count as few), and
// among those the one whose first byte the fewest URL paths hold
// (urlBytes); otherwise it is the rule's longest segment, of one to
// three bytes. Real patterns ("/*?sort=", "/*/print/", "/*.pdf$") mostly
// begin with a byte every path holds, so a rule's rarest window, not its
// first byte, is what tells it apart, and a window starting with a rare
// byte makes the pass stop at few positions.
//
// The pass looks at every position of the path where some key may start
// (a bitmap of the keys' first two bytes, six bits of each: 512 bytes,
// and far fewer positions let through than by the first byte alone,
// each of which costs a mispredicted branch): the one-byte keys in an
// exact bitmap, the others (and the first two bytes of the two- and
// three-byte ones) in a blocked Bloom filter of their hashes (sixteen bits
// a key, so a scan's size follows its keys', but for a dense scan's, of a
// constant 32 KB: maxDense); only what these let through
// is looked up in the table of keys. A key's rules are tried in rank
// order, only while they rank above the best match so far, each verified
// where the key was found (scanOut), and each key whose rules need not be
// tried again once. A path costs its length in bitmap tests, plus the
// rules whose key it holds, however many rules the node has.
type keyScan struct {
	lead   [64]uint64 // the keys' first two bytes, the low six bits of each (word by the second): a position starting with none of them is passed over
	one    [4]uint64  // the one-byte keys
	short  bool       // some keys have two or three bytes
	two    []uint64   // when minTwo or more keys have two or three bytes, or a dense scan has one: their first two bytes, exactly (8 KB)
	filter []uint64   // two bits a hash in one word: of the keys of two to four bytes, and of the first two bytes of the shorter ones
	fshift uint8      // 64 - log2 of filter's bits
	table  []keySlot  // open addressing, at most half full
	tshift uint8      // 64 - log2(len(table)), or of small when not 0
	// small, when not 0, is where the keys of one to three bytes start
	// in table, in a region of their own (sshift) after the four-byte
	// keys': a dense scan's few short keys are looked up at most
	// decisions, and so stay in cache, where the table of thousands of
	// four-byte keys does not.
	small  int
	sshift uint8
	out    []scanOut // the rules of each key, key by key, in rank order
	always uint32    // out[:always]: the rules with no literal after the prefix ("/a**"), tried for every path
	// dense is set for a scan of minDense keys or more (the root's, at
	// thousands of rules): nearly every byte starts a key, so its pass
	// tests no lead byte and no one-byte key a position (densePass); ones
	// then lists its one-byte keys.
	dense bool
	ones  []oneKey
}

// oneKey is a one-byte key of a dense keyScan and its slot in the table,
// in the order of the rank of the slot's first rule.
type oneKey struct {
	c    byte
	slot uint32
}

// keySlot is a key of a keyScan and where its rules are in out, with
// what rejects its first rule without reading out (a cache miss at
// 100,000 rules): that rule's rank, and for a rule verified where its
// key is found, its head and at.
type keySlot struct {
	key    uint64 // the key's bytes little-endian, its length in bits 32..34; 0 for an empty slot
	o0, o1 uint32 // out[o0&^again : o1]
	rank   uint32 // out[o0&^again].rank
	at     int16  // out[o0&^again].at when it is 0 to 32767, else atNone
	n      uint8  // how many of head's bytes are the segment's (at most 8)
	head   uint64 // out[o0&^again].head when at >= 0
}

// again, set in keySlot.o0, marks a key whose rules are tried again at
// each place the path holds it: one of them is verified at that place
// only (scanOut.at), so failing there does not rule it out.
const again = 1 << 31

// scanOut is a rule a key leads to: its index in Index.wild and its
// rank, kept here so that rules ranking below the best match so far are
// passed over without reading them, and where its key lies in it: in its
// segment tail[s0:s1], at offset at. A key found at i places that segment
// at i-at, and the rule is verified there (wildRule.matchAt): the segment
// compared, the others searched for only before and after it. A rule
// whose only segment is its key, with no '$', matches wherever its key is
// found (at is atExact); a rule with no key is matched whole (at is
// atNone).
type scanOut struct {
	k, rank    uint32
	s0, s1, at int32
	whole      bool   // the segment is the whole rule (no other segment, no '$')
	head       uint64 // the segment's first eight bytes (fewer if it is shorter), little-endian
}

const (
	atNone  = -1
	atExact = -2
)

// maxSeen is how many keys found in one path are remembered so as not to
// try their rules twice; past it, a key found again is tried again (its
// rules are pruned by the best match so far all the same).
const maxSeen = 32

// keyOf packs the n (1 to 4) bytes of s at i into a key.
func keyOf(s string, i, n int) uint64 {
	var v uint64
	for j := n - 1; j >= 0; j-- {
		v = v<<8 | uint64(s[i+j])
	}
	return v | uint64(n)<<32
}

// hashKey mixes a key into 64 bits, of which the bitmap and the table
// take the top ones.
func hashKey(k uint64) uint64 { return k * 0x9E3779B97F4A7C15 }

// scanState is what one pass of keyScan.first keeps: the best rank so
// far and the keys whose rules were tried (a key found again has no rule
// left to try: those that failed rank as they did, and best only falls).
type scanState struct {
	best    uint32
	oneSeen [4]uint64 // the one-byte keys found, by byte
	seen    [maxSeen]uint32
	nseen   int
	touch   uint64 // what keyScan.touch loaded
}

// first returns the lowest rank below best of the rules whose key occurs
// in rest and which match it, or best. At each position of rest it loads
// the four bytes there as one word and, when its first two bytes may
// start a key (lead), tests the keys that start there: the one-byte key
// in the exact bitmap (its rules are tried after the pass), the four-byte
// one (and the two- and three-byte ones, when the scan has such keys) in
// the filter. A dense scan makes its own pass (densePass).
func (ks *keyScan) first(wild []wildRule, rest string, best uint32) uint32 {
	st := scanState{best: best}
	if ks.always != 0 {
		ks.tryRules(wild, rest, &st, ks.out[:ks.always], 0)
	}
	if ks.dense {
		ks.densePass(wild, rest, &st)
		return st.best
	}
	// Along a slice of rest's bytes that starts at i: each word is loaded
	// with no bounds check.
	b := BytesOf(rest)
	for ; len(b) >= 4; b = b[1:] {
		w := uint64(binary.LittleEndian.Uint32(b))
		if ks.lead[w>>8&63]&(1<<(w&63)) == 0 {
			continue // no key starts with these two bytes
		}
		i := len(rest) - len(b)
		c := w & 0xff
		st.oneSeen[c>>6] |= ks.one[c>>6] & (1 << (c & 63))
		if ks.short && ks.mayStartShort(w) {
			if k := w&0xffff | 2<<32; ks.mayHold(k) {
				ks.try(wild, rest, &st, k, i)
			}
			if k := w&0xffffff | 3<<32; ks.mayHold(k) {
				ks.try(wild, rest, &st, k, i)
			}
		}
		if k := w | 4<<32; ks.mayHold(k) {
			ks.try(wild, rest, &st, k, i)
		}
	}
	// The last three positions: keys of one to three bytes.
	for i := len(rest) - len(b); i < len(rest); i++ {
		c := rest[i]
		st.oneSeen[c>>6] |= ks.one[c>>6] & (1 << (c & 63))
		if ks.short {
			for n := 2; n <= 3 && i+n <= len(rest); n++ {
				if k := keyOf(rest, i, n); ks.mayHold(k) {
					ks.try(wild, rest, &st, k, i)
				}
			}
		}
	}
	if st.oneSeen != [4]uint64{} {
		ks.tryOnes(wild, rest, &st)
	}
	return st.best
}

// densePass is first's pass for a dense keyScan. At each position it
// tests only the four-byte key in the filter and the first two bytes of
// the shorter keys in the exact bitmap two, 64 positions at a time
// without a branch (blockHits), then tries the keys at the positions
// that passed; the one-byte keys are looked for after it, each once, in
// the order of their best rule, while that rule ranks above the best
// match (most are short patterns, which rank low).
func (ks *keyScan) densePass(wild []wildRule, rest string, st *scanState) {
	two := ks.two
	if two == nil {
		two = noTwo[:]
	}
	tw := (*[1 << 10]uint64)(two)
	for i := 0; i+4 <= len(rest); i += 64 {
		end := min(len(rest)-3, i+64)
		m4, m2 := blockHits((*[1 << denseFilter]uint64)(ks.filter), tw, rest, i, end)
		if m4&(m4-1) != 0 {
			// Two or more: their table slots are loaded together, so that
			// their cache misses overlap rather than follow each other.
			st.touch ^= ks.touch(rest, i, m4)
		}
		// The four-byte keys first: their rules are the longer patterns,
		// which rank first, and the best match they find bounds the
		// shorter keys' rules.
		for m4 != 0 {
			j := i + bits.TrailingZeros64(m4)
			m4 &= m4 - 1
			ks.try(wild, rest, st, uint64(load32(rest, j))|4<<32, j)
		}
		for m2 != 0 {
			j := i + bits.TrailingZeros64(m2)
			m2 &= m2 - 1
			ks.tryShort(wild, rest, st, uint64(load32(rest, j)), j)
		}
	}
	// The last three positions: keys of two or three bytes.
	for i := max(len(rest)-3, 0); i < len(rest) && ks.short; i++ {
		for n := 2; n <= 3 && i+n <= len(rest); n++ {
			if k := keyOf(rest, i, n); ks.mayHold(k) {
				ks.try(wild, rest, st, k, i)
			}
		}
	}
	for _, o := range ks.ones {
		sl := &ks.table[o.slot]
		if sl.rank >= st.best {
			break
		}
		if strings.IndexByte(rest, o.c) >= 0 {
			ks.tryRules(wild, rest, st, ks.out[sl.o0&^again:sl.o1], 0)
		}
	}
}

// blockHits returns the positions of rest from i to end (at most 64)
// whose four-byte window may be a key (in filter) and whose first two
// bytes may start a shorter one (in two), as bits from i: a loop without
// a branch a position, since which positions hit is not predictable.
func blockHits(filter *[1 << denseFilter]uint64, two *[1 << 10]uint64, rest string, i, end int) (m4, m2 uint64) {
	s := rest[i : end+3]
	// Each bit enters at the top, so that it is shifted in by a constant;
	// the four bytes are read one by one, which the compiler makes one
	// load (load32 costs a slice's checks here).
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

// touch loads the table slot of the four-byte window at each position
// of rest from i set in m, and returns what it read (so that the loads
// are made): a decision's table slots are cache misses at 100,000 rules.
func (ks *keyScan) touch(rest string, i int, m uint64) uint64 {
	var x uint64
	for ; m != 0; m &= m - 1 {
		j := i + bits.TrailingZeros64(m)
		x ^= ks.table[hashKey(uint64(load32(rest, j))|4<<32)>>ks.tshift].key
	}
	return x
}

// noTwo is keyScan.two for a dense scan with no key of two or three bytes.
var noTwo [1 << 16 / 64]uint64

// tryShort tries the keys of two and three bytes that may start with the
// first two bytes of w, found at i in rest.
func (ks *keyScan) tryShort(wild []wildRule, rest string, st *scanState, w uint64, i int) {
	if k := w&0xffff | 2<<32; ks.mayHold(k) {
		ks.try(wild, rest, st, k, i)
	}
	if k := w&0xffffff | 3<<32; ks.mayHold(k) {
		ks.try(wild, rest, st, k, i)
	}
}

// tryOnes tries the rules of the one-byte keys found, after the longer
// keys' (which often outrank them: they are mostly short patterns). Their
// rules are matched whole, or are their key alone.
func (ks *keyScan) tryOnes(wild []wildRule, rest string, st *scanState) {
	for j, m := range st.oneSeen {
		for ; m != 0; m &= m - 1 {
			c := uint64(j<<6 + bits.TrailingZeros64(m))
			sl := &ks.table[ks.find(c|1<<32)]
			ks.tryRules(wild, rest, st, ks.out[sl.o0&^again:sl.o1], 0)
		}
	}
}

// try tries the rules of key k, found at i in rest, unless it is a key
// tried already whose rules need not be tried again.
func (ks *keyScan) try(wild []wildRule, rest string, st *scanState, k uint64, i int) {
	s := ks.find(k)
	if s < 0 {
		return
	}
	sl := &ks.table[s]
	if sl.rank >= st.best {
		return // its rules rank below the best match so far
	}
	o0 := sl.o0 &^ again
	if p := i - int(sl.at); sl.at >= 0 && (p < 0 || len(rest)-p < int(sl.n) || (wordAt(rest, p)^sl.head)<<(64-8*sl.n) != 0) {
		o0++ // its first rule's segment is not there
	}
	if sl.o0&again == 0 {
		for _, v := range st.seen[:st.nseen] {
			if v == uint32(s) {
				return
			}
		}
		if st.nseen < maxSeen {
			st.seen[st.nseen] = uint32(s)
			st.nseen++
		}
	}
	ks.tryRules(wild, rest, st, ks.out[o0:sl.o1], i)
}

// tryRules tries rules, which are in rank order, while they rank above
// the best match so far; the first that matches rest is the best. Their
// key was found at i.
func (ks *keyScan) tryRules(wild []wildRule, rest string, st *scanState, rules []scanOut, i int) {
	for _, o := range rules {
		if o.rank >= st.best {
			return
		}
		switch o.at {
		case atExact:
		case atNone:
			if !wild[o.k].match(rest) {
				continue
			}
		default:
			// The segment's first bytes, kept here, reject most places
			// without reading the rule; a short segment that is the whole
			// rule matches on them.
			p, n := i-int(o.at), int(o.s1-o.s0)
			if p < 0 || len(rest)-p < n || (wordAt(rest, p)^o.head)<<(64-8*min(n, 8)) != 0 {
				continue
			}
			if !(o.whole && n <= 8) && !wild[o.k].matchAt(rest, int(o.s0), int(o.s1), p) {
				continue
			}
		}
		st.best = o.rank
		return
	}
}

// find returns the slot of key k in the table, or -1.
func (ks *keyScan) find(k uint64) int {
	lo, hi, sh := ks.region(k)
	mask := hi - lo - 1
	for s := int(hashKey(k) >> sh); ; s = (s + 1) & mask {
		switch ks.table[lo+s].key {
		case k:
			return lo + s
		case 0:
			return -1
		}
	}
}

// region returns the region of the table that holds key k when it is
// there, table[lo:hi], and the shift that takes a hash to its slot there.
func (ks *keyScan) region(k uint64) (lo, hi int, shift uint8) {
	switch {
	case ks.small == 0:
		return 0, len(ks.table), ks.tshift
	case k>>32 < 4:
		return ks.small, len(ks.table), ks.sshift
	}
	return 0, ks.small, ks.tshift
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

// scanKey returns the key of a wildcard rule, its rarest four-byte window
// by count (then by its first byte in URLs), or its longest segment when
// none has four bytes, and the scanOut that finds the rule by it.
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
			if n := max(count.of(k), fewRules); best == 0 || n < bestN || n == bestN && urlRank(s[i]) > urlRank(byte(best)) {
				best, bestN = k, n
				o.s0, o.s1, o.at = int32(a), int32(b), int32(i)
			}
		}
	})
	if best == 0 && s1 > s0 {
		// A short key is its whole segment: placing it tells nothing that
		// matching the rule whole does not (and that is done once).
		best = keyOf(w.tail, s0, s1-s0)
		o.s0, o.s1 = int32(s0), int32(s1)
	}
	o.whole = w.split < 0 && !w.anchored
	if best != 0 && o.whole && int(o.s1-o.s0) == int(best>>32) {
		o.at = atExact // the key is the whole rule
	}
	if o.at >= 0 {
		o.head = wordAt(w.tail[o.s0:o.s1], 0)
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
	// By key, then rank: each key's rules come out in rank order.
	slices.SortFunc(keys, func(x, y kv) int {
		if x.key != y.key {
			if x.key < y.key {
				return -1
			}
			return 1
		}
		return int(x.out.rank) - int(y.out.rank)
	})
	// The keys, those of one to three bytes (small) and of two or three
	// (short).
	nkeys, nsmall, nshort := 0, 0, 0
	for i := range keys {
		if k := keys[i].key; k != 0 && (i == 0 || k != keys[i-1].key) {
			nkeys++
			if n := k >> 32; n < 4 {
				nsmall++
				if n >= 2 {
					nshort++
				}
			}
		}
	}
	ks := &keyScan{out: make([]scanOut, 0, len(keys)), dense: nkeys >= t.MinDense && nkeys+nshort <= maxDense}
	if ks.dense {
		b, bs := bits.Len(uint((nkeys-nsmall)*2)), bits.Len(uint(nsmall*2))
		ks.table, ks.tshift = make([]keySlot, 1<<b+1<<bs), uint8(64-b)
		ks.small, ks.sshift = 1<<b, uint8(64-bs)
	} else {
		b := bits.Len(uint(nkeys * 2))
		ks.table, ks.tshift = make([]keySlot, 1<<b), uint8(64-b)
	}
	i := 0
	for ; i < len(keys) && keys[i].key == 0; i++ {
		ks.out = append(ks.out, keys[i].out)
	}
	ks.always = uint32(i)
	for i < len(keys) {
		k, o0 := keys[i].key, uint32(len(ks.out))
		for ; i < len(keys) && keys[i].key == k; i++ {
			ks.out = append(ks.out, keys[i].out)
			if keys[i].out.at >= 0 {
				o0 |= again // verified at one place: not ruled out by failing there
			}
		}
		sl := keySlot{key: k, o0: o0, o1: uint32(len(ks.out)), at: atNone}
		f := &ks.out[o0&^again]
		sl.rank = f.rank
		if f.at >= 0 && f.at <= math.MaxInt16 {
			sl.at, sl.n, sl.head = int16(f.at), uint8(min(f.s1-f.s0, 8)), f.head
		}
		ks.add(sl)
	}
	// Sixteen bits an entry (a key, and the first two bytes of a short
	// one), two set in one word an entry (a blocked Bloom filter): about
	// one window in fifty that no key is gets through to the table.
	fb := max(bits.Len(uint((nkeys+nshort)*16)), 9) - 6 // log2 of the words
	if ks.dense {
		fb = denseFilter
	}
	ks.filter, ks.fshift = make([]uint64, 1<<fb), uint8(64-fb)
	if nshort >= t.MinTwo || ks.dense && nshort > 0 {
		ks.two = make([]uint64, 1<<16/64)
	}
	for s, sl := range ks.table {
		if sl.key != 0 {
			ks.mark(sl.key)
		}
		if ks.dense && sl.key>>32 == 1 {
			ks.ones = append(ks.ones, oneKey{byte(sl.key), uint32(s)})
		}
	}
	slices.SortFunc(ks.ones, func(x, y oneKey) int { return int(ks.table[x.slot].rank) - int(ks.table[y.slot].rank) })
	return ks
}

// add enters a key that is not in the table.
func (ks *keyScan) add(sl keySlot) {
	lo, hi, sh := ks.region(sl.key)
	mask := hi - lo - 1
	s := int(hashKey(sl.key) >> sh)
	for ks.table[lo+s].key != 0 {
		s = (s + 1) & mask
	}
	ks.table[lo+s] = sl
}

// mark sets the bits of key k in the bitmaps first tests.
func (ks *keyScan) mark(k uint64) {
	c := k & 0xff
	if k>>32 == 1 {
		for j := range ks.lead {
			ks.lead[j] |= 1 << (c & 63) // whatever byte follows
		}
		ks.one[c>>6] |= 1 << (c & 63)
		return
	}
	ks.lead[k>>8&63] |= 1 << (c & 63)
	if n := k >> 32; n == 2 || n == 3 {
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

// minTwo is how many keys of two or three bytes a keyScan needs before
// it tests their first two bytes in an exact bitmap rather than in the
// filter.
const minTwo = 64

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

// mayStartShort reports whether a key of two or three bytes may start
// with the first two bytes of w.
func (ks *keyScan) mayStartShort(w uint64) bool {
	if ks.two != nil {
		return ks.two[w>>6&(1<<10-1)]&(1<<(w&63)) != 0
	}
	return ks.mayHold(w&0xffff | shortPrefix)
}

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

// fewRules is the count of rules holding a window at or below which
// scanKey counts windows as equally rare: among them, the one whose first
// byte the fewest paths hold is the key, so that the pass stops at few
// positions.
const fewRules = 4

// urlRank is the rank of byte c in urlBytes: the higher, the fewer URL
// paths hold it.
func urlRank(c byte) int { return int(urlRanks[c]) }

// urlRanks is urlRank by byte.
var urlRanks = func() (r [256]uint8) {
	for c := range r {
		r[c] = uint8(len(urlBytes))
	}
	for i := 0; i < len(urlBytes); i++ {
		r[urlBytes[i]] = uint8(i)
	}
	return r
}()
