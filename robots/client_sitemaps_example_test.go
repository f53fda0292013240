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
