package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Stream is a response whose body is read as it arrives instead of being
// held: for files too large to keep whole (sitemaps, up to 50 MB each).
type Stream struct {
	URL       string // the URL asked for
	FinalURL  string // where the body came from, after Redirects redirects
	Redirects int
	Chain     []string
	// HTTPStatus is the status of the response (2xx; 200 for a copy from
	// the cache).
	HTTPStatus  int
	ContentType string
	// FromCache is set when the body comes from the cache (fresh, or
	// confirmed by a 304).
	FromCache bool
	// Body is the body, Content-Encoding gzip decoded. Closing it ends
	// the request (the rest is not read or drained).
	Body io.ReadCloser
}

// Open fetches rawURL to be read as a stream. It uses the Fetcher's HTTP
// client, User-Agent and redirect rules like Fetch; its Timeout bounds the
// whole fetch, the reading of the body included (until Body is closed);
// MaxSize does not apply: the caller bounds what it reads. Only a 2xx
// response is a Stream: any other status is a *StatusError, a network
// failure a *NetError, a redirect that is not followed a *RedirectError.
//
// A body of at most MaxSize bytes read to its end is stored in the Cache
// like a manifest, under the key Fetch uses (fetchKey: one URL, one entry,
// however it is spelt), and answered from there while it is fresh (RFC 9309's
// freshness: the response's own, capped at 24 hours), revalidated with
// its ETag or Last-Modified when it is not. Larger bodies are never held.
func (f *Fetcher) Open(ctx context.Context, rawURL string) (*Stream, error) {
	key, err := fetchKey(rawURL)
	if err != nil {
		return nil, err
	}
	now := f.now()
	var cached *entry
	if data, ok := f.cache().Get(key); ok {
		if e, err := decodeEntry(data); err == nil && e.URL == key && e.StatusCode/100 == 2 && !e.Truncated {
			cached = e
		}
	}
	if cached != nil && cached.fresh(AccessRFC9309, now) {
		return cachedStream(key, cached), nil
	}
	timeout := f.timeout()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	o := &outcome{finalURL: key}
	req, err := f.request(ctx, key, cached)
	if err != nil {
		cancel()
		return nil, err
	}
	req.Header.Set("Accept", "application/xml, text/xml;q=0.9, text/plain;q=0.8, */*;q=0.5")
	resp, err := send(f.httpClient(o), req)
	if err != nil {
		cancel()
		return nil, doError(ctx, err, timeout)
	}
	if resp.StatusCode == http.StatusNotModified && cached != nil {
		resp.Body.Close()
		cancel()
		o.finalURL = resp.Request.URL.String()
		f.revalidated(o, cached, resp, now)
		return cachedStream(key, o.e), nil
	}
	if resp.StatusCode/100 != 2 {
		resp.Body.Close()
		cancel()
		return nil, &StatusError{URL: key, Code: resp.StatusCode}
	}
	body, err := decodeBody(resp)
	if err != nil {
		resp.Body.Close()
		cancel()
		return nil, err
	}
	s := &Stream{URL: key, FinalURL: resp.Request.URL.String(), Redirects: o.redirects, Chain: o.chain,
		HTTPStatus: resp.StatusCode, ContentType: resp.Header.Get("Content-Type")}
	e := responseEntry(key, o, resp, now)
	s.Body = &streamBody{r: body, f: f, e: e, max: f.maxSize(), ctx: ctx, timeout: timeout,
		close: func() { resp.Body.Close(); cancel() }}
	return s, nil
}

func cachedStream(key string, e *entry) *Stream {
	return &Stream{URL: key, FinalURL: e.FinalURL, Redirects: e.Redirects, Chain: e.Chain, HTTPStatus: e.StatusCode,
		ContentType: e.Header.Get("Content-Type"), FromCache: true, Body: io.NopCloser(bytes.NewReader(e.Body))}
}

// streamBody is a Stream's body: it names the cause of a failure (a
// timeout, a reset) and keeps a copy of a small body, stored in the cache
// once it has been read to its end.
type streamBody struct {
	r       io.Reader
	f       *Fetcher
	e       *entry
	buf     []byte
	max     int
	over    bool
	ctx     context.Context
	timeout time.Duration
	close   func()
}

func (b *streamBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if !b.over {
		if len(b.buf)+n > b.max {
			b.over, b.buf = true, nil
		} else {
			b.buf = append(b.buf, p[:n]...)
		}
	}
	switch {
	case err == io.EOF:
		if !b.over && b.e != nil {
			b.e.Body = b.buf
			b.f.store(b.e)
			b.e = nil
		}
	case err != nil:
		err = netError(b.ctx, fmt.Errorf("reading the body: %w", err), b.timeout)
	}
	return n, err
}

func (b *streamBody) Close() error {
	b.close()
	return nil
}

// httpClient returns the client for one fetch: the Fetcher's, with its
// redirect rules, which record each hop followed in o.
func (f *Fetcher) httpClient(o *outcome) *http.Client {
	client := http.Client{}
	if f.Client != nil {
		client = *f.Client
	}
	maxHops := f.MaxRedirects
	if maxHops <= 0 {
		maxHops = DefaultMaxRedirects
	}
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		// req is redirect number len(via); o.redirects were followed.
		if len(via) > maxHops {
			return &RedirectError{Hop: len(via), To: req.URL.Redacted(), TooMany: true, Max: maxHops}
		}
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return &RedirectError{Hop: len(via), To: req.URL.Redacted()}
		}
		if err := pass(req); err != nil {
			return err
		}
		o.redirects = len(via)
		o.chain = append(o.chain, req.URL.String())
		return nil
	}
	return &client
}

// decodeBody returns resp's body with its Content-Encoding (gzip, or none)
// decoded; any other encoding is an error (we never ask for one).
func decodeBody(resp *http.Response) (io.Reader, error) {
	switch enc := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
		return resp.Body, nil
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return nil, fmt.Errorf("bad gzip body: %w", err)
		}
		return zr, nil
	default:
		return nil, fmt.Errorf("unsupported Content-Encoding %q", enc)
	}
}
