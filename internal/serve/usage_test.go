package serve

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/audit"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/robots"
)

// TestUsageSameAsLibrary: /v1/check gives the usage preference the
// library gives (Agent.Usage, in the one JSON form jsonview.UsageOf that
// check -o json and audit also print), for the file of testdata with
// Content-Usage and Content-Signal lines, and none where no line applies
// (Applebot-Extended's group has a Content-Usage line for a path it may
// not fetch only).
func TestUsageSameAsLibrary(t *testing.T) {
	body, err := os.ReadFile("../../testdata/robots/aipref.txt")
	if err != nil {
		t.Fatal(err)
	}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write(body)
	}))
	defer site.Close()
	robotsURL := site.URL + "/robots.txt"
	pol := robots.Compile(grammar.Parse(robotsURL, body, grammar.Options{}), robots.RFC9309)
	h := New(Config{AllowPrivate: true, Logger: quiet()}).Handler()
	for _, agent := range []string{"*", "Google-Extended", "GPTBot", "Applebot-Extended"} {
		paths := []string{"/ai-ok/x", "/x", "/never/x"}
		var urls []string
		for _, p := range paths {
			urls = append(urls, site.URL+p)
		}
		code, resp, raw := post(t, h, checkBody(agent, urls...), "")
		if code != 200 || len(resp.Results) != len(urls) {
			t.Fatalf("POST /v1/check = %d %s", code, raw)
		}
		for i, u := range urls {
			ud := pol.Agent(agent).Usage(u)
			want, _ := json.Marshal(jsonview.UsageOf(robotsURL, ud, audit.DefaultRegistry().Find(agent)))
			if len(ud.Rules)+len(ud.Signals) == 0 {
				want = []byte("null") // no usage key where no line applies
			}
			got, _ := json.Marshal(resp.Results[i].Usage)
			if string(got) != string(want) {
				t.Errorf("usage of %s for %s: serve %s, library %s", paths[i], agent, got, want)
			}
		}
	}
}
