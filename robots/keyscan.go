package robots

import (
	"slices"
	"strings"
)

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
	if i := findByte(ks.by, int(st.child), int(st.child+st.nkids), c); i >= 0 {
		return uint32(i)
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
		at := func(j int) byte { return keys[j].key[depth] }
		n := byteRuns(i, hi, at, nil)
		st.child, st.nkids = uint32(len(ks.states)), uint32(n)
		for k := 0; k < n; k++ {
			ks.states = append(ks.states, acState{})
			ks.by = append(ks.by, 0)
		}
		ks.states[s] = st
		t := st.child
		byteRuns(i, hi, at, func(c byte, j0, j int) {
			ks.by[t] = c
			build(t, j0, j, depth+1)
			t++
		})
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
