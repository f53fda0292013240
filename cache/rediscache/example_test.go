package rediscache_test

import (
	"context"
	"fmt"
	"log"

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
