package grammar

import "sort"

// LineIndex finds the Pos of byte offsets in one input as PosAt counts
// them (lines end at LF, CRLF or CR, columns count bytes from 1, a
// byte-order mark at the very start is not part of line 1), in O(log n)
// per offset after one pass over the input: for readers that place many
// positions in a large input (the datasets of a 500 KiB data.json).
type LineIndex struct {
	src    string
	bom    int
	starts []int // the offset of each line's first byte
}

// NewLineIndex indexes the lines of src.
func NewLineIndex(src string) *LineIndex {
	bom := BOMLen(src)
	x := &LineIndex{src: src, bom: bom, starts: []int{bom}}
	for i := bom; i < len(src); i++ {
		switch src[i] {
		case '\n':
			x.starts = append(x.starts, i+1)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			x.starts = append(x.starts, i+1)
		}
	}
	return x
}

// Pos returns the Pos of byte offset off, clamped to the input (and past
// a byte-order mark), as PosAt(src, off) does.
func (x *LineIndex) Pos(off int) Pos {
	off = min(max(off, x.bom), len(x.src))
	line := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) // 1-based line
	return Pos{Offset: off, Line: line, Column: off - x.starts[line-1] + 1}
}
