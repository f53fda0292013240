package robots_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/robots"
)

func ExampleClient() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	}))
	defer site.Close()

	c := &robots.Client{Fetcher: &fetch.Fetcher{UserAgent: "ExampleBot/1.0 (+https://example.org/bot)"}, Profile: robots.RFC9309}
	for _, path := range []string{"/private/report.html", "/index.html"} {
		v, err := c.Check(context.Background(), "ExampleBot", site.URL+path)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(path, v.Allowed, v.Status, v.FromCache)
	}
	// Output:
	// /private/report.html false parse false
	// /index.html true parse true
}
