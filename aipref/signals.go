package aipref

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
)

// Reuse is the value of the Content Signals key use= (Cloudflare, 2026):
// how much of the content may be kept and reused.
type Reuse uint8

// The use= values, from the least kept to the most; ReuseUnknown when the
// key is absent or its value is none of them.
const (
	ReuseUnknown Reuse = iota
	Immediate
	Reference
	Full
)

var reuseNames = [...]string{"unknown", "immediate", "reference", "full"}

// String returns "unknown", "immediate", "reference" or "full".
func (r Reuse) String() string {
	if int(r) < len(reuseNames) {
		return reuseNames[r]
	}
	return "unknown"
}

// MarshalText encodes the value as its name.
func (r Reuse) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// combine returns the more restrictive of two known values (the one that
// keeps less); sitetxt's choice: the Content Signals texts do not say how
// two statements combine.
func (r Reuse) combine(o Reuse) Reuse {
	switch {
	case r == ReuseUnknown:
		return o
	case o == ReuseUnknown || r < o:
		return r
	}
	return o
}

// Signals is what a Content-Signal line or header says, in the Content
// Signals Policy's own terms: search, ai-input and ai-train, each yes
// (Allow), no (Disallow) or not stated; and use=, how much may be kept.
type Signals struct {
	Search, AIInput, AITrain Preference
	Use                      Reuse
}

// The keys Cloudflare defines, in the order sitetxt writes them.
var signalKeys = []string{"search", "ai-input", "ai-train", "use"}

// IsZero reports whether no signal is stated.
func (s Signals) IsZero() bool { return s == Signals{} }

// Combine returns the most restrictive of s and o per key: disallow over
// allow over unknown (as draft-ietf-aipref-vocab-08 section 5.1 combines
// its categories) and, for use=, the value that keeps less.
func (s Signals) Combine(o Signals) Signals {
	return Signals{Search: s.Search.Combine(o.Search), AIInput: s.AIInput.Combine(o.AIInput),
		AITrain: s.AITrain.Combine(o.AITrain), Use: s.Use.combine(o.Use)}
}

func (s Signals) pref(key string) Preference {
	switch key {
	case "search":
		return s.Search
	case "ai-input":
		return s.AIInput
	case "ai-train":
		return s.AITrain
	}
	return Unknown
}

// String returns the stated signals as the policy writes them
// ("search=yes, ai-train=no, use=reference"), or "" when none is stated.
func (s Signals) String() string { return s.format("=yes", "=no", "=") }

// Words returns the stated signals under the policy's names with
// sitetxt's verdict words ("search allow, ai-train disallow, use
// reference"), or "".
func (s Signals) Words() string { return s.format(" allow", " disallow", " ") }

func (s Signals) format(yes, no, use string) string {
	var parts []string
	for _, k := range signalKeys[:3] {
		switch s.pref(k) {
		case Allow:
			parts = append(parts, k+yes)
		case Disallow:
			parts = append(parts, k+no)
		}
	}
	if s.Use != ReuseUnknown {
		parts = append(parts, "use"+use+s.Use.String())
	}
	return strings.Join(parts, ", ")
}

// ErrSignalPath is ParseSignals' error for a value that starts with a
// path: the Content Signals Policy defines none, so the line is not read.
var ErrSignalPath = errors.New("starts with a path, which the Content Signals Policy does not define")

// signalMember is one key=value pair of a Content-Signal value, with the
// offset of its key.
type signalMember struct {
	key, value string
	hasValue   bool
	offset     int
}

// splitSignals splits a Content-Signal value at its commas.
func splitSignals(v string) []signalMember {
	var out []signalMember
	off := 0
	for _, part := range strings.Split(v, ",") {
		at := off + len(part) - len(strings.TrimLeft(part, " \t"))
		off += len(part) + 1
		k, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		out = append(out, signalMember{strings.TrimSpace(k), strings.TrimSpace(val), ok, at})
	}
	return out
}

// ParseSignals reads a Content-Signal value (a robots.txt line or the
// header): comma-separated key=value pairs. Keys and values are compared
// ignoring case; search, ai-input and ai-train take yes or no, use takes
// immediate, reference or full; anything else leaves that signal unknown,
// and unknown keys are ignored (a repeated key keeps its last value). A
// value starting with "/" is ErrSignalPath: the policy gives the line no
// path.
func ParseSignals(v string) (Signals, error) {
	if strings.HasPrefix(v, "/") {
		return Signals{}, ErrSignalPath
	}
	var s Signals
	for _, m := range splitSignals(v) {
		if !m.hasValue {
			continue
		}
		key, val := strings.ToLower(m.key), strings.ToLower(m.value)
		if key == "use" {
			s.Use = reuseOf(val)
			continue
		}
		p := Unknown
		switch val {
		case "yes":
			p = Allow
		case "no":
			p = Disallow
		}
		switch key {
		case "search":
			s.Search = p
		case "ai-input":
			s.AIInput = p
		case "ai-train":
			s.AITrain = p
		}
	}
	return s, nil
}

func reuseOf(v string) Reuse {
	for i, n := range reuseNames[1:] {
		if v == n {
			return Reuse(i + 1)
		}
	}
	return ReuseUnknown
}

// CheckSignals returns what is wrong with a Content-Signal value: a path
// (CodePath: the value is not read), a key with no value or a value the
// key does not take (CodeValue), a key the policy does not define
// (CodeLabel, naming the nearest known key). Cloudflare's keys with their
// values draw nothing.
func CheckSignals(v string) []Problem {
	if strings.HasPrefix(v, "/") {
		return []Problem{{0, CodePath, fmt.Sprintf("Content-Signal value %q starts with a path, which the Content Signals Policy does not define; the line is not read", v)}}
	}
	var out []Problem
	for _, m := range splitSignals(v) {
		key := strings.ToLower(m.key)
		switch {
		case !m.hasValue:
			if m.key != "" {
				out = append(out, Problem{m.offset, CodeValue, fmt.Sprintf("content signal %q has no value; want %s", m.key, signalValues(key))})
			}
		case !isSignalKey(key):
			out = append(out, Problem{m.offset, CodeLabel, fmt.Sprintf("unknown content signal %q is ignored (known: %s)%s", m.key, strings.Join(signalKeys, ", "), suggest(key))})
		case key == "use" && reuseOf(strings.ToLower(m.value)) == ReuseUnknown,
			key != "use" && !strings.EqualFold(m.value, "yes") && !strings.EqualFold(m.value, "no"):
			out = append(out, Problem{m.offset, CodeValue, fmt.Sprintf("content signal %q has value %q, not %s; it is unknown", m.key, m.value, signalValues(key))})
		}
	}
	return out
}

func isSignalKey(k string) bool {
	for _, s := range signalKeys {
		if k == s {
			return true
		}
	}
	return false
}

func signalValues(key string) string {
	if key == "use" {
		return "immediate, reference or full"
	}
	return "yes or no"
}

// suggest names the known key a misspelt one most likely meant, as
// "; did you mean ai-train?", or "".
func suggest(name string) string {
	if best := grammar.Nearest(name, signalKeys, 2); best != "" {
		return "; did you mean " + best + "?"
	}
	return ""
}
