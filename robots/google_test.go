package robots

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/shareddata"

	"github.com/sitetxt/sitetxt/robots/internal/match"
)

// conformanceDir is the shared conformance data, relative to this package.
var conformanceDir = shareddata.Path("conformance")

// googleVector is one entry of google-robotstxt.json.
type googleVector struct {
	ID        string `json:"id"`
	RobotsTxt string `json:"robotstxt"`
	UserAgent string `json:"user_agent"`
	URL       string `json:"url"`
	Allowed   bool   `json:"allowed"`
	Note      string `json:"note"`
}

// loadJSON reads a conformance file, skipping the test when it is absent.
func loadJSON(t testing.TB, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(conformanceDir, name))
	if os.IsNotExist(err) {
		t.Skipf("conformance data not found (%v); skipping", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func TestGoogleVectors(t *testing.T) {
	t.Parallel()
	var vs []googleVector
	loadJSON(t, "google-robotstxt.json", &vs)
	if len(vs) != 145 {
		t.Errorf("got %d vectors, want 145", len(vs))
	}
	for _, v := range vs {
		t.Run(v.ID, func(t *testing.T) {
			f := grammar.ParseString("robots.txt", v.RobotsTxt, grammar.Options{MaxSize: -1})
			pol := Compile(f, Google)
			if got := pol.Allowed(v.UserAgent, v.URL); got != v.Allowed {
				t.Errorf("Allowed(%q, %q) = %v, want %v (%s)\n%s", v.UserAgent, v.URL, got, v.Allowed, v.Note, v.RobotsTxt)
			}
		})
	}
}

// googleFact is one entry of google-robotstxt-other.json.
type googleFact struct {
	ID        string  `json:"id"`
	Kind      string  `json:"kind"`
	UserAgent *string `json:"user_agent"`
	Valid     bool    `json:"valid"`
	URL       string  `json:"url"`
	Path      string  `json:"path"`
	Pattern   string  `json:"pattern"`
	Escaped   string  `json:"escaped"`
}

func TestGoogleFacts(t *testing.T) {
	t.Parallel()
	var fs []googleFact
	loadJSON(t, "google-robotstxt-other.json", &fs)
	n := 0
	for _, f := range fs {
		switch f.Kind {
		case "user_agent_valid":
			n++
			t.Run(f.ID, func(t *testing.T) {
				ua := ""
				if f.UserAgent != nil {
					ua = *f.UserAgent
				}
				if got := ValidAgentName(ua); got != f.Valid {
					t.Errorf("ValidAgentName(%q) = %v, want %v", ua, got, f.Valid)
				}
			})
		case "url_path":
			n++
			t.Run(f.ID, func(t *testing.T) {
				p, slash := match.PathOf(f.URL)
				if slash {
					p = "/" + p
				}
				if p != f.Path {
					t.Errorf("match.PathOf(%q) = %q, want %q", f.URL, p, f.Path)
				}
			})
		case "escape_pattern":
			n++
			t.Run(f.ID, func(t *testing.T) {
				if got := match.EscapeGoogle(f.Pattern); got != f.Escaped {
					t.Errorf("match.EscapeGoogle(%q) = %q, want %q", f.Pattern, got, f.Escaped)
				}
			})
		}
	}
	if n != 34 {
		t.Errorf("ran %d facts, want 34 (11 user_agent_valid, 19 url_path, 4 escape_pattern)", n)
	}
}
