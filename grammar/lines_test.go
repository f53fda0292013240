package grammar

import "testing"

// TestLineIndex: LineIndex.Pos agrees with PosAt at every offset of
// inputs with every line ending, a BOM, and offsets past the end.
func TestLineIndex(t *testing.T) {
	for _, src := range []string{"", "a", "ab\ncd\n", "a\r\nb\rc\n\nd", "\xEF\xBB\xBFx\ny", "\r\r\n\n", "\xEF\xBB"} {
		x := NewLineIndex(src)
		for off := -1; off <= len(src)+1; off++ {
			if got, want := x.Pos(off), PosAt(src, max(off, 0)); got != want {
				t.Errorf("NewLineIndex(%q).Pos(%d) = %+v, want %+v (PosAt)", src, off, got, want)
			}
		}
	}
}

func FuzzLineIndex(f *testing.F) {
	f.Add("a\r\nb\rc\n", 3)
	f.Fuzz(func(t *testing.T, src string, off int) {
		if off < 0 || off > len(src) {
			return
		}
		if got, want := NewLineIndex(src).Pos(off), PosAt(src, off); got != want {
			t.Errorf("NewLineIndex(%q).Pos(%d) = %+v, want %+v (PosAt)", src, off, got, want)
		}
	})
}
