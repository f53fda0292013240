package redispace_test

import (
	"context"
	"log"
	"time"

	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/pace"
	"github.com/sitetxt/sitetxt/pace/redispace"
)

// Every process of a fleet asks the same Redis for a slot before fetching
// from a site: the site sees the requests spaced as its robots.txt asks,
// however many processes there are.
func Example() {
	rc, err := rediscache.Open("redis://127.0.0.1:6379/0", rediscache.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer rc.Close()
	pacer := redispace.New(rc, pace.Options{})
	ctx := context.Background()
	site, _ := pace.Site("https://example.org/page")
	wait, _ := pacer.Acquire(ctx, site, pace.Pace{Interval: time.Second})
	time.Sleep(wait)
	// ... fetch https://example.org/page, then say what it answered:
	pacer.Report(ctx, site, 429, "120") // the whole fleet waits two minutes
}
