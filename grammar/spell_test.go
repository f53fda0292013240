package grammar

import (
	"fmt"
	"testing"
)

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"ai_train", "ai-train", 1}, {"disalow", "disallow", 1}, {"kitten", "sitting", 3}, {"", "abc", 3}} {
		if got := EditDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	if got := Nearest("ai_input", []string{"search", "ai-input", "ai-train"}, 2); got != "ai-input" {
		t.Errorf("Nearest(ai_input) = %q, want ai-input", got)
	}
	if got := Nearest("zzz", []string{"search"}, 2); got != "" {
		t.Errorf("Nearest(zzz) = %q, want none", got)
	}
}

func ExampleNearest() {
	fmt.Println(Nearest("ai_train", []string{"search", "ai-input", "ai-train"}, 2))
	// Output: ai-train
}
