package robots

import (
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
)

// googleLine is googleLine for the compiler's file: a file with no NUL,
// vertical tab or form feed (c.controls false, found by one scan when
// compiling starts) reads as the grammar read it, with no scan per line.
func (c *compiler) googleLine(l *grammar.Line) (grammar.Kind, string) {
	if !c.controls {
		return l.Kind, l.Value
	}
	return googleLine(c.file, l)
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
