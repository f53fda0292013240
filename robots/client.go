package robots

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/fetch"
)

// Cache stores fetched robots.txt responses between a Client's fetches. Its
// methods use only built-in types, so a crawler implements it on its own
// store (a database, Redis, a sharded map) without importing anything of
// sitetxt. Values are opaque: a value that does not decode (corrupt,
// truncated, from another version) is ignored and robots.txt is fetched
// again. Implementations must be safe for concurrent use; Put may drop a
// value.
type Cache = fetch.Cache

// NewMemoryCache returns the in-memory Cache a Client uses by default,
// holding at most maxEntries responses (0 means 10,000).
func NewMemoryCache(maxEntries int) Cache { return &fetch.MemoryCache{MaxEntries: maxEntries} }

// NewDirCache returns a Cache of files in dir (created when needed), one per
// robots.txt URL, written atomically; several processes may share it.
func NewDirCache(dir string) Cache { return fetch.DirCache{Dir: dir} }

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
// limit, an in-memory cache). A Client is safe for concurrent use;
// concurrent checks on one site make one fetch. Set its fields before first
// use.
type Client struct {
	// Profile interprets robots.txt and its HTTP responses.
	Profile Profile
	// UserAgent is the User-Agent header sent when fetching robots.txt. It
	// should contain the crawler's product token (RFC 9309 2.2.1).
	UserAgent string
	// HTTPClient makes the requests; nil means one with
	// http.DefaultTransport. Its redirect policy is replaced.
	HTTPClient *http.Client
	// Timeout bounds one fetch of robots.txt; 0 means 30 s.
	Timeout time.Duration
	// MaxSize is how many bytes of robots.txt are read; 0 means 500 KiB,
	// the least RFC 9309 2.5 allows.
	MaxSize int
	// Cache keeps responses; nil means NewMemoryCache(0).
	Cache Cache
	// MaxStale is how long past its expiry a cached robots.txt is still
	// used while the site is unreachable (rfc9309 and google only); 0
	// means 30 days, negative never.
	MaxStale time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	once     sync.Once
	fetcher  *fetch.Fetcher
	mode     fetch.Mode
	mu       sync.Mutex
	policies map[string]*compiled
	bytes    int // robots.txt bytes behind policies
}

// A Client keeps at most maxPolicies compiled policies, compiled from at
// most maxPolicyBytes of robots.txt (a policy takes about 5 heap bytes per
// byte of its file); past either it forgets expired ones, then arbitrary
// ones, which costs a fetch from the cache and a compile, not correctness.
const (
	maxPolicies    = 10000
	maxPolicyBytes = 32 << 20
)

// compiled is a robots.txt response and its compiled policy.
type compiled struct {
	res    *fetch.Result
	policy *Policy // when res.Status is fetch.Parse
}

// Answer is a Client's answer for one URL, with its explanation.
type Answer struct {
	// Allowed says whether the agent may fetch the URL now.
	Allowed bool
	// URL is the URL asked about; RobotsURL the robots.txt that decides it.
	URL, RobotsURL string
	// Status says what the robots.txt response meant, as the profile's
	// access method reads it (fetch.Status names it):
	//
	//   - "parse": robots.txt was fetched (2xx); its rules decide, and
	//     Decision says how.
	//   - "allow-all": there is no robots.txt to follow (RFC 9309
	//     "unavailable": 4xx; the drafts: 404), so everything is allowed.
	//   - "disallow-all": everything is disallowed (RFC 9309 "unreachable":
	//     5xx, a network error, too many redirects, with no usable cached
	//     copy; the drafts: 401 and 403).
	//   - "defer": a temporary failure under the draft and norobots
	//     profiles (5xx, a network error): disallowed now; ask again after
	//     RetryAfter.
	//   - "error": robots.txt could not be asked for at all (the URL it
	//     would be fetched from is not one sitetxt fetches); disallowed,
	//     with Err set.
	//
	// "not-found", the sixth fetch.Status, belongs to data.txt and never
	// appears here. Reason says which case applied, citing the standard.
	Status string
	// Reason explains Status in one line, citing the standard.
	Reason string
	// Decision is the rules' decision when Status is "parse", else nil.
	Decision *Decision
	// HTTPStatus is the status of the robots.txt response (0 for a network
	// error); FinalURL where it came from after redirects.
	HTTPStatus int
	FinalURL   string
	// FromCache and Stale say whether robots.txt came from the cache, and
	// whether that copy had expired and was used because the site is
	// unreachable (RFC 9309 2.4).
	FromCache, Stale bool
	// Expires is when robots.txt should be fetched again.
	Expires time.Time
	// RetryAfter is, after a failure, the earliest time to try again.
	RetryAfter time.Time
	// Err says why robots.txt could not be fetched, if it could not.
	Err error
}

func (c *Client) init() {
	c.once.Do(func() {
		c.fetcher = &fetch.Fetcher{Client: c.HTTPClient, UserAgent: c.UserAgent, Timeout: c.Timeout,
			MaxSize: c.MaxSize, Cache: c.Cache, MaxStale: c.MaxStale, Now: c.Now}
		m, err := fetch.ParseMode(c.Profile.String())
		if err != nil {
			m = fetch.RFC9309
		}
		c.mode = m
		c.policies = make(map[string]*compiled)
	})
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Check says whether agent (a product token such as "ExampleBot") may fetch
// rawURL, an absolute http or https URL, fetching the site's robots.txt if
// the cache has no fresh copy. The error is set only when rawURL is not an
// http or https URL; a robots.txt that cannot be fetched is an Answer with
// its meaning under the profile, and Err set.
func (c *Client) Check(ctx context.Context, agent, rawURL string) (*Answer, error) {
	c.init()
	robotsURL, err := fetch.ManifestURL(rawURL, "robots.txt")
	if err != nil {
		return nil, err
	}
	cp, memo := c.policy(ctx, robotsURL)
	r := cp.res
	v := &Answer{URL: rawURL, RobotsURL: robotsURL, Status: r.Status.String(), Reason: r.Reason,
		HTTPStatus: r.HTTPStatus, FinalURL: r.FinalURL, FromCache: r.FromCache || memo, Stale: r.Stale,
		Expires: r.Expires, RetryAfter: r.RetryAfter, Err: r.Err}
	switch r.Status {
	case fetch.Parse:
		d := cp.policy.Decide(agent, rawURL)
		v.Decision, v.Allowed = &d, d.Allowed
	case fetch.AllowAll:
		v.Allowed = true
	}
	return v, nil
}

// Allowed is Check reduced to its answer: a URL that is not http or https
// is not allowed.
func (c *Client) Allowed(ctx context.Context, agent, rawURL string) bool {
	v, err := c.Check(ctx, agent, rawURL)
	return err == nil && v.Allowed
}

// policy returns the compiled robots.txt at robotsURL, fetching it when the
// last answer has expired; memo reports an answer kept from before.
func (c *Client) policy(ctx context.Context, robotsURL string) (cp *compiled, memo bool) {
	now := c.now()
	c.mu.Lock()
	old := c.policies[robotsURL]
	c.mu.Unlock()
	if old != nil && now.Before(old.res.Expires) {
		return old, true
	}
	r := c.fetcher.Fetch(ctx, robotsURL, c.mode)
	cp = &compiled{res: r}
	if r.Status == fetch.Parse {
		if old != nil && old.policy != nil && old.res.FetchedAt.Equal(r.FetchedAt) && old.res.FinalURL == r.FinalURL && len(old.res.Body) == len(r.Body) {
			cp.policy = old.policy // the same response, revalidated or stale
		} else {
			cp.policy = Compile(grammar.Parse(robotsURL, r.Body, grammar.Options{MaxSize: -1}), c.Profile)
		}
	}
	if r.Err != nil && ctx.Err() != nil {
		return cp, false // the caller gave up; do not remember that
	}
	c.mu.Lock()
	if old, ok := c.policies[robotsURL]; ok {
		c.bytes -= len(old.res.Body)
	}
	if len(c.policies) >= maxPolicies || c.bytes+len(r.Body) > maxPolicyBytes {
		for k, v := range c.policies {
			if !now.Before(v.res.Expires) {
				c.bytes -= len(v.res.Body)
				delete(c.policies, k)
			}
		}
		for k, v := range c.policies {
			if len(c.policies) < maxPolicies && c.bytes+len(r.Body) <= maxPolicyBytes {
				break
			}
			c.bytes -= len(v.res.Body)
			delete(c.policies, k)
		}
	}
	c.policies[robotsURL] = cp
	c.bytes += len(r.Body)
	c.mu.Unlock()
	return cp, false
}
