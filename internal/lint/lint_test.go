package lint_test

import (
	"fmt"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/lint"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
)

// portable has a misspelt field (Google accepts "Disalow") and a rule
// after a blank line (the group ends there under draft and norobots).
const portable = "User-agent: *\nDisalow: /a\n\nDisallow: /b\n"

func TestForProfiles(t *testing.T) {
	f := grammar.ParseString("robots.txt", portable, grammar.Options{})
	all := lint.File(f, manifest.Robots, false)
	if len(all) != 2 {
		t.Fatalf("lint.File = %d diagnostics, want 2 (the misspelt field, the rule after a blank line): %v", len(all), all)
	}
	tests := []struct {
		name  string
		profs []robots.Profile
		want  int
	}{
		{"rfc9309", []robots.Profile{robots.RFC9309}, 1}, // the misspelt field
		{"google", []robots.Profile{robots.Google}, 0},   // Google reads both lines as meant
		{"draft", []robots.Profile{robots.Draft}, 2},
		{"google+draft", []robots.Profile{robots.Google, robots.Draft}, 2},
		{"all", robots.Profiles, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := lint.ForProfiles(f, manifest.Robots, false, tt.profs)
			if len(got) != tt.want {
				t.Errorf("ForProfiles(%s) = %d diagnostics, want %d: %v", tt.name, len(got), tt.want, got)
			}
			if len(tt.profs) == 1 {
				one, left := lint.ForProfile(f, manifest.Robots, false, tt.profs[0], false)
				if len(one) != len(got) || len(one)+left != len(all) {
					t.Errorf("ForProfile(%s) = %d shown, %d left out; want %d shown of %d", tt.name, len(one), left, len(got), len(all))
				}
			}
		})
	}
	if n, _ := lint.ForProfile(f, manifest.Robots, false, robots.RFC9309, true); len(n) != len(all) {
		t.Errorf("ForProfile with portability = %d, want every one of %d", len(n), len(all))
	}
}

func ExampleForProfile() {
	f := grammar.ParseString("robots.txt", "User-agent: *\nDisallow: /private/\nCrawl-delay: soon\n", grammar.Options{})
	ds, leftOut := lint.ForProfile(f, manifest.Robots, false, robots.RFC9309, false)
	for _, d := range ds {
		fmt.Println(d.Range.Start.Line, d.Severity, d.Code)
	}
	fmt.Println("left out:", leftOut)
	// Output:
	// 3 error crawl-delay
	// left out: 0
}
