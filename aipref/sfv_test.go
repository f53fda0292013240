package aipref

import (
	"testing"

	"github.com/dunglas/httpsfv"
)

// TestSFDictCheck: where RFC 9651's dictionary parsing stops, by byte.
func TestSFDictCheck(t *testing.T) {
	tests := []struct {
		in     string
		offset int // -1: a Dictionary
	}{
		{"train-ai=n", -1},
		{"train-ai=y, search=n", -1},
		{"", -1},
		{"  train-ai=n  ", -1},
		{"train-ai=y,\tsearch=n", -1},
		{"train-ai;allow=n, train-ai=y", -1},
		{`train-ai;has;parameters="?";`, 28},
		{"train-ai=y, train-ai, search=n, search=\"n\"", -1},
		{"a=(b c);d=1, e=?1, f=:aGk=:, g=-1.5, h=@1700000000, i=%\"f%c3%bc\"", -1},
		{"Train-AI=n", 0},
		{"train-AI=n", 6},
		{"train-ai=n,", 11},
		{"train-ai=n,,", 11},
		{"train-ai=n;;", 11},
		{"train-ai=n search=y", 11},
		{"train-ai=\"n", 11},
		{"a=1.", 3},
		{"a=1.2345", 7},
		{"a=(b", 4},
		{"a=?2", 2},
		{"\ttrain-ai=n", 0},
		{"-x", 0},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			err := sfDictCheck(tt.in)
			got := -1
			if err != nil {
				got = err.Offset
			}
			if got != tt.offset {
				t.Errorf("sfDictCheck(%q) = %v, want offset %d", tt.in, err, tt.offset)
			}
			_, libErr := httpsfv.UnmarshalDictionary([]string{tt.in})
			if (libErr == nil) != (err == nil) {
				t.Errorf("sfDictCheck(%q) = %v, but httpsfv says %v", tt.in, err, libErr)
			}
		})
	}
}

// FuzzSFDictCheck holds sfDictCheck to the verdict of httpsfv, the parser
// whose values sitetxt reads: both accept or both reject, and an offset is
// inside the value.
func FuzzSFDictCheck(f *testing.F) {
	for _, s := range []string{"train-ai=n", "train-ai=y, search=n", "a=(b c);d=1, e=?1", `x="a\"b"`, "a=:aGk=:", "a=@1", `a=%"%c3%bc"`, "a=1.5;b", "Train-ai=n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := sfDictCheck(s)
		_, libErr := httpsfv.UnmarshalDictionary([]string{s})
		if (libErr == nil) != (err == nil) {
			t.Fatalf("sfDictCheck(%q) = %v, httpsfv = %v", s, err, libErr)
		}
		if err != nil && (err.Offset < 0 || err.Offset > len(s)) {
			t.Fatalf("sfDictCheck(%q) offset %d outside the value", s, err.Offset)
		}
	})
}
