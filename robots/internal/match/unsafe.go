package match

import "unsafe"

// This file holds the sitetxt module's only unsafe code (besides the
// guard page its tests read up to): the views between a string and its
// bytes that the word-at-a-time loops and the URL buffer need without a
// copy. Every read through them is bounds-checked by Go's slicing, so a
// read past a string's end panics rather than reading what follows it;
// TestGuardedReads holds every word-at-a-time reader to that at a page the
// process may not read.

// BytesOf returns the bytes of s, which must not be written, for loops
// that read them a word at a time: a loop that moves along the slice
// (b = b[8:]) loads each word with no bounds check, where Load64 checks
// its index at every call.
func BytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// BytesString returns b as a string without a copy: b must not change
// while the string is used.
func BytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
