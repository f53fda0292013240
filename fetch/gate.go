package fetch

import (
	"context"
	"errors"
	"net/http"
)

// A Gate is asked before each request a Fetcher sends on behalf of a
// context that carries it (WithGate): the first request of a Fetch, Open
// or Headers and every redirect it follows, never an answer from the
// cache or from memory. It returns nil to let the request go, after
// waiting as long as it must (a pacer's slot for the site), or an error to
// refuse it (robots.txt disallows the URL). A refused request is not sent:
// its error, wrapped in a *RefusedError, is the fetch's (Result.Err, the
// error of Open or Headers), and it is not remembered as the site's
// failure, since the site was never asked.
//
// A discovery that must honour a site's robots.txt and pace (package
// discover) gives its context a Gate, so that what other entry points
// fetch for it (sitemap files, pins boards) passes the same gate.
type Gate func(ctx context.Context, url string) error

type gateKey struct{}

// WithGate returns ctx carrying g: the requests Fetchers send for it ask
// g first.
func WithGate(ctx context.Context, g Gate) context.Context {
	return context.WithValue(ctx, gateKey{}, g)
}

func gateOf(ctx context.Context) Gate {
	g, _ := ctx.Value(gateKey{}).(Gate)
	return g
}

// RefusedError is a request its context's Gate refused: URL was never
// asked for.
type RefusedError struct {
	URL string
	Err error
}

func (e *RefusedError) Error() string { return "not fetched: " + e.Err.Error() }

func (e *RefusedError) Unwrap() error { return e.Err }

// pass asks req's Gate, if its context carries one, whether req may be
// sent: nil, or a *RefusedError.
func pass(req *http.Request) error {
	g := gateOf(req.Context())
	if g == nil {
		return nil
	}
	if err := g(req.Context(), req.URL.String()); err != nil {
		var re *RefusedError
		if errors.As(err, &re) {
			return re
		}
		return &RefusedError{URL: req.URL.String(), Err: err}
	}
	return nil
}

// send sends req with client once its Gate lets it go.
func send(client *http.Client, req *http.Request) (*http.Response, error) {
	if err := pass(req); err != nil {
		return nil, err
	}
	return client.Do(req)
}
