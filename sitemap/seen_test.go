package sitemap

import (
	"math/rand/v2"
	"testing"
)

// TestHashSet checks hashSet against a map: the same answers for new,
// repeated and zero hashes, up to its bound and past it.
func TestHashSet(t *testing.T) {
	for _, tt := range []struct {
		name      string
		max, adds int
		space     uint64 // hashes drawn from [0, space): small spaces repeat
	}{
		{"empty bound", 0, 100, 1 << 62},
		{"one", 1, 100, 4},
		{"repeats", 5000, 20000, 3000},
		{"past the bound", 3000, 20000, 1 << 62},
		{"large", 200000, 300000, 1 << 62},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			s, m := newHashSet(tt.max), map[uint64]bool{}
			for i := range tt.adds {
				h := rng.Uint64N(tt.space)
				if i%7 == 0 {
					h = 0
				}
				key := max(h, 1) // 0 and 1 are one member
				want := m[key]
				if !want && len(m) < tt.max {
					m[key] = true
				}
				if got := s.Add(h); got != want {
					t.Fatalf("Add(%d) after %d adds = %v, want %v", h, i, got, want)
				}
			}
			if s.Len() != len(m) || slots(s) > tt.max*3/2+len(s.parts)*128 {
				t.Errorf("Len() = %d, want %d; %d slots for at most %d", s.Len(), len(m), slots(s), tt.max)
			}
		})
	}
}

func slots(s *hashSet) int {
	n := 0
	for _, p := range s.parts {
		n += len(p.slots)
	}
	return n
}
