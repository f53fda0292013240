package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"path"
	"strings"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
)

// notRouted answers a request no route takes as every other error is
// answered, in JSON: 404 for an unknown path, 405 (with Allow) for a known
// path asked with another method. h is the mux's own answer, which says
// which of the two it is.
func (s *Server) notRouted(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var p probe
		h.ServeHTTP(&p, r)
		if p.code == http.StatusMethodNotAllowed {
			allow := p.Header().Get("Allow")
			w.Header().Set("Allow", allow)
			s.fail(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed here; allowed: "+allow)
			return
		}
		s.fail(w, http.StatusNotFound, "no such endpoint: "+r.URL.Path+" (the tester is GET /; "+s.endpoints()+")")
	})
}

// endpoints names the routes of the gate for a 404, by method: "POST
// /v1/check, /v1/test; GET /openapi.json, ...", the page and its assets
// left out.
func (s *Server) endpoints() string {
	var post, get []string
	for _, p := range s.routes {
		method, path, _ := strings.Cut(p, " ")
		switch {
		case method == http.MethodPost:
			post = append(post, path)
		case strings.HasPrefix(path, "/v1/") || path == "/openapi.json" || path == "/healthz" || path == "/metrics":
			get = append(get, path)
		}
	}
	return "POST " + strings.Join(post, ", ") + "; GET " + strings.Join(get, ", ")
}

// probe is a ResponseWriter that keeps the status and headers of an
// answer and drops its body.
type probe struct {
	h    http.Header
	code int
}

func (p *probe) Header() http.Header {
	if p.h == nil {
		p.h = http.Header{}
	}
	return p.h
}
func (p *probe) WriteHeader(code int)        { p.code = code }
func (p *probe) Write(b []byte) (int, error) { return len(b), nil }

// ended is the result of a URL the request ended before deciding.
func ended(url, agent string, prof robots.Profile, err error) Result {
	reason := "the request ended before this URL was decided"
	if errors.Is(err, context.DeadlineExceeded) {
		reason = "the request's time ran out before this URL was decided"
	}
	return undecided(url, agent, prof, reason, reason)
}

// The words a stranger gets for a manifest that could not be fetched
// below HTTP: not the first bytes a non-HTTP service sent, not a
// resolver's or an internal address, not whether a port refused or timed
// out (a port scanner's questions), not whether a name resolves to an
// internal address. The detail goes to the server's log. noAnswer and
// notPublic are the words for robots.txt; publicError names the file.
const (
	didNotAnswer = ": the site did not answer over HTTP"
	notPublicEnd = ": the site's address is not a public one (serve --allow-private allows it)"
	noAnswer     = "could not fetch robots.txt" + didNotAnswer
	notPublic    = "could not fetch robots.txt" + notPublicEnd
)

// publicError says in public words why fileURL could not be fetched:
// that its address is not public only when the URL gave that address
// itself (then the client knows it already), that its response's header
// fields were over maxResponseHeader (the site's own answer), else that
// the site did not answer over HTTP.
func publicError(fileURL string, err error) string {
	return publicWords(fileOf(fileURL), fileURL, err)
}

// fileOf names the file at fileURL for a stranger: a manifest's name
// ("robots.txt"), else "the file".
func fileOf(fileURL string) string {
	if u, err := url.Parse(fileURL); err == nil {
		if k, ok := manifest.ByFile(path.Base(u.Path)); ok && !k.Sitemaps {
			return k.File
		}
	}
	return "the file"
}

// publicWords is publicError's answer, for what names the thing fetched
// ("robots.txt", "the file", "the URL").
func publicWords(what, fileURL string, err error) string {
	if headersTooLarge(err) {
		return fmt.Sprintf("could not fetch %s: its response's header fields are over %d KiB", what, maxResponseHeader>>10)
	}
	if u, perr := url.Parse(fileURL); perr == nil && refusedLiteral(u, err) {
		return "could not fetch " + what + notPublicEnd
	}
	return "could not fetch " + what + didNotAnswer
}

// refusedLiteral reports whether the guard refused the address u gave
// itself (an IP literal), which the client may then be told: of a name
// that resolves to a refused address nothing is said (publicError).
func refusedLiteral(u *url.URL, err error) bool {
	var re *ErrRefused
	if !errors.As(err, &re) {
		return false
	}
	_, aerr := netip.ParseAddr(u.Hostname())
	return aerr == nil
}

// maxResponseHeader bounds the header fields of a response serve fetches
// (the guarded transport's MaxResponseHeaderBytes), as it bounds those of
// the requests it takes: a site cannot make one fetch, or one echoed
// header, take more.
const maxResponseHeader = 64 << 10

// headersTooLarge reports whether err is net/http's refusal of a response
// whose header fields passed MaxResponseHeaderBytes (it has no error
// value of its own, only these words).
func headersTooLarge(err error) bool {
	return err != nil && strings.Contains(err.Error(), "server response headers exceeded")
}

// publicFetchError is what a client is told of a fetch of u that failed
// with err: a failure below HTTP (a connection, a name, TLS, a body cut,
// an address the guard refused) in public words, its detail logged; the
// request's end as such; an HTTP status and what the file's bytes said
// as they are (the site's own public answer).
func (s *Server) publicFetchError(u string, err error) string {
	return s.fetchFailure(fileOf(u), u, err)
}

// fetchFailure is publicFetchError for what names the thing fetched.
func (s *Server) fetchFailure(what, u string, err error) string {
	var (
		ne   *fetch.NetError
		re   *ErrRefused
		nerr net.Error
		oe   *net.OpError
		de   *net.DNSError
	)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "the request's time ran out before " + what + " was fetched"
	case errors.Is(err, context.Canceled):
		return "the request ended before " + what + " was fetched"
	case errors.As(err, &ne), errors.As(err, &re), errors.As(err, &nerr), errors.As(err, &oe), errors.As(err, &de):
		s.log.Info("fetch failed", "url", u, "err", err.Error())
		return publicWords(what, u, err)
	}
	return err.Error()
}

// publicReason drops the cause a reason quotes in parentheses
// ("unreachable (dial tcp ...): everything is disallowed") for a stranger.
func publicReason(reason string, err error) string {
	if err == nil {
		return reason
	}
	if c := err.Error(); c != "" {
		reason = strings.Replace(reason, " ("+c+")", "", 1)
	}
	return reason
}
