package mobileagent

import (
	"context"
	"sync"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
)

// Fetcher fetches a site's /robots.txt over HTTP or HTTPS and compiles its
// Mobile-agent-server lines. A 2xx body is compiled. A site whose robots.txt
// is unavailable (a 4xx) has an empty Table: no server. A site that cannot
// be reached (a 5xx, 429, a network error, a timeout, more than five
// redirects) is an error: the dispatcher cannot know its servers, and may
// also not crawl it (RFC 9309 section 2.3.1.4). Responses are cached as RFC
// 9309 allows (at most 24 hours).
//
// The zero Fetcher is ready to use (30 s timeout, 500 KiB limit, an
// in-memory cache) and is safe for concurrent use: concurrent fetches of
// one site wait for one request and one compile, and a Table is kept until
// its robots.txt expires (at most 10,000 Tables, compiled from at most 128
// MiB of robots.txt; past that the least recently used are dropped).
// Tables are immutable and shared between callers. Set its fields before
// first use.
type Fetcher struct {
	// Fetcher is the transport: the User-Agent sent, the HTTP client, the
	// timeout of one fetch, the cache of responses (one that also
	// implements cache.Shared, cache/rediscache, makes one fetch per file
	// per expiry across every process that shares it). nil means a
	// fetch.Fetcher with the defaults and an in-memory cache.
	Fetcher *fetch.Fetcher

	once      sync.Once
	memo      *fetch.Memo[*Table]
	onCompile func(url string) // test hook: a robots.txt was compiled
}

// Fetch fetches the robots.txt of a site ("https://example.org/") or at a
// robots.txt URL and compiles its Mobile-agent-server lines.
func (f *Fetcher) Fetch(ctx context.Context, site string) (*Table, error) {
	url, err := fetch.SourceURL(site, "robots.txt")
	if err != nil {
		return nil, err
	}
	f.once.Do(func() {
		f.memo = fetch.NewMemo(f.Fetcher, fetch.AccessRFC9309, 0, func(r *fetch.Result) *Table { return Compile(grammar.Parse(r.URL, r.Body, grammar.Options{})) }, f.onCompile)
	})
	got := f.memo.Get(ctx, url, url, nil)
	r := got.Result
	switch r.Status {
	case fetch.Parse:
		return got.Value, nil
	case fetch.AllowAll:
		return Compile(grammar.Parse(url, nil, grammar.Options{})), nil
	}
	return nil, r.Failure()
}
