package match

import (
	"encoding/binary"
	"math/bits"
	"strings"
)

// PathOf returns the part of a URL that rules match: path, parameters and
// query, without the fragment. It follows Google's GetPathParamsQuery: an
// initial "//" introduces an authority, "://" ends a scheme only before any
// '/', '?' or ';', and the result always starts with '/'. When the part
// found starts with '?' or ';', slash is set: the caller must put a '/'
// before it. Nothing is allocated.
func PathOf(url string) (path string, slash bool) {
	ps := PathStart(url)
	if ps < 0 {
		return "/", false
	}
	path = url[ps:]
	if h := strings.IndexByte(path, '#'); h >= 0 {
		path = path[:h]
	}
	return path, url[ps] != '/'
}

// PathStart returns where the part of url that pathOf returns starts (its
// first '/', '?' or ';' after the scheme and authority), or -1 when there
// is none or a '#' comes first: pathOf's "/".
func PathStart(url string) int {
	var ps int
	switch {
	// Most URLs start with "https://" or "http://".
	case len(url) >= 8 && Load64(url, 0) == schemeHTTPS:
		ps = indexPathStart(url, 8)
	case len(url) >= 8 && Load64(url, 0)&(1<<56-1) == schemeHTTP:
		ps = indexPathStart(url, 7)
	default:
		start := 0
		if len(url) >= 2 && url[0] == '/' && url[1] == '/' {
			start = 2
		}
		// "://" ends a scheme only before any '/', '?' or ';': only when
		// the first of them is the first '/' of "://".
		ps = indexPathStart(url, start)
		if ps > start && url[ps] == '/' && url[ps-1] == ':' && ps+1 < len(url) && url[ps+1] == '/' {
			ps = indexPathStart(url, ps+2)
		}
	}
	if ps < 0 || url[ps] == '#' {
		return -1
	}
	return ps
}

// schemeHTTPS and schemeHTTP are "https://" and "http://" as load64 reads
// them.
const (
	schemeHTTPS = 0x2F2F3A7370747468
	schemeHTTP  = 0x2F2F3A70747468
)

// indexPathStart returns the index of the first '/', '?', ';' or '#' at
// or after from, or -1. It tests eight bytes at a time, and the word
// holding one tells which byte is the first (the lowest flag of a
// zero-byte test is exact): a loop over that word's bytes ends at a
// place that differs from URL to URL, a branch mispredicted.
func indexPathStart(s string, from int) int {
	const slash, bit4, semi, hash = 0x2F2F2F2F2F2F2F2F, 0x1010101010101010, 0x3B3B3B3B3B3B3B3B, 0x2323232323232323
	b := BytesOf(s)[from:]
	for ; len(b) >= 8; b = b[8:] {
		w := binary.LittleEndian.Uint64(b)
		// A zero byte in x where s has '/' or '?' (0x2F, 0x3F: they
		// differ in bit 4 only), in y where it has ';', in z where '#'.
		x, y, z := (w^slash)&^bit4, w^semi, w^hash
		if m := ((x-lo8)&^x | (y-lo8)&^y | (z-lo8)&^z) & hi8; m != 0 {
			return len(s) - len(b) + bits.TrailingZeros64(m)>>3
		}
	}
	for i := len(s) - len(b); i < len(s); i++ {
		if c := s[i]; c == '/' || c == '?' || c == ';' || c == '#' {
			return i
		}
	}
	return -1
}

const upperHex = "0123456789ABCDEF"

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// isUnreserved reports whether c is an RFC 3986 unreserved character.
func isUnreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// NeedsNormRFC reports whether the pattern s holds a '%' or a byte
// outside ASCII, the bytes normRFC (and escapeGoogle) may change in a
// pattern; a '$' before the pattern's end, which normRFC encodes too, is
// for the caller to test (percentRule.pattern). It tests eight bytes at a
// time.
func NeedsNormRFC(s string) bool {
	const pct = 0x2525252525252525
	b := BytesOf(s)
	for ; len(b) >= 8; b = b[8:] {
		w := binary.LittleEndian.Uint64(b)
		x := w ^ pct // a zero byte where s has '%'
		if (w|(x-lo8)&^x)&hi8 != 0 {
			return true
		}
	}
	for _, c := range b {
		if c == '%' || c >= 0x80 {
			return true
		}
	}
	return false
}

// NeedsNormRFCPath reports whether normRFC would change the path s:
// whether it holds a '%', '*', '$' or a byte outside ASCII. It tests eight
// bytes at a time, the last eight overlapping the ones before.
func NeedsNormRFCPath(s string) bool {
	if len(s) < 8 {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c == '%' || c == '*' || c == '$' || c >= 0x80 {
				return true
			}
		}
		return false
	}
	b := BytesOf(s)
	for ; len(b) > 16; b = b[16:] {
		if normWord(binary.LittleEndian.Uint64(b)) || normWord(binary.LittleEndian.Uint64(b[8:])) {
			return true
		}
	}
	if len(b) > 8 && normWord(binary.LittleEndian.Uint64(b)) {
		return true
	}
	return normWord(Load64(s, len(s)-8))
}

// needsNormRFCPrefix is needsNormRFCPath(s[:n]), tested as one word when
// n is at most eight and s has eight bytes, as two when n is at most 16
// and s has 16 (most walks read a segment or two).
func needsNormRFCPrefix(s string, n int) bool {
	if n <= 8 && len(s) >= 8 {
		return normWord(Load64(s, 0) & (uint64(1)<<(8*n) - 1)) // a zero byte is none of them
	}
	if n <= 16 && len(s) >= 16 {
		return normWord(Load64(s, 0)) || normWord(Load64(s, 8)&(uint64(1)<<(8*(n-8))-1))
	}
	return NeedsNormRFCPath(s[:n])
}

// normWord reports whether one of the eight bytes of w is '%', '*', '$'
// or outside ASCII.
func normWord(w uint64) bool {
	const dollar, bit0, star = 0x2424242424242424, 0x0101010101010101, 0x2A2A2A2A2A2A2A2A
	// A zero byte in x where w has '$' or '%' (0x24, 0x25: they differ in
	// bit 0 only), in y where it has '*'.
	x, y := (w^dollar)&^bit0, w^star
	return (w|(x-lo8)&^x|(y-lo8)&^y)&hi8 != 0
}

// load32 returns the four bytes of s at i, little-endian.
func load32(s string, i int) uint32 { return binary.LittleEndian.Uint32(BytesOf(s)[i : i+4]) }

// Load64 returns the eight bytes of s at i, little-endian.
func Load64(s string, i int) uint64 { return binary.LittleEndian.Uint64(BytesOf(s)[i : i+8]) }

// wordAt returns the bytes of s from i, up to eight of them,
// little-endian (the missing ones zero).
func wordAt(s string, i int) uint64 {
	if len(s)-i >= 8 {
		return Load64(s, i)
	}
	if len(s) >= 8 {
		return Load64(s, len(s)-8) >> (8 * (8 - (len(s) - i)))
	}
	var w uint64
	for j := len(s) - 1; j >= i; j-- {
		w = w<<8 | uint64(s[j])
	}
	return w
}

// lo8 and hi8 have the low and the high bit of each of a word's eight
// bytes set: the word-at-a-time tests' constants. (x-lo8)&^x&hi8 has the
// high bit of the lowest zero byte of x set, and no other bit below it.
const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// NormRFC appends s in RFC 9309's comparison form to dst: escapes of
// unreserved characters decoded, other escapes upper-cased, octets outside
// ASCII percent-encoded (section 2.2.2). In the query (after the first
// '?'), escapes of ':', '/', '?' and '@' are decoded too: they mean the
// same raw or encoded there, and section 2.2.2's table has the pattern
// "/foo/bar?baz=https://foo.bar" match "/foo/bar?baz=https%3A%2F%2Ffoo.bar".
// When path is set, s is a URL's path, where '*' and '$' are ordinary
// characters: they are encoded as "%2A" and "%24", which is how a pattern
// writes them literally (section 2.2.3, Table 2); in a pattern a '$'
// before its end is literal and is encoded too.
func NormRFC(dst []byte, s string, path bool) []byte {
	query := false
	for i := 0; i < len(s); i++ {
		// The bytes up to the next one that may change are copied as one
		// run: most of a path or pattern with an escape is not escapes.
		if j := i + plainLen(s[i:]); j > i {
			dst = append(dst, s[i:j]...)
			if i = j; i == len(s) {
				break
			}
		}
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s):
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if !ok1 || !ok2 {
				dst = append(dst, c)
				continue
			}
			v := hi<<4 | lo
			if isUnreserved(v) || query && (v == ':' || v == '/' || v == '?' || v == '@') {
				dst = append(dst, v)
			} else {
				dst = append(dst, '%', upperHex[hi], upperHex[lo])
			}
			i += 2
		case c >= 0x80:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		case path && c == '*':
			dst = append(dst, "%2A"...)
		case c == '$' && (path || i < len(s)-1):
			// A pattern's '$' before its end is literal too.
			dst = append(dst, "%24"...)
		default:
			if c == '?' {
				query = true
			}
			dst = append(dst, c)
		}
	}
	return dst
}

// plainLen returns the index of the first byte of s that normRFC may
// change or must note ('%', '*', '$', '?' or a byte outside ASCII), or
// len(s). It tests eight bytes at a time.
func plainLen(s string) int {
	const quest = 0x3F3F3F3F3F3F3F3F
	b := BytesOf(s)
	for ; len(b) >= 8; b = b[8:] {
		w := binary.LittleEndian.Uint64(b)
		q := w ^ quest // a zero byte where s has '?'
		if normWord(w) || (q-lo8)&^q&hi8 != 0 {
			break // the loop below finds which byte
		}
	}
	for i := len(s) - len(b); i < len(s); i++ {
		if c := s[i]; c == '%' || c == '*' || c == '$' || c == '?' || c >= 0x80 {
			return i
		}
	}
	return len(s)
}

// NormDraft appends s in the 1996/1997 drafts' comparison form to dst:
// every %xx escape decoded except %2F, which stays an escape (upper-cased).
func NormDraft(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) {
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				if v := hi<<4 | lo; v == '/' {
					dst = append(dst, "%2F"...)
				} else {
					dst = append(dst, v)
				}
				i += 2
				continue
			}
		}
		dst = append(dst, c)
	}
	return dst
}

// EscapeGoogle returns a pattern as Google's parser compares it: octets
// outside ASCII percent-encoded, existing escapes upper-cased. A pattern
// with neither ('%' or an octet outside ASCII: needsNormRFC, a word at a
// time) is returned as it is.
func EscapeGoogle(s string) string {
	if !NeedsNormRFC(s) {
		return s
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b = append(b, '%', upper(s[i+1]), upper(s[i+2]))
			i += 2
		case c >= 0x80:
			b = append(b, '%', upperHex[c>>4], upperHex[c&15])
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

func isHex(c byte) bool { _, ok := unhex(c); return ok }

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}
