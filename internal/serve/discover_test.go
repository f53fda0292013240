package serve

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/sitetest"
	"github.com/sitetxt/sitetxt/pace"
)

// TestDatasetsDiscover: POST /v1/datasets with "discover" reads the
// loopback site of testdata/discover through every source, as
// "datasets --discover" does: each dataset once with its sources, the
// documents it asked for (the disallowed page never fetched), and a
// catalog export of the same entries; a private site is refused without
// AllowPrivate, and "discover" with pasted text is a bad request.
func TestDatasetsDiscover(t *testing.T) {
	site := sitetest.FromDir(t, "../../testdata/discover/site", map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /private/\nSitemap: $SITE/sitemap.xml\n"})
	h := New(Config{AllowPrivate: true, Logger: quiet(), Pace: pace.Reading{Default: -1}}).Handler()
	code, body := postJSON(t, h, "/v1/datasets", map[string]any{"site": site.URL, "discover": []string{"all"}})
	if code != http.StatusOK {
		t.Fatalf("POST /v1/datasets discover: %d %s", code, body)
	}
	var resp struct {
		Datasets []struct {
			Name    string `json:"name"`
			Sources []struct {
				Kind string `json:"kind"`
			} `json:"sources"`
		} `json:"datasets"`
		Documents []struct {
			URL, Status string
		} `json:"documents"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, d := range resp.Datasets {
		var ks []string
		for _, f := range d.Sources {
			ks = append(ks, f.Kind)
		}
		kinds[d.Name] = strings.Join(ks, " ")
	}
	if len(resp.Datasets) != 6 || kinds["Air quality"] != "data.json dcat" {
		t.Errorf("datasets %v, want 6, Air quality from data.json and dcat", kinds)
	}
	disallowed := false
	for _, d := range resp.Documents {
		disallowed = disallowed || d.Status == "disallowed" && strings.HasSuffix(d.URL, "/private/secret.html")
	}
	if !disallowed || site.Hits()["/private/secret.html"] != 0 || site.Hits()["/robots.txt"] != 1 {
		t.Errorf("documents %+v, hits %v: want the private page disallowed and never fetched, robots.txt once", resp.Documents, site.Hits())
	}
	code, body = postJSON(t, h, "/v1/datasets", map[string]any{"site": site.URL, "discover": []string{"dcat"}, "format": "dcat", "publisher": "County"})
	if code != http.StatusOK || !strings.Contains(string(body), `"dcat:Catalog"`) || !strings.Contains(string(body), "Soil samples") {
		t.Errorf("POST /v1/datasets discover dcat, format dcat: %d %.300s", code, body)
	}
	for _, tc := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"datatxt": "- path: a.csv\n", "discover": []string{"all"}}, `no \"datatxt\"`},
		{map[string]any{"site": site.URL, "discover": []string{"rss"}}, `unknown source \"rss\"`},
	} {
		if code, body := postJSON(t, h, "/v1/datasets", tc.body); code != http.StatusBadRequest || !strings.Contains(string(body), tc.want) {
			t.Errorf("POST /v1/datasets %v: %d %s, want 400 saying %q", tc.body, code, body, tc.want)
		}
	}
	strict := New(Config{Logger: quiet()}).Handler()
	code, body = postJSON(t, strict, "/v1/datasets", map[string]any{"site": site.URL, "discover": []string{"all"}})
	if code != http.StatusOK || !strings.Contains(string(body), "the site's address is not a public one") || strings.Contains(string(body), "dial tcp") {
		t.Errorf("private site without AllowPrivate: %d %.400s; want the public words, not the dial's", code, body)
	}
}
