package spell

import "testing"

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"ai_train", "ai-train", 1}, {"disalow", "disallow", 1}, {"kitten", "sitting", 3}, {"", "abc", 3}} {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	if got := Nearest("ai_input", []string{"search", "ai-input", "ai-train"}, 2); got != "ai-input" {
		t.Errorf("Nearest(ai_input) = %q, want ai-input", got)
	}
	if got := Nearest("zzz", []string{"search"}, 2); got != "" {
		t.Errorf("Nearest(zzz) = %q, want none", got)
	}
}
