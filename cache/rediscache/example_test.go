package rediscache_test

import (
	"context"
	"fmt"
	"log"

	"github.com/redis/go-redis/v9"
	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/fetch"
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

// A fleet on a Redis Cluster: Dial makes the client as Open does (short
// timeouts, every reply checked on every node), learns the other nodes
// from the seeds, and follows each primary on its own: one that dies
// stops the sharing of its own keys only, until its replica is promoted.
func ExampleDial_cluster() {
	rc, err := rediscache.Dial(rediscache.Servers{Cluster: []string{"10.0.0.5:7000", "10.0.0.6:7000", "10.0.0.7:7000"}},
		rediscache.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer rc.Close()
	client := &robots.Client{Fetcher: &fetch.Fetcher{UserAgent: "ExampleBot/1.0", Cache: rc}}
	fmt.Println(client.Allowed(context.Background(), "ExampleBot", "https://example.org/page"))
	fmt.Println(rc.Health(context.Background()).Cluster) // the cluster's state, and how many shards answer
}

// A client of one's own, here a Redis Cluster's, with its own options; the
// Cache adds its hooks to each node as the client makes them.
func ExampleNew_cluster() {
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"10.0.0.5:7000", "10.0.0.6:7000"}, Password: "secret"})
	rc := rediscache.New(rdb, rediscache.Options{})
	defer rc.Close()
	client := &robots.Client{Fetcher: &fetch.Fetcher{UserAgent: "ExampleBot/1.0", Cache: rc}}
	fmt.Println(client.Allowed(context.Background(), "ExampleBot", "https://example.org/page"))
}
