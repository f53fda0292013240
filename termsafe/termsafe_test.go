package termsafe

import "testing"

func TestString(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain /a", "plain /a"},
		{"\x1b]0;PWNED\x07", `\x1b]0;PWNED\x07`},
		{"a\u202eb", `a\u202eb`},
		{"c1\u009b", `c1\u009b`},
		{"bad\xff", `bad\xff`},
		{"tab\tnl\n", `tab\x09nl\x0a`},
	} {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCSVCell(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""}, {"=1+1", "'=1+1"}, {"-2", "'-2"}, {"\t=x", `\x09=x`}, {"a\x1b[2J", `a\x1b[2J`},
	} {
		if got := CSVCell(tt.in); got != tt.want {
			t.Errorf("CSVCell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzString(f *testing.F) {
	f.Add("\x1b[2J\u202e\xff")
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		for i := 0; i < len(out); i++ {
			if c := out[i]; c < 0x20 || c == 0x7f {
				t.Fatalf("String(%q) = %q holds byte %#x", s, out, c)
			}
		}
		if String(out) != out {
			t.Fatalf("String is not idempotent on %q", s)
		}
	})
}
