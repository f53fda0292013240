package robots_test

import (
	"fmt"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/robots"
)

// A robots.txt that answered 503 disallows every URL under RFC 9309,
// whatever its rules would say; one fetched with 200 is decided by them.
func ExampleReading() {
	pol := robots.Compile(grammar.ParseString("robots.txt", "User-agent: *\nDisallow: /private\n", grammar.Options{}), robots.RFC9309)
	down := robots.Reading{Policy: pol, Fetched: &fetch.Result{Status: fetch.DisallowAll, Reason: "unreachable (HTTP 503 Service Unavailable): everything is disallowed (RFC 9309 2.3.1.4)"}}
	up := robots.Reading{Policy: pol, Fetched: &fetch.Result{Status: fetch.Parse}}
	fmt.Println(down.Allowed("ExampleBot", "/public"), up.Allowed("ExampleBot", "/public"), up.Allowed("ExampleBot", "/private/x"))
	// Output: false true false
}
