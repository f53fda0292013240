package robots

import (
	"context"
	"errors"
	"fmt"

	"github.com/sitetxt/sitetxt/fetch"
)

// Sitemaps returns the sitemaps a site's robots.txt lists: the URLs of its
// Sitemap lines (absolute; lines whose value is not are left out, as
// Policy.Sitemaps does), in file order, from the same fetched, cached and
// compiled robots.txt that Check decides with. site is any URL of the site
// ("https://example.org/"). A site without a robots.txt (4xx under RFC 9309)
// lists none, with no error; a robots.txt that could not be fetched (a 5xx,
// a network failure) is an error. It satisfies sitemap.Lister, so
// sitemap.Fetcher.Discover can walk a site's sitemaps from this Client.
//
// Sitemaps needs a Fetcher: with no agent to check, there is no crawler
// name to send in place of its UserAgent (the error says so).
func (c *Client) Sitemaps(ctx context.Context, site string) ([]string, error) {
	if c.Fetcher == nil {
		return nil, errors.New("robots: Client.Sitemaps needs Client.Fetcher, with the User-Agent to send when fetching robots.txt")
	}
	rd, err := c.Reading(ctx, site)
	if err != nil {
		return nil, err
	}
	r := rd.Fetched
	switch {
	case r.Status == fetch.Parse:
		var out []string
		for _, s := range rd.Policy.Sitemaps() {
			out = append(out, s.URL)
		}
		return out, nil
	case r.Err != nil:
		return nil, r.Failure()
	case r.Status == fetch.AllowAll:
		return nil, nil
	}
	return nil, fmt.Errorf("%s: %s", r.URL, r.Reason)
}

// Reading returns the robots.txt of site (any URL of it:
// "https://example.org/") as Check decides with it: the response, from
// the same fetched, cached and compiled copy, and the Policy compiled
// from it (nil unless the response is a file to parse). A program that
// decides many URLs of a site at once decides each by it
// (Reading.Decide) as Check would, one fetch and compile for all of them
// ("sitetxt check" does, for a run). The error is set only when site
// names no http or https site.
//
// Reading needs a Fetcher, as Sitemaps does.
func (c *Client) Reading(ctx context.Context, site string) (Reading, error) {
	if c.Fetcher == nil {
		return Reading{}, errors.New("robots: Client.Reading needs Client.Fetcher, with the User-Agent to send when fetching robots.txt")
	}
	c.init()
	_, got, err := c.get(ctx, site)
	if err != nil {
		return Reading{}, err
	}
	return Reading{Policy: got.Value, Fetched: got.Result}, nil
}

// userAgent fixes, on the first call, the User-Agent a Client without a
// Fetcher sends: agent (the first one checked). A Client with a Fetcher
// sends the Fetcher's.
func (c *Client) userAgent(agent string) error {
	if c.Fetcher != nil {
		return nil
	}
	c.uaOnce.Do(func() {
		c.ua = agent
		if ProductToken(c.ua) == "" {
			c.uaErr = fmt.Errorf("robots: Client.Fetcher is nil and the agent %q has no product token to send as User-Agent: set Fetcher, with the crawler's User-Agent as its UserAgent", c.ua)
		}
	})
	return c.uaErr
}
