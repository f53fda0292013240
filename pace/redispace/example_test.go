package redispace_test

import (
	"context"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/pace"
	"github.com/sitetxt/sitetxt/pace/redispace"
)

// Every process of a fleet asks the same Redis for a slot before fetching
// from a site: the site sees the requests spaced as its robots.txt asks,
// however many processes there are. The pacer shares the robots.txt
// cache's Redis, deadline and backoff (Via).
func Example() {
	rc, err := rediscache.Open("redis://127.0.0.1:6379/0", rediscache.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer rc.Close()
	pacer := redispace.Via(rc, pace.Options{})
	ctx := context.Background()
	site, _ := pace.Site("https://example.org/page")
	wait, _ := pacer.Acquire(ctx, site, pace.Pace{Interval: time.Second})
	time.Sleep(wait)
	// ... fetch https://example.org/page, then say what it answered:
	pacer.Report(ctx, site, 429, "120") // the whole fleet waits two minutes
}

// A fleet on a Redis Cluster: any redis.UniversalClient will do. Each
// site's pace state lives in one slot, and the sites spread over every
// shard; a primary that dies stops the shared pacing of its own sites
// only, each process pacing them on its own until a replica is promoted.
func Example_cluster() {
	rdb := redis.NewClusterClient(&redis.ClusterOptions{
		Addrs: []string{"10.0.0.5:7000", "10.0.0.6:7000", "10.0.0.7:7000"},
	})
	defer rdb.Close()
	pacer := redispace.New(rdb, pace.Options{})
	ctx := context.Background()
	site, _ := pace.Site("https://example.org/page")
	if wait, err := pacer.Acquire(ctx, site, pace.Pace{Interval: 2 * time.Second}); err == nil {
		time.Sleep(wait) // then fetch, and Report what the site answered
	}
}
