package robots_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/robots"
)

// Sitemaps gives the Sitemap lines of a site's robots.txt from the same
// cached copy Check decides with.
func ExampleClient_Sitemaps() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n\nSitemap: https://www.example.org/sitemap_index.xml\nSitemap: https://cdn.example.net/maps/news.xml.gz\n")
	}))
	defer srv.Close()
	c := &robots.Client{Fetcher: &fetch.Fetcher{UserAgent: "ExampleBot/1.0"}}
	maps, err := c.Sitemaps(context.Background(), srv.URL+"/")
	fmt.Println(strings.Join(maps, "\n"), err)
	// Output:
	// https://www.example.org/sitemap_index.xml
	// https://cdn.example.net/maps/news.xml.gz <nil>
}

// Reading gives a site's robots.txt as Check decides with it, fetched and
// compiled once: a program deciding many URLs of the site at once decides
// each by it.
func ExampleClient_Reading() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer srv.Close()
	c := &robots.Client{Fetcher: &fetch.Fetcher{UserAgent: "ExampleBot/1.0"}}
	rd, err := c.Reading(context.Background(), srv.URL+"/")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rd.Fetched.Status, rd.Fetched.HTTPStatus)
	for _, path := range []string{"/private/a", "/b"} {
		fmt.Println(path, rd.Decide("ExampleBot", srv.URL+path).Allowed)
	}
	// Output:
	// parse 200
	// /private/a false
	// /b true
}
