package serve_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/sitetxt/sitetxt/internal/serve"
	"github.com/sitetxt/sitetxt/internal/sitetest"
	"github.com/sitetxt/sitetxt/robots"
)

// TestUsageSpecExamplesServe: each vocab-08 example of
// testdata/aipref/vocab-08-examples.json, as the "*" group's path-less
// Content-Usage rule, gets the example's answer from POST /v1/check (the
// robots.txt served by a loopback site) and from the tester's POST
// /v1/test (the text pasted), under every profile; internal/cli
// TestUsageSpecExamplesEverywhere asks check, audit and explain.
func TestUsageSpecExamplesServe(t *testing.T) {
	b, err := os.ReadFile("../../testdata/aipref/vocab-08-examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var examples []struct {
		In      string
		TrainAI string `json:"train_ai"`
		AIUse   string `json:"ai_use"`
		Search  string
		Why     string
	}
	if err := json.Unmarshal(b, &examples); err != nil {
		t.Fatal(err)
	}
	if len(examples) < 10 {
		t.Fatalf("%d examples, want the specs file's 9 and the issue's", len(examples))
	}
	type categories struct {
		TrainAI string `json:"train_ai"`
		AIUse   string `json:"ai_use"`
		Search  string `json:"search"`
	}
	type result struct {
		Profile string
		Usage   struct {
			ContentUsage categories `json:"content_usage"`
		}
	}
	h := serve.New(serve.Config{AllowPrivate: true, Logger: slog.New(slog.DiscardHandler)}).Handler()
	ask := func(path string, body any, v any) {
		t.Helper()
		raw, _ := json.Marshal(body)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, apiRequest(path, raw))
		if rec.Code != http.StatusOK {
			t.Fatalf("POST %s = %d %s", path, rec.Code, rec.Body)
		}
		if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
			t.Fatal(err)
		}
	}
	for _, ex := range examples {
		t.Run(ex.In, func(t *testing.T) {
			file := "User-agent: *\nAllow: /\nContent-Usage: " + ex.In + "\n"
			want := categories{ex.TrainAI, ex.AIUse, ex.Search}
			site := sitetest.New(t, map[string]string{"/robots.txt": file})
			var check struct{ Results []result }
			ask("/v1/check", map[string]any{"agent": "ExampleBot", "urls": []string{site.URL + "/x"}}, &check)
			if len(check.Results) != 1 || check.Results[0].Usage.ContentUsage != want {
				t.Errorf("POST /v1/check: %q = %+v, want %+v (%s)", ex.In, check.Results, want, ex.Why)
			}
			var test struct {
				Results []struct{ Verdicts []result }
			}
			ask("/v1/test", map[string]any{"robots": file, "agent": "ExampleBot", "urls": []string{"/x"}}, &test)
			if len(test.Results) != 1 {
				t.Fatalf("POST /v1/test gave %+v", test)
			}
			seen := map[string]bool{}
			for _, v := range test.Results[0].Verdicts {
				seen[v.Profile] = true
				if v.Usage.ContentUsage != want {
					t.Errorf("POST /v1/test under %s: %q = %+v, want %+v", v.Profile, ex.In, v.Usage.ContentUsage, want)
				}
			}
			for _, p := range robots.Profiles {
				if !seen[p.String()] {
					t.Errorf("POST /v1/test gave no verdict under %s", p)
				}
			}
		})
	}
}
