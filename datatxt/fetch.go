package datatxt

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/sitetxt/sitetxt/internal/fetch"
)

// Cache stores fetched data.txt responses between fetches. Its methods use
// only built-in types, so a catalog builder implements it on its own store;
// a value that does not decode is ignored and the file fetched again.
type Cache = fetch.Cache

// ErrNoDataTxt is what Fetch returns when the site answers 404 or 410 for
// /data.txt. It is not a failure: the draft says the site may still offer
// datasets, to be found by other means.
var ErrNoDataTxt = errors.New("no data.txt: datasets may be found by other means")

// Fetcher fetches and parses data.txt files over HTTP and HTTPS, as the
// data.txt draft's access method says: a 2xx body is parsed; 404 (and 410)
// mean the site has no data.txt (ErrNoDataTxt); any other status, a
// network error, a timeout or more than five redirects is an error.
// Responses are cached for as long as their Cache-Control or Expires
// headers say, else 7 days (the draft's default expiry).
//
// The zero Fetcher is ready to use (30 s timeout, 500 KiB limit, an
// in-memory cache) and is safe for concurrent use; concurrent fetches of
// one URL make one request. Set its fields before first use.
type Fetcher struct {
	// UserAgent is the User-Agent header sent.
	UserAgent string
	// HTTPClient makes the requests; nil means one with
	// http.DefaultTransport. Its redirect policy is replaced.
	HTTPClient *http.Client
	// Timeout bounds one fetch, redirects and body included; 0 means 30 s.
	Timeout time.Duration
	// Cache keeps responses; nil means an in-memory cache.
	Cache Cache

	once    sync.Once
	fetcher fetch.Fetcher
}

// Fetch fetches the data.txt of a site ("https://example.org/") or at a
// data.txt URL and parses it with opts. Relative dataset paths resolve
// against the URL the file came from (after redirects) unless opts.Base is
// set.
func (f *Fetcher) Fetch(ctx context.Context, site string, opts Options) (*Catalog, error) {
	url, err := fetch.SourceURL(site, "data.txt")
	if err != nil {
		return nil, err
	}
	f.init()
	r := f.fetcher.Fetch(ctx, url, fetch.DataTxt)
	switch r.Status {
	case fetch.Parse:
	case fetch.NotFound:
		return nil, fmt.Errorf("%s: %w", url, ErrNoDataTxt)
	default:
		return nil, r.Failure()
	}
	if opts.Base == "" {
		opts.Base = r.FinalURL
	}
	return Parse(url, r.Body, opts), nil
}

func (f *Fetcher) init() {
	f.once.Do(func() {
		f.fetcher = fetch.Fetcher{Client: f.HTTPClient, UserAgent: f.UserAgent, Timeout: f.Timeout, Cache: f.Cache}
	})
}
