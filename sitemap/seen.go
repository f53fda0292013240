package sitemap

// hashSet is a set of 64-bit hashes (the URLs a discovery has yielded),
// eight bytes a member: 32 open-addressing tables with linear probing,
// each at most 80% full, which never grow past what max members need. A
// Go map of the same hashes costs about 40 bytes a member, which at the
// 2^20 a discovery remembers was 40 MB live, and twice that in a
// collected heap. The tables are grown one at a time, so growing holds
// two copies of a 32nd of the set, not of all of it.
type hashSet struct {
	parts  [32]hashPart
	n, max int
	sink   uint64 // what Touch read, so that its loads are kept
}

type hashPart struct {
	slots []uint64 // 0 is an empty slot; the hash 0 is stored as 1
	n     int
}

// newHashSet returns a set that holds at most max members.
func newHashSet(max int) *hashSet { return &hashSet{max: max} }

// Len returns the number of members.
func (s *hashSet) Len() int { return s.n }

// Touch reads the slot where each hash's probe starts. At a million
// members the tables are far larger than the processor's caches, so each
// Add starts with a cache miss; Touch's loads do not depend on one
// another, so the processor waits for their misses at once rather than
// one after the other, and the Adds that follow find the slots cached.
func (s *hashSet) Touch(hs []uint64) {
	var x uint64
	for _, h := range hs {
		m := mix(max(h, 1))
		if p := &s.parts[m>>59]; len(p.slots) > 0 {
			x ^= p.slots[p.index(m)]
		}
	}
	s.sink ^= x
}

// Add adds h and reports whether it was a member already. A set that
// holds max members adds nothing more, and reports false for a hash it
// does not hold.
func (s *hashSet) Add(h uint64) (present bool) {
	if h == 0 {
		h = 1
	}
	m := mix(h)
	p := &s.parts[m>>59]
	if len(p.slots) > 0 {
		i := p.index(m)
		for {
			switch p.slots[i] {
			case h:
				return true
			case 0:
				if s.n >= s.max {
					return false
				}
				if (p.n+1)*5 <= len(p.slots)*4 {
					p.slots[i] = h
					p.n++
					s.n++
					return false
				}
				return s.insert(p, h, m)
			}
			if i++; i == len(p.slots) {
				i = 0
			}
		}
	}
	if s.n >= s.max {
		return false
	}
	return s.insert(p, h, m)
}

// insert adds h, which p does not hold and has no room for, growing p.
// A part that would grow past its share of max, and a little more (an
// eighth and 64), adds nothing, and Add reports false for h as it does
// in a full set, so a URL listed again would be yielded again. With the
// hashes a discovery adds (maphash under a seed of its own, unknown to
// the sitemaps' authors) that does not happen before the set is full:
// at 2^20 members a part's share is 32,768, one standard deviation of
// its count about 180, and the eighth allows 4,096 more, 23 deviations.
func (s *hashSet) insert(p *hashPart, h, m uint64) bool {
	share := s.max/len(s.parts) + s.max/len(s.parts)/8 + 64
	size := min(max(2*len(p.slots), 64), share*5/4+1)
	if size <= len(p.slots) {
		return false
	}
	old := p.slots
	p.slots = make([]uint64, size)
	for _, o := range old {
		if o != 0 {
			p.put(o, mix(o))
		}
	}
	p.put(h, m)
	p.n++
	s.n++
	return false
}

// mix spreads a member's bits (Fibonacci hashing: hashes that differ in
// low bits only spread too); its top bits choose the part, the next the
// slot (index).
func mix(h uint64) uint64 { return h * 0x9E3779B97F4A7C15 }

// index is where the probe for a hash mixed into m starts: m's bits
// below those that chose the part, scaled to the table.
func (p *hashPart) index(m uint64) int {
	return int((m << 5 >> 32) * uint64(len(p.slots)) >> 32)
}

// put stores h in the first free slot from its index.
func (p *hashPart) put(h, m uint64) {
	i := p.index(m)
	for p.slots[i] != 0 {
		if i++; i == len(p.slots) {
			i = 0
		}
	}
	p.slots[i] = h
}
