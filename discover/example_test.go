package discover_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/sitetxt/sitetxt/discover"
	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/pace"
)

// A site lists one dataset in its data.txt and describes it again in
// the schema.org JSON-LD of a page its sitemap lists: discovery gives it
// once, with both sources and where each field came from. The site's
// robots.txt keeps crawlers out of /drafts/, so the page listed there is
// never fetched.
func ExampleSite() {
	var site string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nDisallow: /drafts/\nSitemap: %s/sitemap.txt\n", site)
		case "/sitemap.txt":
			fmt.Fprintf(w, "%s/rain.html\n%s/drafts/snow.html\n", site, site)
		case "/data.txt":
			fmt.Fprint(w, "- name: Rainfall\n  path: rain.csv\n")
		case "/rain.html":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Dataset",
			  "name": "Rainfall", "description": "Daily rainfall at the airport since 1950.",
			  "distribution": {"@type": "DataDownload", "contentUrl": "/rain.csv"}}</script>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	site = srv.URL
	res, err := discover.Site(context.Background(), srv.URL, discover.Options{
		Fetcher: &fetch.Fetcher{UserAgent: "ExampleBot/1.0"},
		Kinds:   []discover.Kind{discover.DataTxt, discover.SchemaOrg},
		Pace:    pace.Reading{Default: -1}, // the example's site is local; a real one gets a second between requests
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	local := func(s string) string { return strings.ReplaceAll(s, srv.URL, "SITE") }
	for _, e := range res.Catalog.Entries {
		fmt.Println(e.Name, local(strings.Join(e.URLs, " ")))
		for _, s := range e.Sources {
			fmt.Println("  source:", s.Kind, local(s.URL))
		}
		fmt.Println("  description from:", e.Provenance["/metadata/description"].Kind)
	}
	for _, d := range res.Documents {
		if d.Status == "disallowed" {
			fmt.Println("not fetched:", local(d.URL))
		}
	}
	// Output:
	// Rainfall SITE/rain.csv
	//   source: data.txt SITE/data.txt
	//   source: schema.org SITE/rain.html
	//   description from: schema.org
	// not fetched: SITE/drafts/snow.html
}
