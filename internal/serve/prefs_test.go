package serve_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/sitetxt/sitetxt/internal/serve"
	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// TestPrefsAsCLI: POST /v1/prefs answers each URL as 'sitetxt prefs -o
// json' does, through the gate (a bearer token is required when set).
func TestPrefsAsCLI(t *testing.T) {
	site := sitetest.New(t, map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /private/\nContent-Usage: search=y\nContent-Signal: search=yes,ai-train=no,use=reference\n",
		"/article":    "text",
		"/private/x":  "secret",
	})
	site.SetHeader("/article", "Content-Usage", "train-ai=n")
	site.SetHeader("/article", "Link", `</license.xml>; rel="license"`)
	urls := []string{site.URL + "/article", site.URL + "/private/x", site.URL + "/missing"}
	h := serve.New(serve.Config{AllowPrivate: true, Token: "t", Logger: slog.New(slog.DiscardHandler)}).Handler()
	body, _ := json.Marshal(map[string]any{"agent": "ExampleBot", "urls": urls})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apiRequest("/v1/prefs", body))
	if rec.Code != http.StatusUnauthorized {
		t.Errorf("POST /v1/prefs without the token = %d, want 401 (the gate)", rec.Code)
	}
	r := apiRequest("/v1/prefs", body)
	r.Header.Set("Authorization", "Bearer t")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if rec.Code != http.StatusOK {
		t.Fatalf("POST /v1/prefs = %d %s", rec.Code, rec.Body)
	}
	var got struct{ Results []any }
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := jsonLines(t, runCLI(t, append([]string{"prefs", "--no-cache", "--user-agent", "sitetxt", "--agent", "ExampleBot", "-o", "json"}, urls...)...))
	if len(got.Results) != len(want) {
		t.Fatalf("POST /v1/prefs gave %d results, the CLI %d", len(got.Results), len(want))
	}
	for i := range want {
		// Whether robots.txt came from the cache, and when it was fetched
		// (a second's resolution: serve's fetch and the CLI's may fall on
		// two sides of a second), are each run's own facts (the second
		// URL of a site finds it cached).
		for _, v := range []any{got.Results[i], want[i]} {
			if f, ok := withoutClock(v).(map[string]any)["fetch"].(map[string]any); ok {
				delete(f, "from_cache")
			}
		}
		same(t, "POST /v1/prefs "+urls[i]+" against prefs -o json", got.Results[i], want[i])
	}
}
