package match

import (
	"encoding/binary"
	"unsafe"
)

// This file holds the package's only unsafe reads (the sitetxt module's,
// outside the grammar's lexer): word loads from a string's bytes and a
// string over a byte slice, without a copy. Each load is bounds-checked
// by the slicing before it, so that a read past a string's end panics
// rather than reading what follows; TestGuardedReads holds every caller
// to that at a page the process may not read.

// load32 returns the four bytes of s at i, little-endian.
func load32(s string, i int) uint32 {
	return binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s[i:]), 4))
}

// BytesOf returns the bytes of s, which must not be written, for loops
// that read them a word at a time: a loop that moves along the slice
// (b = b[8:]) loads each word with no bounds check, where load64 checks
// its index at every call.
func BytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// Load64 returns the eight bytes of s at i, little-endian.
func Load64(s string, i int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))
}

// BytesString returns b as a string without a copy: b must not change
// while the string is used.
func BytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
