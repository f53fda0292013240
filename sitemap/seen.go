package sitemap

// hashSet is a set of 64-bit hashes (the URLs a discovery has yielded),
// eight bytes a member: an open-addressing table with linear probing, at
// most 80% full, which never grows past what max members need. A Go map
// of the same hashes costs about 40 bytes a member, which at the 2^20 a
// discovery remembers was 40 MB live, and twice that in a collected heap.
type hashSet struct {
	slots []uint64 // 0 is an empty slot; the hash 0 is stored as 1
	n     int
	max   int
}

// newHashSet returns a set that holds at most max members.
func newHashSet(max int) *hashSet { return &hashSet{max: max} }

// Len returns the number of members.
func (s *hashSet) Len() int { return s.n }

// Add adds h and reports whether it was a member already. A set that
// holds max members adds nothing more, and reports false for a hash it
// does not hold.
func (s *hashSet) Add(h uint64) (present bool) {
	if h == 0 {
		h = 1
	}
	if len(s.slots) > 0 {
		i := s.index(h)
		for {
			switch s.slots[i] {
			case h:
				return true
			case 0:
				if s.n >= s.max {
					return false
				}
				if (s.n+1)*5 <= len(s.slots)*4 {
					s.slots[i] = h
					s.n++
					return false
				}
				s.grow()
				s.insert(h)
				return false
			}
			if i++; i == len(s.slots) {
				i = 0
			}
		}
	}
	if s.max <= 0 {
		return false
	}
	s.grow()
	s.insert(h)
	return false
}

// index is where h's probe starts: the top 32 bits of h mixed (by
// Fibonacci hashing, so hashes that differ only in low bits spread too)
// scaled to the table.
func (s *hashSet) index(h uint64) int {
	return int((h * 0x9E3779B97F4A7C15 >> 32) * uint64(len(s.slots)) >> 32)
}

func (s *hashSet) insert(h uint64) {
	i := s.index(h)
	for s.slots[i] != 0 {
		if i++; i == len(s.slots) {
			i = 0
		}
	}
	s.slots[i] = h
	s.n++
}

// grow doubles the table (from 1,024 slots), up to what max members at
// 80% need.
func (s *hashSet) grow() {
	size := max(2*len(s.slots), 1024)
	size = min(size, s.max*5/4+1)
	old := s.slots
	s.slots, s.n = make([]uint64, size), 0
	for _, h := range old {
		if h != 0 {
			s.insert(h)
		}
	}
}
