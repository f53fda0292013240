package rediscache_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/pace"
	"github.com/sitetxt/sitetxt/robots"
)

// Every process of a crawler fleet opens the same Redis; a site then sees
// one robots.txt request per expiry from all of them. Nothing fails when
// Redis is down: the processes fetch on their own until it is back.
func Example() {
	rc, err := rediscache.Open("redis://127.0.0.1:6379/0", rediscache.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer rc.Close()
	client := &robots.Client{Fetcher: &fetch.Fetcher{UserAgent: "ExampleBot/1.0", Cache: rc}}
	ok := client.Allowed(context.Background(), "ExampleBot", "https://example.org/private/page")
	fmt.Println(ok)
}

// Every process of a fleet asks the same Redis for a slot before fetching
// from a site: the site sees the requests spaced as its robots.txt asks,
// however many processes there are.
func ExampleCache_Pacer() {
	rc, err := rediscache.Open("redis://127.0.0.1:6379/0", rediscache.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer rc.Close()
	pacer := rc.Pacer(pace.Options{})
	ctx := context.Background()
	site, _ := pace.Site("https://example.org/page")
	wait, _ := pacer.Acquire(ctx, site, pace.Pace{Interval: time.Second})
	time.Sleep(wait)
	// ... fetch https://example.org/page, then say what it answered:
	pacer.Report(ctx, site, 429, "120") // the whole fleet waits two minutes
}
