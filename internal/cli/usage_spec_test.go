package cli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// specExample is one example of testdata/aipref/vocab-08-examples.json:
// the specs file's draft-ietf-aipref-vocab-08 examples and the issue's.
type specExample struct {
	In         string `json:"in"`
	TrainAI    string `json:"train_ai"`
	AIUse      string `json:"ai_use"`
	Search     string `json:"search"`
	ParseError bool   `json:"parse_error"`
	Why        string `json:"why"`
}

func readSpecExamples(t *testing.T, path string) []specExample {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []specExample
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if len(out) < 10 {
		t.Fatalf("%s: %d examples, want the specs file's 9 and the issue's", path, len(out))
	}
	return out
}

// TestUsageSpecExamplesEverywhere: each vocab-08 example, written as a
// path-less Content-Usage rule of the "*" group, gets the example's
// answer from check, audit and explain (-o json); internal/serve
// TestUsageSpecExamplesServe asks POST /v1/check and the tester.
func TestUsageSpecExamplesEverywhere(t *testing.T) {
	for _, ex := range readSpecExamples(t, "../../testdata/aipref/vocab-08-examples.json") {
		t.Run(ex.In, func(t *testing.T) {
			file := "User-agent: *\nAllow: /\nContent-Usage: " + ex.In + "\n"
			want := ex.TrainAI + " " + ex.AIUse + " " + ex.Search
			var check struct {
				Usage struct {
					ContentUsage categories `json:"content_usage"`
				}
			}
			out, _, _ := runCLI(t, file, "check", "-o", "json", "--agent", "ExampleBot", "-", "/x")
			decode(t, out, &check)
			c := check.Usage.ContentUsage
			if got := c.TrainAI + " " + c.AIUse + " " + c.Search; got != want {
				t.Errorf("check: %q = %q, want %q (%s)", ex.In, got, want, ex.Why)
			}
			var audit struct {
				Crawlers []struct {
					Token string
					Usage struct {
						ContentUsage categories `json:"content_usage"`
					}
				}
			}
			out, _, _ = runCLI(t, file, "audit", "-o", "json", "-")
			decode(t, out, &audit)
			if len(audit.Crawlers) == 0 {
				t.Fatalf("audit printed no crawler: %s", out)
			}
			a := audit.Crawlers[0].Usage.ContentUsage
			if got := a.TrainAI + " " + a.AIUse + " " + a.Search; got != want {
				t.Errorf("audit (%s): %q = %q, want %q", audit.Crawlers[0].Token, ex.In, got, want)
			}
			var explain struct {
				Usage []struct {
					Reading categories
				} `json:"usage_lines"`
			}
			out, _, _ = runCLI(t, file, "explain", "-o", "json", "-")
			decode(t, out, &explain)
			if len(explain.Usage) != 1 {
				t.Fatalf("explain listed %d usage lines, want 1: %s", len(explain.Usage), out)
			}
			e := explain.Usage[0].Reading
			if got := e.TrainAI + " " + e.AIUse + " " + e.Search; got != want {
				t.Errorf("explain: %q = %q, want %q", ex.In, got, want)
			}
		})
	}
}

// categories are the vocabulary's categories as the JSON outputs name
// them.
type categories struct {
	TrainAI string `json:"train_ai"`
	AIUse   string `json:"ai_use"`
	Search  string `json:"search"`
}

// decode reads the first JSON line of out into v.
func decode(t *testing.T, out string, v any) {
	t.Helper()
	line, _, _ := strings.Cut(out, "\n")
	if err := json.Unmarshal([]byte(line), v); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
}

// TestCloudflareLine: the Content-Signal line Cloudflare's managed
// robots.txt writes in 2026 lints clean, in a group and before any group,
// and check reports use= under Content-Signal's own names.
func TestCloudflareLine(t *testing.T) {
	for _, file := range []string{
		"User-agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n",
		"Content-Signal: search=yes,ai-train=no,use=reference\n\nUser-agent: *\nAllow: /\n",
	} {
		if out, errOut, code := runCLI(t, file, "lint", "-"); code != 0 {
			t.Errorf("lint %q = exit %d: %s%s", file, code, out, errOut)
		}
		var check struct {
			Usage struct {
				ContentSignal struct {
					Search  string `json:"search"`
					AITrain string `json:"ai_train"`
					Use     string `json:"use"`
				} `json:"content_signal"`
			}
		}
		out, _, _ := runCLI(t, file, "check", "-o", "json", "--agent", "ExampleBot", "-", "/x")
		decode(t, out, &check)
		if s := check.Usage.ContentSignal; s.Search != "allow" || s.AITrain != "disallow" || s.Use != "reference" {
			t.Errorf("check %q: content_signal = %+v, want search allow, ai_train disallow, use reference", file, s)
		}
	}
}
