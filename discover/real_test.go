package discover

import (
	"github.com/sitetxt/sitetxt/internal/sitetest"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestRealFiles serves the public catalogs' own files of testdata/real
// (README.md there says where each comes from) as a loopback site
// publishes them: Project Open Data's data.json sample at /data.json,
// DCAT-AP's example catalogue at /catalog.jsonld, the Croissant metadata
// of MNIST linked from the front page, and, listed by the sitemap, a FAIR
// Signposting test-bed landing page and schema.org's science-on-schema
// Dataset example. Each comes out as its publisher wrote it.
func TestRealFiles(t *testing.T) {
	files := map[string]string{
		"robots.txt":           "User-agent: *\nAllow: /\nSitemap: $SITE/sitemap.xml\n",
		"sitemap.xml":          "$SITE/datasets/apples.html\n$SITE/datasets/carbon.html\n",
		"index.html":           `<html><head><link rel="describedby" type="application/ld+json" href="/mnist/croissant.json"></head></html>`,
		"data.json":            "pod-catalog-sample.json",
		"catalog.jsonld":       "dcat-ap-hvd-ms_catalogue.jsonld",
		"mnist/croissant.json": "croissant-mnist.json",
		"datasets/apples.html": "signposting-a2a-02-html-full.html",
		"datasets/carbon.html": "schemaorg-eg-0478.html",
	}
	for name, content := range files {
		if strings.HasSuffix(content, ".json") || strings.HasSuffix(content, ".jsonld") || strings.HasSuffix(content, ".html") && !strings.Contains(content, "<") {
			b, err := os.ReadFile("../testdata/discover/real/" + content)
			if err != nil {
				t.Fatal(err)
			}
			content = string(b)
		}
		files[name] = content
	}
	site := map[string]string{"/": files["index.html"]}
	for name, content := range files {
		site["/"+name] = content
	}
	s := sitetest.New(t, site)
	res := discoverSite(t, s, Options{Pacer: &recordingPacer{}})
	want := map[string]string{
		"U.S. Widget Manufacturing Statistics":         "data.json",
		"U.S. Widget Phase Modulation Ranges":          "data.json",
		"U.S. Widget Phase Modulation Ranges for 2011": "data.json",
		"The population of bees":                       "dcat",
		"mnist":                                        "croissant",
		"Removal of organic carbon by natural bacterioplankton communities as a function of pCO2 from laboratory experiments between 2012 and 2016": "schema.org",
	}
	got := map[string]string{}
	for _, e := range res.Catalog.Entries {
		var kinds []string
		for _, src := range e.Sources {
			kinds = append(kinds, src.Kind)
		}
		got[e.Title()] = strings.Join(kinds, " ")
		t.Logf("%s [%s] id=%s paths=%v license=%v", e.Title(), got[e.Title()], e.ID, e.Paths, e.Metadata["license"])
	}
	for name, kinds := range want {
		if got[name] != kinds {
			t.Errorf("dataset %q: sources %q, want %q", name, got[name], kinds)
		}
	}
	// The Signposting landing page: its cite-as is its identifier, its
	// item (on another site, never fetched) its file, its <title> and
	// meta description its name and description.
	var apples bool
	for _, e := range res.Catalog.Entries {
		if e.ID == "https://w3id.org/a2a-fair-metrics/02-html-full/" {
			apples = slices.Contains(e.URLs, "https://s11.no/2022/a2a-fair-metrics/02-html-full/data/test-apple-data.csv") &&
				e.Metadata["license"] == "https://creativecommons.org/licenses/by/4.0/" &&
				e.Name == "Apples to Apples Dataset" && e.Metadata["description"] == "Apples to Apples description in english"
		}
	}
	if !apples {
		t.Errorf("no Signposting dataset cite-as https://w3id.org/a2a-fair-metrics/02-html-full/ with its item, license, and its page's title and description")
	}
	for _, d := range res.Catalog.Diagnostics {
		t.Log(d)
	}
}
