// Package termsafe keeps what a stranger wrote from acting on a terminal or
// a spreadsheet: a site's robots.txt or data.txt may hold ESC sequences
// that retitle or clear a terminal, bidirectional overrides that reorder
// what is shown, or a cell starting with "=" that a spreadsheet runs. Every
// text and CSV output of sitetxt passes such text through String or
// CSVCell; JSON output stays exact (its encoder escapes controls itself).
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// String returns s with every character that could act on a terminal
// written as an escape: C0 controls (\n, \t and \r included) and DEL as
// \xNN, C1 controls, bidirectional overrides and isolates, line and
// paragraph separators as \uNNNN, and bytes that are not UTF-8 as \xNN.
// Text output for people passes everything a site or a user wrote through
// it; JSON output stays exact.
func String(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || hidden(r) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, `\x%02x`, c)
			} else {
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, c)
		case hidden(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// hidden reports whether a non-ASCII rune must not reach a terminal as it
// is: a C1 control, a bidirectional mark, embedding, override or isolate,
// or a line or paragraph separator.
func hidden(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f: // ALM, LRM, RLM
		return true
	case r >= 0x202a && r <= 0x202e: // LRE, RLE, PDF, LRO, RLO
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI, RLI, FSI, PDI
		return true
	case r == 0x2028, r == 0x2029: // line and paragraph separators
		return true
	}
	return false
}

// Hidden reports whether a non-ASCII rune must not reach a terminal as it
// is (String escapes it).
func Hidden(r rune) bool { return hidden(r) }

// CSVCell returns v as a CSV cell that is safe on a terminal and in a
// spreadsheet: control characters escaped as String does, and a cell that
// would start a formula ("=", "+", "-", "@") prefixed with "'" (OWASP's
// CSV injection advice).
func CSVCell(v string) string {
	v = String(v)
	if v != "" && strings.IndexByte("=+-@", v[0]) >= 0 {
		return "'" + v
	}
	return v
}
