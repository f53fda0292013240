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
// Sitemaps needs UserAgent: with no agent to check, there is no crawler
// name to send in its place.
func (c *Client) Sitemaps(ctx context.Context, site string) ([]string, error) {
	if c.UserAgent == "" {
		return nil, errors.New("robots: Client.Sitemaps needs Client.UserAgent, the User-Agent to send when fetching robots.txt")
	}
	if err := c.userAgent(""); err != nil {
		return nil, err
	}
	c.init()
	robotsURL, err := fetch.ManifestURL(site, "robots.txt")
	if err != nil {
		return nil, err
	}
	got := c.memo.Get(ctx, robotsURL, robotsURL, nil)
	r := got.Result
	switch {
	case r.Status == fetch.Parse:
		var out []string
		for _, s := range got.Value.Sitemaps() {
			out = append(out, s.URL)
		}
		return out, nil
	case r.Err != nil:
		return nil, r.Failure()
	case r.Status == fetch.AllowAll:
		return nil, nil
	}
	return nil, fmt.Errorf("%s: %s", robotsURL, r.Reason)
}

// userAgent fixes, on the first call, the User-Agent the Client sends:
// UserAgent, or else agent (the first one checked).
func (c *Client) userAgent(agent string) error {
	c.uaOnce.Do(func() {
		c.ua = c.UserAgent
		if c.ua == "" {
			c.ua = agent
		}
		if ProductToken(c.ua) == "" {
			c.uaErr = fmt.Errorf("robots: Client.UserAgent is empty and the agent %q has no product token to send in its place: set UserAgent to the crawler's User-Agent", c.ua)
		}
	})
	return c.uaErr
}
