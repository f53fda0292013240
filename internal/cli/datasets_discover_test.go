package cli

import (
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// TestDatasetsDiscover: "datasets --discover all SITE" on the loopback
// site of testdata/discover lists each dataset once with its sources (in
// -o json "sources", each {"kind", "url"}, and "provenance"), never fetches the page
// robots.txt disallows, says so, and exits 1 for the broken JSON-LD block
// it reports with its position.
func TestDatasetsDiscover(t *testing.T) {
	// The site's robots.txt without its Crawl-delay, which would make the
	// test wait 2 s between requests.
	site := sitetest.FromDir(t, "../../testdata/discover/site", map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /private/\nSitemap: $SITE/sitemap.xml\n"})
	out, errOut, code := runCLI(t, "", "datasets", "--discover", "all", "--delay", "0", "--no-cache", "-o", "json", site.URL)
	if code != ExitFindings {
		t.Errorf("exit %d, want %d (the broken block is an error); stderr:\n%s", code, ExitFindings, errOut)
	}
	entries := decodeJSONLines(t, out)
	kinds := map[string]string{}
	for _, e := range entries {
		var ks []string
		srcs, _ := e["sources"].([]any)
		for _, s := range srcs {
			src := s.(map[string]any)
			if !strings.HasPrefix(src["url"].(string), site.URL+"/") {
				t.Errorf("dataset %v: source %v has no URL on the site", e["name"], src)
			}
			ks = append(ks, src["kind"].(string))
		}
		kinds[e["name"].(string)] = strings.Join(ks, " ")
		if _, ok := e["provenance"].(map[string]any)["/name"]; !ok {
			t.Errorf("dataset %v has no provenance for its name", e["name"])
		}
	}
	if len(entries) != 6 || kinds["Forest cover"] != "croissant signposting" || kinds["River levels"] != "data.txt data.json" {
		t.Errorf("datasets %v, want 6, River levels from data.txt and data.json, Forest cover from croissant and signposting", kinds)
	}
	if n := site.Hits()["/private/secret.html"]; n != 0 {
		t.Errorf("the disallowed page was fetched %d times", n)
	}
	if n := site.Hits()["/robots.txt"]; n != 1 {
		t.Errorf("robots.txt fetched %d times, want 1", n)
	}
	for _, want := range []string{"/private/secret.html: not fetched: robots.txt disallows it for *", "ocean.html:4:74: error: JSON-LD block is not JSON at byte 170",
		`warning: dataset "River levels": name: data.json says "River Levels", data.txt`} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	out, _, _ = runCLI(t, "", "datasets", "--discover", "data.txt,signposting", "--delay", "0", "--no-cache", site.URL)
	if !strings.Contains(out, "SOURCES") || !strings.Contains(out, "signposting") || !strings.Contains(out, "data.txt") {
		t.Errorf("text output lacks the SOURCES column:\n%s", out)
	}
}

func TestDatasetsDiscoverUsage(t *testing.T) {
	for _, args := range [][]string{
		{"datasets", "--discover", "rss", "https://example.org/"},
		{"datasets", "--discover", "all", "--robots", "robots.txt", "https://example.org/"},
		{"datasets", "--discover", "all", "--base", "https://example.org/", "https://example.org/"},
		{"datasets", "--discover", "all", "--max-pages", "0", "https://example.org/"},
	} {
		if _, errOut, code := runCLI(t, "", args...); code != ExitError || !strings.Contains(errOut, "sitetxt:") {
			t.Errorf("sitetxt %s: exit %d (%s), want %d", strings.Join(args, " "), code, errOut, ExitError)
		}
	}
}
