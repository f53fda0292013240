package aipref

import (
	"fmt"
	"strings"

	"github.com/dunglas/httpsfv"
)

// Problem is something Check or CheckSignals finds in a statement: the
// byte offset into it, a stable code (as sitetxt lint reports it) and a
// message.
type Problem struct {
	Offset int
	Code   string
	Msg    string
}

// The codes of Problem.
const (
	CodeSyntax = "usage-syntax" // not a Structured Field Dictionary: every category unknown
	CodeLabel  = "usage-label"  // a label or signal no vocabulary defines: ignored
	CodeLegacy = "usage-legacy" // a label of an earlier vocabulary revision: ignored; the message names the current label
	CodeValue  = "usage-value"  // a value that states nothing: that category unknown
	CodePath   = "usage-path"   // a Content-Signal value that starts with a path
)

// Check returns what is wrong with a statement of preference, in the
// order found: a Dictionary that does not parse (CodeSyntax, at the byte
// where RFC 9651's algorithm stops; nothing else is then said), labels
// outside the vocabulary (CodeLabel, CodeLegacy), and values other than
// the Tokens y and n (CodeValue). Nothing is an error: each leaves some
// category unknown.
func Check(expr string) []Problem {
	d, err := dictionary([]string{expr})
	if e, ok := err.(*sfError); ok {
		return []Problem{{e.Offset, CodeSyntax, fmt.Sprintf("usage preference %q is not a Structured Field Dictionary: %s (RFC 9651 section 4.2.2); every category is unknown", expr, e.Msg)}}
	}
	if err != nil {
		return []Problem{{0, CodeSyntax, fmt.Sprintf("usage preference %q is not a Structured Field Dictionary (%v); every category is unknown", expr, err)}}
	}
	var out []Problem
	for _, name := range d.Names() {
		m, _ := d.Get(name)
		at := memberOffset(expr, name)
		if _, ok := CategoryOf(name); !ok {
			if l, ok := LegacyLabel(name); ok {
				out = append(out, Problem{at, CodeLegacy, fmt.Sprintf("usage label %q is ignored: %s; write %s", name, l.Why, l.Current)})
			} else {
				out = append(out, Problem{at, CodeLabel, fmt.Sprintf("unknown usage label %q is ignored (known: %s)", name, labelList())})
			}
			continue
		}
		if valueOf(d, name) == Unknown {
			out = append(out, Problem{at, CodeValue, fmt.Sprintf("usage label %q has value %s, not y or n; its preference is unknown", name, sfvString(m))})
		}
	}
	return out
}

func labelList() string {
	var ls []string
	for _, c := range Categories {
		ls = append(ls, c.Label())
	}
	return strings.Join(ls, ", ")
}

// IsDictionary reports whether s is a Structured Field Dictionary.
func IsDictionary(s string) bool { return sfDictCheck(s) == nil }

// memberOffset returns the byte offset of the last member named key in
// the Dictionary pref (the one that applies, RFC 9651 4.2.2), or 0.
func memberOffset(pref, key string) int {
	off := 0
	for i := 0; i < len(pref); {
		j := i
		for j < len(pref) && (pref[j] == ' ' || pref[j] == '\t') {
			j++
		}
		if strings.HasPrefix(pref[j:], key) {
			if k := j + len(key); k == len(pref) || strings.IndexByte("=;, \t", pref[k]) >= 0 {
				off = j
			}
		}
		n := strings.IndexByte(pref[i:], ',')
		if n < 0 {
			break
		}
		i += n + 1
	}
	return off
}

// sfvString returns a member of a Dictionary as it would be serialised.
func sfvString(m httpsfv.Member) string {
	d := httpsfv.NewDictionary()
	d.Add("k", m)
	s, err := httpsfv.Marshal(d)
	if err != nil {
		return "?"
	}
	if v, ok := strings.CutPrefix(s, "k="); ok {
		return v
	}
	return "true" // a bare key: Boolean true
}
