package serve

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/sitetxt/sitetxt/internal/decision"
	"github.com/sitetxt/sitetxt/robots"
)

// notRouted answers a request no route takes as every other error is
// answered, in JSON: 404 for an unknown path, 405 (with Allow) for a known
// path asked with another method. h is the mux's own answer, which says
// which of the two it is.
func (s *Server) notRouted(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		probe := httptest.NewRecorder()
		h.ServeHTTP(probe, r)
		if probe.Code == http.StatusMethodNotAllowed {
			allow := probe.Header().Get("Allow")
			w.Header().Set("Allow", allow)
			s.fail(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed here; allowed: "+allow)
			return
		}
		s.fail(w, http.StatusNotFound, "no such endpoint: "+r.URL.Path+" (POST /v1/check, GET /healthz, GET /metrics)")
	})
}

// ended is the result of a URL the request ended before deciding.
func ended(url, agent string, prof robots.Profile, err error) Result {
	reason := "the request ended before this URL was decided"
	if errors.Is(err, context.DeadlineExceeded) {
		reason = "the request's time ran out before this URL was decided"
	}
	return Result{Decision: decision.Decision{URL: url, Agent: agent, Profile: prof.String(), Reason: reason}, Error: reason}
}

// limitListener holds at most n accepted connections at once; past that,
// Accept waits for one to close (new clients wait in the kernel's queue).
func limitListener(ln net.Listener, n int) net.Listener {
	return &limited{Listener: ln, slots: make(chan struct{}, n)}
}

type limited struct {
	net.Listener
	slots chan struct{}
}

func (l *limited) Accept() (net.Conn, error) {
	l.slots <- struct{}{}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitedConn{Conn: c, release: func() { <-l.slots }}, nil
}

type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// releaseBody gives back a fetch slot when the response body is closed.
type releaseBody struct {
	io.ReadCloser
	once    sync.Once
	release func()
}

func (b *releaseBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.release)
	return err
}

// publicError says why a robots.txt could not be fetched in words for a
// stranger: not the first bytes a non-HTTP service sent, not a resolver's
// or an internal address, not whether a port refused or timed out (a port
// scanner's questions). The detail goes to the server's log.
func publicError(err error) string {
	var re *ErrRefused
	if errors.As(err, &re) {
		return "could not fetch robots.txt: the site's address is not a public one (serve --allow-private allows it)"
	}
	return "could not fetch robots.txt: the site did not answer over HTTP"
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
