package datatxt

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
)

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
// one URL make one request. A Catalog parsed without Options.Rules and
// Options.Robots is parsed once per response and options, by one of the
// callers that ask for it at once, and kept until the response expires (at
// most 10,000 Catalogs, from at most 128 MiB of data.txt; past that the
// least recently used are dropped); callers get their own Catalog value
// whose Entries and File are shared and must not be modified. With Rules or
// Robots (functions and values sitetxt cannot compare) every call parses.
// Set its fields before first use.
type Fetcher struct {
	// Fetcher is the transport: the User-Agent sent, the HTTP client, the
	// timeout of one fetch, the cache of responses (one that also
	// implements cache.Shared, cache/rediscache, makes one fetch per file
	// per expiry across every process that shares it). nil means a
	// fetch.Fetcher with the defaults and an in-memory cache.
	Fetcher *fetch.Fetcher

	once    sync.Once
	memo    *fetch.Memo[*Catalog]
	onParse func(key string) // test hook: a data.txt was parsed
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
	parse := func(r *fetch.Result) *Catalog {
		o := opts
		if o.Base == "" {
			o.Base = r.FinalURL
		}
		return parseResult(url, r, o)
	}
	if opts.Rules != nil || opts.Robots != nil {
		r := f.memo.Fetcher.Fetch(ctx, url, fetch.AccessDataTxt)
		if err := failure(url, r); err != nil {
			return nil, err
		}
		return parse(r), nil
	}
	key := fmt.Sprintf("%s\x00%d\x00%q\x00%q\x00%d\x00%d", url, opts.Form, opts.Base, opts.Agent, opts.MaxSize, opts.MaxNodes)
	got := f.memo.Get(ctx, key, url, parse)
	if err := failure(url, got.Result); err != nil {
		return nil, err
	}
	c := *got.Value
	return &c, nil
}

// parseResult parses a fetched data.txt's body, and says so when the
// fetcher stopped reading it at its size limit.
func parseResult(name string, r *fetch.Result, o Options) *Catalog {
	c := Parse(name, r.Body, o)
	if r.Truncated {
		at := grammar.PosAt(string(r.Body), len(r.Body))
		c.Diagnostics = append(c.Diagnostics, &grammar.Diagnostic{Severity: grammar.Warning, Code: grammar.CodeTooLarge,
			Filename: c.Name, Range: grammar.Range{Start: at, End: at},
			Summary: fmt.Sprintf("the server sent more than %d bytes; sitetxt read only those", len(r.Body))})
		c.Diagnostics.Sort()
	}
	return c
}

// failure returns the error of a data.txt Result that is not a parse.
func failure(url string, r *fetch.Result) error {
	switch r.Status {
	case fetch.Parse:
		return nil
	case fetch.NotFound:
		return fmt.Errorf("%s: %w", url, ErrNoDataTxt)
	}
	return r.Failure()
}

func (f *Fetcher) init() {
	f.once.Do(func() {
		f.memo = fetch.NewMemo[*Catalog](f.Fetcher, fetch.AccessDataTxt, 0, nil, f.onParse)
	})
}
