// Package fleettest holds the fleet load test of "sitetxt serve": three
// serve processes sharing one real Redis answer a million decisions about
// a thousand loopback sites, while one process is killed and restarted and
// Redis is restarted empty. It measures decisions per second, latency,
// robots.txt requests per site (the aim: one per expiry for the whole
// fleet), errors (the aim: none) and memory per process. TestFleetPace
// has two serve processes pace 32 clients over 20 sites whose robots.txt
// ask for Crawl-delay 1 or Request-rate 2/1s, and checks the spacing of
// the slots and of the requests' arrivals at every site (docs/fleet.md,
// "One pace per site and crawler").
//
// The fleet tests run only in the slow tier (internal/slowtest):
//
//	go test -tags slow -run Fleet -v ./internal/fleettest
//
// TestMeasureSpacing, TestFleetPace's spacing check on made-up arrivals,
// runs in both tiers.
//
// SITETXT_FLEET_SITES and SITETXT_FLEET_DECISIONS change its size
// (SITETXT_FLEET_PACE_FETCHES the slots each pacing client takes);
// SITETXT_FLEET_REPORT names a file to write the figures to, as the
// Markdown table docs/fleet.md shows.
package fleettest
