package fetch

import (
	"context"
	"io"
	"net/http"
)

// Head is a response's status and header fields, its body unread: what a
// URL's own response says about itself (its media type and size, the
// preferences it carries).
type Head struct {
	URL        string // the URL asked for, as Fetch keys it (lower-case scheme, canonical authority, no fragment)
	FinalURL   string // where the answer came from, after Redirects redirects
	Redirects  int
	HTTPStatus int
	Header     http.Header
	// ContentLength is the body's length as the response declares it, -1
	// when it does not.
	ContentLength int64
}

// Headers asks for rawURL's response header fields without its body:
// HEAD, or a GET of its first byte (Range: bytes=0-0) when the server
// refuses HEAD (405, 501). It uses the Fetcher's HTTP client, User-Agent,
// redirect rules and Timeout, and never the cache. Any HTTP status is a
// Head; a network failure is a *NetError, a redirect that is not followed
// a *RedirectError.
func (f *Fetcher) Headers(ctx context.Context, rawURL string) (*Head, error) {
	key, err := fetchKey(rawURL) // the URL as Fetch and Open read it
	if err != nil {
		return nil, err
	}
	timeout := f.timeout()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	o := &outcome{}
	do := func(method string) (*http.Response, error) {
		req, err := f.request(ctx, key, nil)
		if err != nil {
			return nil, err
		}
		req.Method = method
		if method == http.MethodGet {
			req.Header.Set("Range", "bytes=0-0")
		}
		return send(f.httpClient(o), req)
	}
	resp, err := do(http.MethodHead)
	if err == nil && (resp.StatusCode == http.StatusMethodNotAllowed || resp.StatusCode == http.StatusNotImplemented) {
		resp.Body.Close()
		o.redirects = 0
		resp, err = do(http.MethodGet)
	}
	if err != nil {
		return nil, doError(ctx, err, timeout)
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<10))
	resp.Body.Close()
	return &Head{URL: key, FinalURL: resp.Request.URL.String(), Redirects: o.redirects,
		HTTPStatus: resp.StatusCode, Header: resp.Header, ContentLength: resp.ContentLength}, nil
}
