// Package crawltest is what the tests of the framework integrations
// (integrations/scrapy, integrations/colly) crawl and measure: a real
// crawler engine, paced by sitetxt, against a loopback site that asks for
// "Crawl-delay: 1", disallows /private/ and answers one page request with
// 429 and "Retry-After: 3".
//
// Site records every request's arrival. Proxy stands between a crawler
// and "sitetxt serve" and records every /v1/acquire and /v1/report with
// its times (a test of the in-process pacer records the same events
// itself), so that Check can say which slots were granted after the 429
// was reported, and when they were. Check holds the crawl to what a site
// sees and what the fleet promises (docs/fleet.md): no disallowed URL
// requested, page requests never closer than the Crawl-delay, the 429
// reported within a second, and no slot granted after the report until
// its pause is over (slots granted before it are not recalled, so their
// requests may still arrive meanwhile).
package crawltest

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The site's asks: its Crawl-delay, and the Retry-After of its 429.
const (
	Interval = time.Second
	Pause    = 3 * time.Second
)

// Robots is the site's robots.txt.
const Robots = "User-agent: *\nDisallow: /private/\nCrawl-delay: 1\n"

// Arrival is a request that reached the site: when, its path, the status
// it was answered with, its User-Agent.
type Arrival struct {
	At     time.Time
	Path   string
	Status int
	Agent  string
}

// Site is a loopback web site of shards: /s/K (K = 1, 2, ...) links to
// /s/K/1 and /private/K; each /s/K/I links to /private/K/I and to the
// next, /s/K/I+1, up to /s/K/4. A chain, so that a crawler has one page
// request outstanding at a time and keeps asking for slots all through its
// crawl, after the 429 too: the slots booked ahead when the 429 comes are
// fewer than its Retry-After, so that a pacer that ignored the pause would
// grant a slot within it. The BusyAt-th page request is answered 429 with
// "Retry-After: 3" (its retry gets the page). Two crawler processes given
// shards 1 and 2 share its pace, its robots.txt and its 429. It is closed
// when the test ends.
type Site struct {
	*httptest.Server
	mu       sync.Mutex
	arrivals []Arrival
	pages    int // page requests so far
}

// NewSite starts the site.
func NewSite(t testing.TB) *Site {
	s := &Site{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *Site) serve(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	status, body := s.page(r.URL.Path)
	s.mu.Lock()
	if status == http.StatusOK && r.URL.Path != "/robots.txt" {
		if s.pages++; s.pages == BusyAt {
			status, body = http.StatusTooManyRequests, "slow down\n"
		}
	}
	s.arrivals = append(s.arrivals, Arrival{at, r.URL.Path, status, r.UserAgent()})
	s.mu.Unlock()
	switch status {
	case http.StatusTooManyRequests:
		w.Header().Set("Retry-After", fmt.Sprint(int(Pause/time.Second)))
	case http.StatusOK:
		if r.URL.Path == "/robots.txt" {
			w.Header().Set("Content-Type", "text/plain")
		} else {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
	}
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// page returns the status and body of path.
func (s *Site) page(path string) (int, string) {
	links := func(hrefs ...string) string {
		var b strings.Builder
		b.WriteString("<!doctype html><title>" + path + "</title>\n")
		for _, h := range hrefs {
			fmt.Fprintf(&b, "<a href=\"%s\">%s</a>\n", h, h)
		}
		return b.String()
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case path == "/robots.txt":
		return http.StatusOK, Robots
	case strings.HasPrefix(path, "/private/"):
		return http.StatusOK, links()
	case parts[0] != "s":
	case len(parts) == 2:
		return http.StatusOK, links(path+"/1", "/private/"+parts[1])
	case len(parts) == 3:
		i, err := strconv.Atoi(parts[2])
		switch {
		case err != nil || i < 1 || i > chain:
		case i < chain:
			return http.StatusOK, links(fmt.Sprintf("/s/%s/%d", parts[1], i+1), "/private/"+parts[1]+"/"+parts[2])
		default:
			return http.StatusOK, links("/private/" + parts[1] + "/" + parts[2])
		}
	}
	return http.StatusNotFound, "not found\n"
}

// Shard returns the URL of shard k's first page.
func (s *Site) Shard(k int) string { return fmt.Sprintf("%s/s/%d", s.URL, k) }

// chain is the length of a shard's chain of pages after its first.
const chain = 4

// ShardPages is how many pages a crawler of one shard fetches: the shard's
// first and its chain (the retry of the 429 not counted).
const ShardPages = 1 + chain

// BusyAt is the page request the site answers 429.
const BusyAt = 4

// Arrivals returns the requests that reached the site, in order.
func (s *Site) Arrivals() []Arrival {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.arrivals)
}
