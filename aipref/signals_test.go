package aipref

import (
	"strings"
	"testing"
)

func TestParseSignals(t *testing.T) {
	tests := []struct {
		in   string
		want string // Signals.String()
		err  bool
	}{
		// Cloudflare's managed robots.txt, 2026
		{"search=yes,ai-train=no,use=reference", "search=yes, ai-train=no, use=reference", false},
		{"search=yes, ai-input=yes, ai-train=no, use=reference", "search=yes, ai-input=yes, ai-train=no, use=reference", false},
		{"ai-train=no, search=yes, ai-input=no", "search=yes, ai-input=no, ai-train=no", false},
		{"Search=YES, USE=Full", "search=yes, use=full", false},
		{"use=immediate", "use=immediate", false},
		{"use=forever, ai-train=maybe", "", false},
		{"ai-train=no, ai-train=yes", "ai-train=yes", false}, // the last value
		{"/a ai-train=no", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseSignals(tt.in)
			if got.String() != tt.want || (err != nil) != tt.err {
				t.Errorf("ParseSignals(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.err)
			}
		})
	}
}

func TestCheckSignals(t *testing.T) {
	tests := []struct {
		in   string
		want string // "offset code" joined by "; "
	}{
		{"search=yes,ai-train=no,use=reference", ""},
		{"search=yes, ai-input=yes, ai-train=no, use=reference", ""},
		{"search=yes, ai_train=no", "12 usage-label"},
		{"search=yes, ai-train=nope, ai-foo=no", "12 usage-value; 27 usage-label"},
		{"use=forever", "0 usage-value"},
		{"use", "0 usage-value"},
		{"/a ai-train=no", "0 usage-path"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if g := problemList(CheckSignals(tt.in)); g != tt.want {
				t.Errorf("CheckSignals(%q) = %q, want %q", tt.in, g, tt.want)
			}
		})
	}
	if ps := CheckSignals("ai_train=no"); len(ps) != 1 || !strings.Contains(ps[0].Msg, "did you mean ai-train?") {
		t.Errorf("CheckSignals(%q) = %v, want a hint naming ai-train", "ai_train=no", ps)
	}
}

// TestSignalsCombine: yes/no combine most restrictively, use= keeps the
// value that keeps less.
func TestSignalsCombine(t *testing.T) {
	a, _ := ParseSignals("search=yes, ai-train=yes, use=full")
	b, _ := ParseSignals("ai-train=no, use=reference")
	if got, want := a.Combine(b).String(), "search=yes, ai-train=no, use=reference"; got != want {
		t.Errorf("Combine = %q, want %q", got, want)
	}
	if got := (Signals{}).Combine(Signals{Use: Full}).Use; got != Full {
		t.Errorf("Combine(unknown, full).Use = %v, want full", got)
	}
}

func TestDerive(t *testing.T) {
	tests := []struct {
		cu, cs string
		want   string // Usage.String() then the sources
	}{
		{"train-ai=y", "ai-train=no", "train-ai=n content-signal none none"},
		{"train-ai=n", "ai-train=yes", "train-ai=n content-usage none none"},
		{"ai-use=y, search=y", "ai-input=yes, search=yes, use=reference", "ai-use=y, search=y none both both"},
		{"", "ai-input=no", "ai-use=n none content-signal none"},
	}
	for _, tt := range tests {
		cu, _ := Parse(tt.cu)
		cs, _ := ParseSignals(tt.cs)
		d := Derive(cu, cs)
		got := d.Usage.String() + " " + string(d.From[TrainAI]) + " " + string(d.From[AIUse]) + " " + string(d.From[Search])
		if got != tt.want {
			t.Errorf("Derive(%q, %q) = %q, want %q", tt.cu, tt.cs, got, tt.want)
		}
	}
}

// FuzzSignals: ParseSignals never panics, what it reads writes back and
// reads the same, and CheckSignals finds nothing in what String writes.
func FuzzSignals(f *testing.F) {
	f.Add("search=yes,ai-train=no,use=reference")
	f.Add("Search=YES, ai_train=no, use")
	f.Fuzz(func(t *testing.T, v string) {
		s, err := ParseSignals(v)
		CheckSignals(v)
		if err != nil {
			return
		}
		back, err := ParseSignals(s.String())
		if err != nil || back != s {
			t.Fatalf("ParseSignals(%q) = %v; its String %q reads back as %v, %v", v, s, s.String(), back, err)
		}
		if ps := CheckSignals(s.String()); len(ps) > 0 {
			t.Fatalf("CheckSignals(%q) = %v, want nothing", s.String(), ps)
		}
	})
}
