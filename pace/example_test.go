package pace_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/pace"
	"github.com/sitetxt/sitetxt/robots"
)

// A site's robots.txt asks for two requests a second; a crawler reads
// that pace for its own group, and capped values say so.
func ExampleReading_Of() {
	body := "User-agent: *\nDisallow: /private/\nRequest-rate: 2/1s\n\nUser-agent: slowbot\nDisallow: /tmp/\nCrawl-delay: 86400\n"
	pol := robots.Compile(grammar.ParseString("https://example.org/robots.txt", body, grammar.Options{}), robots.RFC9309)
	for _, agent := range []string{"ExampleBot", "SlowBot"} {
		p := pace.Reading{}.Of(pol, agent)
		fmt.Println(agent, p.Interval, p.Source)
		for _, d := range p.Diagnostics {
			fmt.Println(d)
		}
	}
	// Output:
	// ExampleBot 500ms request-rate
	// SlowBot 1m0s crawl-delay
	// https://example.org/robots.txt:7:1: warning: Crawl-delay asks for one request every 24h0m0s; paced at the cap, one every 1m0s (--pace-max)
}

// Every worker asks the pacer before fetching, waits what it says, and
// reports the answer: a 429 with Retry-After pauses the site for all.
func ExampleNewMemory() {
	// A clock that stands still, so that the waits printed do not depend
	// on how long the loop takes; a crawler leaves Now nil.
	start := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	p := pace.NewMemory(pace.Options{Now: func() time.Time { return start }})
	ctx := context.Background()
	site, _ := pace.Site("https://example.org/page")
	every := pace.Pace{Interval: time.Second}
	for range 3 {
		wait, _ := p.Acquire(ctx, site, every)
		fmt.Println("wait", wait)
	}
	pause, _ := p.Report(ctx, site, 429, "120")
	fmt.Println("paused for", pause.Wait.Round(time.Second), "by", pause.Cause)
	// Output:
	// wait 0s
	// wait 1s
	// wait 2s
	// paused for 2m0s by retry-after
}

// A crawler decides each URL with a robots.Client, reads the pace the
// site asks of it, waits for its slot and reports what the site answered.
// Here the site (a loopback server) asks for one request a second.
func Example_crawler() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\nCrawl-delay: 1\n")
			return
		}
		fmt.Fprint(w, "a page")
	}))
	defer site.Close()
	client := &robots.Client{Fetcher: &fetch.Fetcher{UserAgent: "ExampleBot/1.0"}}
	pacer := pace.NewMemory(pace.Options{}) // a fleet: redispace.New
	reading := pace.Reading{}
	ctx := context.Background()
	for _, path := range []string{"/a", "/private/b", "/c"} {
		url := site.URL + path
		a, err := client.Check(ctx, "ExampleBot", url)
		if err != nil || !a.Allowed {
			fmt.Println(path, "disallowed: nothing reserved")
			continue
		}
		p := reading.Of(a.Policy(), "ExampleBot")
		s, _ := pace.Site(url)
		q := pace.Queue(s, "ExampleBot") // this crawler's queue at the site
		wait, _ := pacer.Acquire(ctx, q, p)
		time.Sleep(wait)
		resp, err := http.Get(url)
		if err != nil {
			continue
		}
		resp.Body.Close()
		pacer.Report(ctx, q, resp.StatusCode, resp.Header.Get("Retry-After"))
		fmt.Println(path, resp.StatusCode, "paced by", p.Source, p.Interval, "waited:", wait > 0)
	}
	// Output:
	// /a 200 paced by crawl-delay 1s waited: false
	// /private/b disallowed: nothing reserved
	// /c 200 paced by crawl-delay 1s waited: true
}

// Each crawler has its own queue at a site, so that the Crawl-delay a
// site asks of one does not hold back another; no slot is booked past
// the horizon.
func ExampleQueue() {
	start := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	p := pace.NewMemory(pace.Options{Now: func() time.Time { return start }, Horizon: 3 * time.Second})
	ctx := context.Background()
	site, _ := pace.Site("https://example.org/page")
	foo := pace.Queue(site, "FooBot/2.1 (+https://foo.example/bot)")
	fmt.Println(foo)
	for range 3 {
		wait, err := p.Acquire(ctx, foo, pace.Pace{Interval: 2 * time.Second})
		fmt.Println("FooBot", wait, err)
	}
	wait, _ := p.Acquire(ctx, pace.Queue(site, "OtherBot"), pace.Pace{Interval: time.Second})
	fmt.Println("OtherBot", wait)
	// Output:
	// https://example.org foobot
	// FooBot 0s <nil>
	// FooBot 2s <nil>
	// FooBot 0s the next slot starts in 4s, past the horizon of 3s: nothing was booked
	// OtherBot 0s
}
