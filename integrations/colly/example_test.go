package sitetxtcolly_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/gocolly/colly/v2"
	sitetxtcolly "github.com/sitetxt/sitetxt/integrations/colly"
)

// A colly crawler that follows robots.txt as sitetxt reads it and waits
// between its requests as the site asks, in this process (set ServeURL
// to share robots.txt and the pace with a fleet through sitetxt serve).
// The site, on loopback, disallows /private/ and asks for one request
// every 200 ms.
func Example() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\nCrawl-delay: 0.2\n")
		case "/":
			fmt.Fprint(w, `<a href="/a">a</a> <a href="/private/b">b</a>`)
		default:
			fmt.Fprint(w, "a page")
		}
	}))
	defer site.Close()

	c := colly.NewCollector(colly.UserAgent("ExampleBot/1.0 (+https://example.org/bot)"))
	if err := sitetxtcolly.Attach(c, sitetxtcolly.Options{}); err != nil {
		fmt.Println(err)
		return
	}
	c.OnResponse(func(r *colly.Response) { fmt.Println(r.Request.URL.Path, r.StatusCode) })
	c.OnHTML("a[href]", func(e *colly.HTMLElement) { e.Request.Visit(e.Attr("href")) })
	c.OnError(func(r *colly.Response, err error) {
		var d *sitetxtcolly.DisallowedError
		if errors.As(err, &d) {
			fmt.Println(r.Request.URL.Path, d.Reason)
			return
		}
		fmt.Println(r.Request.URL.Path, err)
	})
	c.Visit(site.URL + "/")
	// Output:
	// / 200
	// /a 200
	// /private/b disallowed by line 2: Disallow: /private/
}
