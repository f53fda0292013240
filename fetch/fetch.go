package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/sitetxt/sitetxt/cache"
)

// Defaults of a Fetcher's limits.
const (
	DefaultTimeout      = 30 * time.Second
	DefaultMaxSize      = 500 << 10 // RFC 9309 2.5: at least 500 KiB must be parsed
	DefaultMaxRedirects = 5         // RFC 9309 2.3.1.2: at least five consecutive redirects
	DefaultUserAgent    = "sitetxt (+https://github.com/sitetxt/sitetxt)"
)

// A Fetcher fetches manifests over HTTP and HTTPS and interprets the
// responses. The zero value is ready to use: it caches in memory, with the
// defaults above. A Fetcher is safe for concurrent use; concurrent requests
// for one URL make one fetch. Do not change its fields after first use.
type Fetcher struct {
	// Client makes the requests; nil means one with http.DefaultTransport.
	// Its CheckRedirect is replaced by the Fetcher's redirect rules.
	Client *http.Client
	// UserAgent is the User-Agent header sent; "" means DefaultUserAgent.
	UserAgent string
	// Timeout bounds each fetch, redirects and body included; 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// MaxSize is how many bytes of a body (after decoding any gzip) are
	// read; the rest is not read at all. 0 means DefaultMaxSize.
	MaxSize int
	// MaxRedirects is how many redirects are followed; 0 means
	// DefaultMaxRedirects. More, or a loop, make the manifest "unavailable".
	MaxRedirects int
	// Cache keeps responses between fetches; nil means a cache.Memory of
	// this Fetcher. Use cache.None{} to fetch every time.
	Cache cache.Cache
	// MaxStale is how long past its expiry a cached robots.txt is still
	// used under RFC 9309 and Google while the site is unreachable; 0 means
	// DefaultMaxStale, a negative value means never.
	MaxStale time.Duration
	// Retry is how long a failure is remembered (Fetch answers from memory
	// without asking the server) when the server sends no Retry-After;
	// 0 means DefaultRetry, a negative value means failures are not
	// remembered.
	Retry time.Duration
	// Now is the clock; nil means time.Now. Tests set it.
	Now func() time.Time
	// RefreshBefore makes a cached copy fetched before it unusable however
	// fresh: the server is asked again and its answer stored, so that later
	// fetches use it ("sitetxt --refresh" sets it to the start of the run:
	// each manifest is asked for once, then read from the cache). A cached
	// copy still makes the request conditional (If-None-Match,
	// If-Modified-Since). The zero time refreshes nothing.
	RefreshBefore time.Time

	once     sync.Once
	mem      *cache.Memory
	mu       sync.Mutex
	calls    map[string]*flight[*outcome]
	failures map[string]*outcome // at most maxFailures
	onJoin   func()              // test hook: a caller joined a fetch in flight
}

// Result is what a fetch of one manifest means under one access method.
type Result struct {
	URL    string  // the URL asked for; the rules apply to its site (RFC 9309 2.3.1.2)
	Access *Access // the access method that read the response
	Status Status
	// Reason explains Status in one line, citing the standard.
	Reason string
	// Body is the manifest, for Status Parse only: at most MaxSize bytes,
	// decoded. It may be shared with the cache: do not modify it.
	Body []byte
	// Truncated is set when the body was longer than MaxSize.
	Truncated bool
	// FinalURL is the URL the body came from, after Redirects redirects.
	FinalURL  string
	Redirects int
	// Chain lists the URLs redirects led through after URL, FinalURL
	// last; nil without redirects.
	Chain []string
	// HTTPStatus is the status code of the final response, 0 if there was
	// none (a network error).
	HTTPStatus  int
	ContentType string
	// Header holds the response's header fields the cache keeps
	// (Content-Type, the caching fields, Link); nil when there was no
	// response. It may be shared with the cache: do not modify it.
	Header http.Header
	// FetchedAt is when the response arrived (for a cached one, when it was
	// first fetched or last revalidated).
	FetchedAt time.Time
	// Expires is when this answer should be asked again: the end of the
	// response's freshness, or for a failure, RetryAfter.
	Expires time.Time
	// FromCache is set when the body or status came from the cache;
	// Revalidated when the server confirmed it with 304 Not Modified.
	FromCache, Revalidated bool
	// Stale is set when the site is unreachable and an expired cached copy
	// is used instead (RFC 9309 2.4); Err says why it was unreachable.
	Stale bool
	// RetryAfter is, after a failure or any answer that is not a file (a
	// status other than 2xx, 404 and 410), the earliest time to ask again:
	// the server's Retry-After, else now plus the Fetcher's Retry. Such
	// answers are remembered in memory until then, never stored in the
	// Cache, except in a cache.Shared (Redis), which keeps them under
	// "failure:<URL>" until then for every process (docs/fleet.md).
	RetryAfter time.Time
	// Err is set when no usable answer came from the server: a network
	// error, a timeout, too many redirects, a 5xx or 429 status, or any
	// failure under AccessDataTxt.
	Err error
}

// outcome is how one fetch of a URL ended, before interpretation.
type outcome struct {
	kind      outcomeKind
	code      int
	e         *entry // the new or revalidated entry, for a response that is not a temporary failure
	fromCache bool   // e is the cached entry, revalidated
	shared    bool   // e or the failure came from another process, through a shared cache
	finalURL  string
	redirects int
	chain     []string // the URLs redirected to, in order
	ctype     string
	err       error
	retryAt   time.Time
}

func (f *Fetcher) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

func (f *Fetcher) cache() cache.Cache {
	if f.Cache != nil {
		return f.Cache
	}
	f.once.Do(func() { f.mem = new(cache.Memory) })
	return f.mem
}

func (f *Fetcher) maxSize() int {
	if f.MaxSize > 0 {
		return f.MaxSize
	}
	return DefaultMaxSize
}

// timeout is how long one fetch may take: Timeout, or DefaultTimeout.
func (f *Fetcher) timeout() time.Duration {
	if f.Timeout > 0 {
		return f.Timeout
	}
	return DefaultTimeout
}

func (f *Fetcher) maxStale() time.Duration {
	if f.MaxStale == 0 {
		return DefaultMaxStale
	}
	return f.MaxStale
}

// Fetch fetches rawURL (or answers from the cache) and interprets the
// response under m. It always returns a Result; a failure is a Status with
// Err set, never a nil Result. Canceling ctx abandons the wait, not a fetch
// other callers share.
func (f *Fetcher) Fetch(ctx context.Context, rawURL string, m *Access) *Result {
	key, err := fetchKey(rawURL)
	if err != nil {
		return &Result{URL: rawURL, Access: m, Status: Error, Err: err,
			Reason: "not an http or https URL"}
	}
	now := f.now()
	var cached *entry
	if data, ok := f.cache().Get(key); ok {
		// An entry of a status that is not stored (written by an older
		// version) is ignored: such answers are only remembered.
		if e, err := decodeEntry(data); err == nil && e.URL == key && storable(e.StatusCode) {
			cached = e
		}
	}
	if cached != nil && !cached.FetchedAt.Before(f.RefreshBefore) {
		// The Result's Expires is the entry's, computed once: FreshAt
		// reads it instead of deriving it from the headers again.
		if r := resultOf(cached, m); r.FreshAt(now) {
			r.FromCache = true
			return r
		}
	}
	o := f.remembered(key, now)
	if o == nil {
		o = f.do(ctx, key, cached)
	}
	if o.e != nil {
		r := resultOf(o.e, m)
		r.FromCache, r.Revalidated = o.fromCache || o.shared, o.fromCache
		return r
	}
	cause := ""
	if o.err != nil {
		cause = o.err.Error()
	}
	st, reason := meaning(m, o.kind, o.code, cause)
	r := &Result{URL: key, Access: m, Status: st, Reason: reason, FinalURL: o.finalURL, Redirects: o.redirects, Chain: o.chain,
		HTTPStatus: o.code, ContentType: o.ctype, FetchedAt: now, Expires: o.retryAt, RetryAfter: o.retryAt, Err: o.err}
	if o.kind == gotResponse && !temporary(o.code) && st != Error {
		// An answer, not a failure: a 4xx under RFC 9309, 401 or 403 under
		// the drafts. It is remembered like a failure (docs/fetching.md),
		// but nothing went wrong.
		r.Err = nil
	}
	if m.keepsStale && st == DisallowAll && cached != nil && f.maxStale() > 0 && !now.Before(cached.FetchedAt) {
		if limit := cached.expires(m).Add(f.maxStale()); now.Before(limit) {
			s := resultOf(cached, m)
			s.FromCache, s.Stale, s.Err, s.RetryAfter = true, true, o.err, o.retryAt
			s.Expires = o.retryAt
			if limit.Before(s.Expires) || s.Expires.IsZero() {
				s.Expires = limit
			}
			s.Reason = fmt.Sprintf("%s; using the copy cached at %s, usable while unreachable until %s (RFC 9309 2.4)",
				strings.TrimSuffix(reason, " (RFC 9309 2.3.1.4)"), cached.FetchedAt.UTC().Format(time.RFC3339), limit.UTC().Format(time.RFC3339))
			return s
		}
	}
	return r
}

// fetchKey returns the URL rawURL is fetched from and cached, remembered
// and shared under, by Fetch, Open and Headers alike: its scheme in lower
// case, its authority in canonical form (canonicalAuthority), no
// fragment, so that one URL has one key, one cache entry, one flight and
// one failure record.
func fetchKey(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", err
	}
	if u.Scheme = strings.ToLower(u.Scheme); u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("unsupported scheme %q (want http or https)", u.Scheme)
	}
	if u.Host == "" {
		return "", errors.New("no host")
	}
	if u.Host, err = canonicalAuthority(u.Scheme, u.Host); err != nil {
		return "", err
	}
	u.Fragment = ""
	return u.String(), nil
}

// resultOf interprets a cached or fresh entry under m.
func resultOf(e *entry, m *Access) *Result {
	st, reason := meaning(m, gotResponse, e.StatusCode, "")
	r := &Result{URL: e.URL, Access: m, Status: st, Reason: reason, FinalURL: e.FinalURL, Redirects: e.Redirects, Chain: e.Chain,
		HTTPStatus: e.StatusCode, ContentType: e.Header.Get("Content-Type"), Header: e.Header, FetchedAt: e.FetchedAt,
		Expires: e.expires(m), Truncated: e.Truncated}
	if st == Parse {
		r.Body = e.Body
	}
	if st == Error {
		r.Err = &StatusError{URL: e.URL, Code: e.StatusCode}
	}
	return r
}

// remembered returns the remembered failure for key, if it still holds.
func (f *Fetcher) remembered(key string, now time.Time) *outcome {
	f.mu.Lock()
	defer f.mu.Unlock()
	o := f.failures[key]
	if o == nil {
		return nil
	}
	if !now.Before(o.retryAt) {
		delete(f.failures, key)
		return nil
	}
	return o
}

// do runs one fetch of key for all concurrent callers. The fetch runs on
// its own goroutine with the Fetcher's timeout, detached from each ctx, so
// one caller giving up does not fail the others; when every caller has
// given up, the fetch is canceled and its outcome not remembered.
func (f *Fetcher) do(ctx context.Context, key string, cached *entry) *outcome {
	f.mu.Lock()
	c, ok := f.calls[key]
	if !ok {
		var fctx context.Context
		c, fctx = newFlight[*outcome](ctx)
		if f.calls == nil {
			f.calls = make(map[string]*flight[*outcome])
		}
		f.calls[key] = c
		go func() {
			o := f.fetchShared(fctx, key, cached)
			abandoned := fctx.Err() != nil
			c.cancel()
			f.mu.Lock()
			defer f.mu.Unlock()
			if o.e == nil && !o.retryAt.IsZero() && !abandoned {
				if f.failures == nil {
					f.failures = make(map[string]*outcome)
				}
				if len(f.failures) >= 1024 {
					now := f.now()
					for k, v := range f.failures {
						if !now.Before(v.retryAt) {
							delete(f.failures, k)
						}
					}
				}
				// Past maxFailures unexpired failures, forget arbitrary ones:
				// a forgotten failure costs one more request, not memory.
				for k := range f.failures {
					if len(f.failures) < maxFailures {
						break
					}
					delete(f.failures, k)
				}
				f.failures[key] = o
			}
			c.land(f.calls, key, o)
		}()
	}
	c.waiters++
	f.mu.Unlock()
	if ok && f.onJoin != nil {
		f.onJoin()
	}
	if o, ok := c.wait(ctx, &f.mu, f.calls, key); ok {
		return o
	}
	return &outcome{kind: networkError, err: ctx.Err(), finalURL: key}
}

// request builds the GET for key: sitetxt's User-Agent, gzip asked for
// (which turns off net/http's transparent decompression, so the decoded
// size limit is ours to enforce), and the validators of a cached copy.
func (f *Fetcher) request(ctx context.Context, key string, cached *entry) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, key, nil)
	if err != nil {
		return nil, err
	}
	ua := f.UserAgent
	if ua == "" {
		ua = DefaultUserAgent
	}
	req.Header.Set("User-Agent", ua)
	req.Header.Set("Accept", "text/plain, */*;q=0.5")
	req.Header.Set("Accept-Encoding", "gzip")
	if cached != nil {
		if v := cached.Header.Get("ETag"); v != "" {
			req.Header.Set("If-None-Match", v)
		}
		if v := cached.Header.Get("Last-Modified"); v != "" {
			req.Header.Set("If-Modified-Since", v)
		}
	}
	return req, nil
}

// revalidated is the outcome of a 304 for a cached copy: the copy, with
// the response's freshness headers, stored again.
func (f *Fetcher) revalidated(o *outcome, cached *entry, resp *http.Response, now time.Time) *outcome {
	e := *cached
	e.Header = cached.Header.Clone()
	for _, h := range []string{"Cache-Control", "Expires", "Date", "Age", "ETag", "Last-Modified"} {
		if vs := resp.Header.Values(h); len(vs) > 0 {
			e.Header[http.CanonicalHeaderKey(h)] = vs
		}
	}
	e.FetchedAt = now
	o.e, o.fromCache = &e, true
	o.code, o.ctype = e.StatusCode, e.Header.Get("Content-Type")
	f.store(&e)
	return o
}

// fetch makes the request and reads the response.
func (f *Fetcher) fetch(ctx context.Context, key string, cached *entry) *outcome {
	timeout := f.timeout()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	o := &outcome{finalURL: key}
	fail := func(kind outcomeKind, err error, h http.Header) *outcome {
		o.kind, o.err = kind, err
		if f.Retry >= 0 {
			retry := f.Retry
			if retry == 0 {
				retry = DefaultRetry
			}
			o.retryAt = f.now().Add(retryAfter(h, f.now(), retry))
		}
		return o
	}
	req, err := f.request(ctx, key, cached)
	if err != nil {
		return fail(networkError, err, nil)
	}
	client := f.httpClient(o)
	resp, err := send(client, req)
	if err != nil {
		var refused *RefusedError
		if errors.As(err, &refused) {
			// Never sent: nothing to remember about the site.
			o.kind, o.err = networkError, refused
			return o
		}
		if resp != nil && resp.Request != nil {
			o.finalURL = resp.Request.URL.String()
			o.code = resp.StatusCode
		}
		var re *RedirectError
		if errors.As(err, &re) {
			return fail(badRedirect, re, nil)
		}
		o.code = 0
		return fail(networkError, netError(ctx, err, timeout), nil)
	}
	defer resp.Body.Close()
	now := f.now()
	o.code, o.finalURL, o.ctype = resp.StatusCode, resp.Request.URL.String(), resp.Header.Get("Content-Type")
	if resp.StatusCode == http.StatusNotModified && cached != nil {
		return f.revalidated(o, cached, resp, now)
	}
	if !storable(resp.StatusCode) {
		// A failure, or an answer that is not a file: remembered in memory
		// for Retry-After or Retry, never stored (docs/fetching.md).
		return fail(gotResponse, &StatusError{URL: key, Code: resp.StatusCode}, resp.Header)
	}
	e := responseEntry(key, o, resp, now)
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		e.Body, e.Truncated, err = readBody(resp, f.maxSize())
		if err != nil {
			return fail(networkError, netError(ctx, fmt.Errorf("reading the body: %w", err), timeout), nil)
		}
	}
	o.e = e
	f.store(e)
	return o
}

// responseEntry is the cache entry of resp, the answer to key that
// arrived at now after o's redirects: its status, final URL and the
// headers kept (keptHeaders), without its body.
func responseEntry(key string, o *outcome, resp *http.Response, now time.Time) *entry {
	e := &entry{URL: key, FinalURL: resp.Request.URL.String(), Redirects: o.redirects, Chain: o.chain, StatusCode: resp.StatusCode,
		Header: make(http.Header), FetchedAt: now}
	for _, h := range keptHeaders {
		if vs := resp.Header.Values(h); len(vs) > 0 {
			e.Header[http.CanonicalHeaderKey(h)] = vs
		}
	}
	return e
}

// store puts e in the cache unless the response forbids it. In a shared
// cache it is kept as long as any mode may use it, and it replaces a
// remembered failure.
func (f *Fetcher) store(e *entry) {
	if e.noStore() {
		return
	}
	if sc, ok := f.cache().(cache.Shared); ok {
		sc.PutTTL(e.URL, e.encode(), f.sharedTTL(e))
		sc.PutTTL(failureKey(e.URL), nil, 0)
		return
	}
	f.cache().Put(e.URL, e.encode())
}

// readBody reads at most max bytes of the decoded body and reports whether
// there was more. The rest is left unread: closing the body drops the
// connection instead of draining it.
func readBody(resp *http.Response, max int) ([]byte, bool, error) {
	r, err := decodeBody(resp)
	if err != nil {
		return nil, false, err
	}
	if zr, ok := r.(*gzip.Reader); ok {
		defer zr.Close()
	}
	var buf bytes.Buffer
	if n := resp.ContentLength; n > 0 && r == resp.Body {
		// Content-Length is a hint: the body may still be shorter or longer.
		buf.Grow(int(min(n, int64(max))) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(io.LimitReader(r, int64(max)+1)); err != nil {
		return nil, false, err
	}
	data, truncated := buf.Bytes(), false
	if len(data) > max {
		data, truncated = data[:max], true
	}
	if cap(data)-len(data) > 64<<10 {
		data = bytes.Clone(data)
	}
	return data, truncated, nil
}

// maxFailures bounds how many failed sites a Fetcher remembers.
const maxFailures = 10000

// Failure returns the error for a Result that gives its caller no answer to
// use: "cannot fetch URL: " and Err, or the Reason when there is no Err.
func (r *Result) Failure() error {
	if r.Err != nil {
		return fmt.Errorf("cannot fetch %s: %w", r.URL, r.Err)
	}
	return fmt.Errorf("cannot fetch %s: %s", r.URL, r.Reason)
}
