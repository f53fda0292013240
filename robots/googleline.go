package robots

import (
	"strings"

	"github.com/sitetxt/sitetxt/grammar"

	"github.com/sitetxt/sitetxt/robots/internal/match"
)

// googleLine is googleLine for the compiler's file: a file with no NUL,
// vertical tab or form feed (c.controls false: classify, which scans every
// line for them, found none) reads as the grammar read it, with no scan
// per line.
func (c *compiler) googleLine(l *grammar.Line) (grammar.Kind, string) {
	if !c.controls {
		return l.Kind, l.Value
	}
	return googleLine(c.file, l)
}

// hasGoogleControl reports whether s holds a NUL, vertical tab or form
// feed, the bytes on which googleLine and the grammar differ. It tests
// eight bytes at a time (every line of a file compiled under google is
// scanned), the last eight overlapping the ones before: first whether a
// byte is below 0x0D, which the others are, then which.
func hasGoogleControl(s string) bool {
	if len(s) < 8 {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c == 0 || c == '\v' || c == '\f' {
				return true
			}
		}
		return false
	}
	for i := 0; i+8 < len(s); i += 8 {
		if controlWord(match.Load64(s, i)) {
			return true
		}
	}
	return controlWord(match.Load64(s, len(s)-8))
}

// controlWord reports whether one of the eight bytes of w is a NUL,
// vertical tab (0x0B) or form feed (0x0C).
func controlWord(w uint64) bool {
	const below = 0x0D0D0D0D0D0D0D0D
	if (w-below)&^w&hi8 == 0 {
		return false // no byte below 0x0D: the common case
	}
	x, y := w^0x0B0B0B0B0B0B0B0B, w^0x0C0C0C0C0C0C0C0C // a zero byte in w, x or y where w has one of them
	return ((w-lo8)&^w|(x-lo8)&^x|(y-lo8)&^y)&hi8 != 0
}

// googleLine returns the kind and value of a line as Google's parser reads
// it (robots.cc: GetKeyAndValueFrom, then ParsedRobotsKey). It differs
// from the grammar only on lines holding a NUL, vertical tab or form feed:
// Google's parser works on C strings, so a NUL ends the line (whatever
// follows, a '#' or the rest of a value, is not there), and it trims with
// absl::StripAsciiWhitespace, to which vertical tab and form feed are
// white space, while only space and tab separate a field from its value
// on a line with no colon. The kinds are AgentLine, AllowLine,
// DisallowLine, Extension (a Sitemap or unknown key) and Invalid (no key
// and value: the parser emits nothing).
func googleLine(f *grammar.File, l *grammar.Line) (grammar.Kind, string) {
	t := f.LineText(l)
	if strings.IndexByte(t, 0) < 0 && strings.IndexByte(t, '\v') < 0 && strings.IndexByte(t, '\f') < 0 {
		return l.Kind, l.Value
	}
	if i := strings.IndexByte(t, 0); i >= 0 {
		t = t[:i]
	}
	if i := strings.IndexByte(t, '#'); i >= 0 {
		t = t[:i]
	}
	t = trimGoogle(t)
	sep := strings.IndexByte(t, ':')
	if sep < 0 {
		// Two words separated by spaces or tabs, and no more.
		if sep = strings.IndexAny(t, " \t"); sep < 0 || strings.ContainsAny(strings.TrimLeft(t[sep:], " \t"), " \t") {
			return grammar.Invalid, ""
		}
	}
	key := trimGoogle(t[:sep])
	if key == "" {
		return grammar.Invalid, ""
	}
	k, _ := grammar.Classify(key)
	if k == grammar.MobileAgentRec {
		k = grammar.Extension
	}
	return k, trimGoogle(t[sep+1:])
}

// trimGoogle trims what absl::StripAsciiWhitespace trims: space, tab,
// vertical tab, form feed (and CR and LF, which a line cannot hold).
func trimGoogle(s string) string {
	return strings.Trim(s, " \t\v\f\r\n")
}
