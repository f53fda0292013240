package robots

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
)

// A Client answers whether a crawler may fetch a URL, end to end: it fetches
// the robots.txt of the URL's site (scheme, host and port), interprets the
// response with the access method of its Profile (RFC 9309: a 4xx allows
// everything, a 5xx or a network error disallows everything; the 1996
// draft: 401 and 403 disallow everything, a temporary failure defers),
// caches it as long as the standard and the server allow, compiles it once,
// and decides. Redirects are followed up to five hops, across hosts; the
// rules found apply to the original site.
//
// The zero Client is ready to use (profile rfc9309, 30 s timeout, 500 KiB
// limit, an in-memory cache). A Client is safe for concurrent use:
// concurrent checks on one site wait for one fetch and one compile, and a
// compiled policy is kept until its robots.txt expires, within
// MaxPolicyBytes. Set its fields before first use.
//
// The transport is a fetch.Fetcher (User-Agent, HTTP client, timeout, size
// limit, cache), which one program may share between its Client, its
// datatxt.Fetcher, mobileagent.Fetcher and sitemap.Fetcher; the
// fetch-and-compile path is a fetch.Memo over it: a response another
// process put in a shared Cache is compiled once here and reused while its
// bytes stay the same, and a Cache that implements cache.Shared
// (cache/rediscache) also holds a lease per robots.txt, so that a fleet of
// processes makes one fetch per expiry.
type Client struct {
	// Profile interprets robots.txt and its HTTP responses.
	Profile Profile
	// Fetcher fetches robots.txt; its UserAgent should be the crawler's
	// own, containing its product token (RFC 9309 2.2.1). nil means a
	// fetch.Fetcher with the defaults and an in-memory cache as large as
	// MaxPolicyBytes, sending the agent of the first Check as User-Agent;
	// Check then refuses to fetch for an agent that is no product token
	// ("*") rather than send another program's name. A Cache that also
	// implements cache.Shared (cache/rediscache) makes one fetch per
	// robots.txt per expiry across every process that shares it
	// (docs/fleet.md).
	Fetcher *fetch.Fetcher
	// BaseURL is the site a path-only URL ("/a?b", as Policy.Decide and the
	// sitetxt command accept) is resolved against in Check; without it such
	// a URL is an error that says so.
	BaseURL string
	// MaxPolicyBytes bounds the robots.txt bytes behind the compiled
	// policies the Client keeps (at most 10,000 policies); 0 means 128 MiB.
	// Past it the least recently used policies are dropped: each costs one
	// compile (and a request only if the Cache dropped its response too)
	// the next time it is needed. A policy takes a few heap bytes per byte
	// of its file (docs/security.md gives the measured figure).
	MaxPolicyBytes int
	// Parsed, if set, is called with each robots.txt response the Client
	// compiles and the file parsed from it, before the policy is kept
	// (which holds neither): a program that reports on the files it reads
	// looks at them here, once per compile ("sitetxt check" says when one
	// was cut or is an HTML page). It runs on the goroutine that fetched,
	// before any Check waiting for the response returns, and must not
	// keep r.Body.
	Parsed func(r *fetch.Result, f *grammar.File)

	uaOnce    sync.Once
	ua        string // without a Fetcher, the first agent checked
	uaErr     error  // why ua cannot be sent, fixed with ua (no Fetcher given)
	base      *url.URL
	baseErr   error // BaseURL parsed once, in init
	once      sync.Once
	memo      *fetch.Memo[*Policy]
	onCompile func(robotsURL string) // test hook: a robots.txt was compiled
}

// Answer is a Client's answer for one URL, with its explanation.
type Answer struct {
	// Allowed says whether the agent may fetch the URL now.
	Allowed bool
	// URL is the URL asked about; RobotsURL the robots.txt that decides it.
	URL, RobotsURL string
	// Status says what the robots.txt response meant, as the profile's
	// access method reads it:
	//
	//   - fetch.Parse: robots.txt was fetched (2xx); its rules decide, and
	//     Decision says how.
	//   - fetch.AllowAll: there is no robots.txt to follow (RFC 9309
	//     "unavailable": 4xx; the drafts: 404), so everything is allowed.
	//   - fetch.DisallowAll: everything is disallowed (RFC 9309
	//     "unreachable": 5xx, a network error, too many redirects, with no
	//     usable cached copy; the drafts: 401 and 403).
	//   - fetch.Defer: a temporary failure under the draft and norobots
	//     profiles (5xx, a network error): disallowed now; ask again after
	//     RetryAfter.
	//   - fetch.Error: robots.txt could not be asked for at all (the URL it
	//     would be fetched from is not one sitetxt fetches); disallowed,
	//     with Err set.
	//
	// fetch.NotFound belongs to data.txt and never appears here. Reason
	// says which case applied, citing the standard; Status prints as its
	// name ("allow-all"), in JSON too.
	Status fetch.Status
	// Reason explains Status in one line, citing the standard.
	Reason string
	// Decision is the rules' decision when Status is "parse", else nil.
	Decision *Decision
	// Usage is the usage preference for the URL (Agent.Usage) when Status
	// is "parse" and the file has usage lines (Policy.HasUsage), else nil.
	Usage *UsageDecision
	// HTTPStatus is the status of the robots.txt response (0 for a network
	// error); FinalURL where it came from after redirects.
	HTTPStatus int
	FinalURL   string
	// FromCache and Stale say whether robots.txt came from the cache, and
	// whether that copy had expired and was used because the site is
	// unreachable (RFC 9309 2.4).
	FromCache, Stale bool
	// FetchedAt is when the robots.txt response arrived (the local clock;
	// for a copy from the cache, when it was first fetched), zero when
	// nothing was asked for; Expires when robots.txt should be fetched again.
	FetchedAt, Expires time.Time
	// RetryAfter is, after a failure, the earliest time to try again.
	RetryAfter time.Time
	// Err says why robots.txt could not be fetched, if it could not.
	Err error

	pol *Policy // the compiled robots.txt when Status is fetch.Parse
}

// Policy returns the compiled robots.txt that decided when Status is
// fetch.Parse (its Agent gives the crawler's Crawl-delay, Request-rate and
// Visit-time), else nil.
func (v *Answer) Policy() *Policy { return v.pol }

func (c *Client) init() {
	c.once.Do(func() {
		if c.BaseURL != "" {
			if c.base, c.baseErr = url.Parse(c.BaseURL); c.baseErr != nil {
				c.baseErr = fmt.Errorf("robots: Client.BaseURL: %w", c.baseErr)
			}
		}
		f := c.Fetcher
		if f == nil {
			f = fetch.NewFetcherFor(c.ua, c.MaxPolicyBytes)
		}
		profile := c.Profile
		c.memo = fetch.NewMemo(f, profile.Access(), c.MaxPolicyBytes, func(r *fetch.Result) *Policy {
			f := grammar.Parse(r.URL, r.Body, grammar.Options{MaxSize: -1})
			if c.Parsed != nil {
				c.Parsed(r, f)
			}
			pol := Compile(f, profile)
			pol.warm()
			return pol
		}, c.onCompile)
	})
}

// Check says whether agent (a product token such as "ExampleBot") may fetch
// rawURL, an absolute http or https URL or a path resolved against BaseURL,
// fetching the site's robots.txt if the cache has no fresh copy. The error
// is set only when rawURL names no http or https site, or when no
// User-Agent can be sent (see Fetcher); a robots.txt that cannot be
// fetched is an Answer with its meaning under the profile, and Err set.
func (c *Client) Check(ctx context.Context, agent, rawURL string) (*Answer, error) {
	if err := c.userAgent(agent); err != nil {
		return nil, err
	}
	c.init()
	if strings.HasPrefix(rawURL, "/") && !strings.HasPrefix(rawURL, "//") {
		if c.BaseURL == "" {
			return nil, fmt.Errorf("robots: %q is a path: set Client.BaseURL to the site it is on, or pass an absolute URL", rawURL)
		}
		if c.baseErr != nil {
			return nil, c.baseErr
		}
		ref, err := url.Parse(rawURL)
		if err != nil {
			return nil, err
		}
		rawURL = c.base.ResolveReference(ref).String()
	}
	robotsURL, got, err := c.get(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	r := got.Result
	v := &Answer{URL: rawURL, RobotsURL: robotsURL, Status: r.Status, Reason: r.Reason,
		HTTPStatus: r.HTTPStatus, FinalURL: r.FinalURL, FromCache: r.FromCache || got.Kept, Stale: r.Stale,
		FetchedAt: r.FetchedAt, Expires: r.Expires, RetryAfter: r.RetryAfter, Err: r.Err}
	rd := Reading{Policy: got.Value, Fetched: r}
	if fixed, ok := rd.Fixed(); ok {
		v.Allowed = fixed.Allowed
		return v, nil
	}
	d := rd.Decide(agent, rawURL)
	v.Decision, v.Allowed, v.pol = &d, d.Allowed, got.Value
	if got.Value.HasUsage() {
		u := got.Value.Agent(agent).Usage(rawURL)
		v.Usage = &u
	}
	return v, nil
}

// get returns the robots.txt URL of the site serving page and its
// response and policy, fetched and compiled once per response (c.memo).
func (c *Client) get(ctx context.Context, page string) (string, fetch.Memoized[*Policy], error) {
	robotsURL, err := fetch.ManifestURL(page, "robots.txt")
	if err != nil {
		return "", fetch.Memoized[*Policy]{}, err
	}
	return robotsURL, c.memo.Get(ctx, robotsURL, robotsURL, nil), nil
}

// Allowed is Check reduced to its answer: a URL that is not http or https
// is not allowed.
func (c *Client) Allowed(ctx context.Context, agent, rawURL string) bool {
	v, err := c.Check(ctx, agent, rawURL)
	return err == nil && v.Allowed
}
