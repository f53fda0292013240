package sitemap_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/robots"
	"github.com/sitetxt/sitetxt/sitemap"
)

// Read a sitemap as a stream: each entry arrives as it is parsed, and
// what the protocol says about the file comes as diagnostics.
func ExampleNewReader() {
	const file = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.example.org/catalog/a?x=1&amp;y=2</loc><lastmod>2025-06-01T10:00+02:00</lastmod><priority>0.8</priority></url>
  <url><loc>https://www.example.org/images/b</loc></url>
  <url><loc>https://www.example.org/catalog/c</loc><changefreq>often</changefreq></url>
</urlset>`
	rd := sitemap.NewReader(strings.NewReader(file), sitemap.Options{URL: "https://www.example.org/catalog/sitemap.xml"})
	for e, err := range rd.Entries() {
		if err != nil {
			fmt.Println("read error:", err)
			break
		}
		fmt.Println(e.URL, e.LastMod, e.Priority)
	}
	for _, d := range rd.Diagnostics() {
		fmt.Printf("%s [%s]\n", d.Error(), d.Code)
	}
	// Output:
	// https://www.example.org/catalog/a?x=1&y=2 2025-06-01T08:00:00Z 0.8
	// https://www.example.org/catalog/c  0
	// https://www.example.org/catalog/sitemap.xml:4:8: error: "https://www.example.org/images/b" is outside https://www.example.org/catalog/, the sitemap's directory, and this site's robots.txt does not name the sitemap (Sitemap file location): the entry is dropped [out-of-scope]
	// https://www.example.org/catalog/sitemap.xml:5:52: warning: changefreq "often" is not one of always, hourly, daily, weekly, monthly, yearly, never: ignored, the entry is kept [changefreq]
}

// Parse reads a small sitemap whole; a text sitemap is one URL a line.
func ExampleParse() {
	s := sitemap.Parse(strings.NewReader("https://www.example.org/a\nhttps://www.example.org/b\n"), sitemap.Options{})
	fmt.Println(s.Format, len(s.Entries), s.Entries[1].URL, s.Entries[1].Pos)
	// Output: text 2 https://www.example.org/b 2:1
}

// ParseDate reads every precision of W3C Datetime and normalises it.
func ExampleParseDate() {
	for _, s := range []string{"2005", "2005-01", "2005-01-01", "2005-01-01T10:30-05:00", "2005-01-01T10:30:15.5Z"} {
		d, _, _ := sitemap.ParseDate(s)
		fmt.Println(d)
	}
	// Output:
	// 2005
	// 2005-01
	// 2005-01-01
	// 2005-01-01T15:30:00Z
	// 2005-01-01T10:30:15.5Z
}

// Discover walks a site's sitemaps from its robots.txt, which a
// robots.Client fetches and caches (the same one can decide the URLs).
func ExampleFetcher_Discover() {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nDisallow: /private/\nSitemap: %s/index.xml\n", srv.URL)
		case "/index.xml":
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%s/pages.txt</loc></sitemap></sitemapindex>`, srv.URL)
		case "/pages.txt":
			fmt.Fprintf(w, "%s/\n%s/private/x\n", srv.URL, srv.URL)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	client := &robots.Client{Fetcher: &fetch.Fetcher{UserAgent: "ExampleBot/1.0"}}
	f := &sitemap.Fetcher{Fetcher: &fetch.Fetcher{UserAgent: "ExampleBot/1.0"}}
	ctx := context.Background()
	for found, file := range f.Discover(ctx, srv.URL, client).All() {
		if file != nil {
			fmt.Printf("read %s: %v, %d entries\n", strings.TrimPrefix(file.URL, srv.URL), file.Format, file.URLs)
			continue
		}
		fmt.Println(strings.TrimPrefix(found.URL, srv.URL), "allowed:", client.Allowed(ctx, "ExampleBot", found.URL))
	}
	// Output:
	// read /index.xml: sitemapindex, 1 entries
	// / allowed: true
	// /private/x allowed: false
	// read /pages.txt: text, 2 entries
}
