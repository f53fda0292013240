package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"

	"github.com/sitetxt/sitetxt/internal/input"
	"github.com/sitetxt/sitetxt/robots"
)

// checkRequest is the body of POST /v1/check.
type checkRequest struct {
	Agent   *string  `json:"agent"`
	URLs    []string `json:"urls"`
	Profile string   `json:"profile"`
}

type checkResponse struct {
	Results []Result `json:"results"`
}

// check answers POST /v1/check, the request admitted and read by the
// gate: it writes the results in order as they are decided. When the
// request ends (the client leaves, or RequestTimeout), the fetches it
// alone waits for stop.
func (s *Server) check(ctx context.Context, w http.ResponseWriter, req *checkRequest) *apiError {
	if req.Agent == nil {
		return badRequest(`bad request body: no "agent" (use "*" for the rules every crawler follows)`)
	}
	prof, aerr := s.profileOf(req.Profile)
	if aerr != nil {
		return aerr
	}
	if rec, ok := w.(*recorder); ok {
		rec.urls = len(req.URLs)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.answer(ctx, cancel, w, s.clients[prof], prof, *req.Agent, req.URLs)
	return nil
}

// answer decides urls, DefaultParallel at a time, and writes
// {"results": [...]} in order as the results come, at most answerWindow
// of them decided ahead of the one written. A write that fails (the
// client left, or the write deadline cut it) stops the request: stop
// cancels ctx, so the fetches no other request waits for stop too.
func (s *Server) answer(ctx context.Context, stop context.CancelFunc, w http.ResponseWriter, c *robots.Client, prof robots.Profile, agent string, urls []string) {
	a := newAnswers(len(urls), answerWindow)
	var wg sync.WaitGroup
	for range min(DefaultParallel, len(urls)) {
		wg.Go(func() {
			for {
				i, ok := a.claim()
				if !ok {
					return
				}
				r, _ := s.decideOne(ctx, c, prof, agent, urls[i])
				a.put(i, r)
			}
		})
	}
	w.Header().Set("Content-Type", "application/json")
	if err := writeResults(w, a); err != nil {
		s.log.Debug("writing response", "err", err)
		a.quit()
		stop()
	}
	wg.Wait()
}

// decideOne decides one URL, counting it in the metrics; the Client's
// answer too, nil when there is none.
func (s *Server) decideOne(ctx context.Context, c *robots.Client, prof robots.Profile, agent, url string) (Result, *robots.Answer) {
	if ctx.Err() != nil {
		// The client left or the request's time is up: fetch no more for it.
		return ended(url, agent, prof, ctx.Err()), nil
	}
	iu, err := input.ReadURL(url)
	if err == nil && !iu.Absolute() {
		err = iu.NoSite()
	}
	if err != nil {
		// The reading of docs/cli.md: an error for this URL alone.
		s.metrics.decisions.WithLabelValues("error").Inc()
		return undecided(url, agent, prof, notHTTP, err.Error()), nil
	}
	a, err := c.Check(ctx, agent, url)
	switch {
	case err != nil:
		s.metrics.decisions.WithLabelValues("error").Inc()
	case a.Allowed:
		s.metrics.decisions.WithLabelValues("allowed").Inc()
	default:
		s.metrics.decisions.WithLabelValues("disallowed").Inc()
	}
	if err == nil {
		if a.FromCache {
			s.metrics.answers.WithLabelValues("hit").Inc()
		} else {
			s.metrics.answers.WithLabelValues("miss").Inc()
		}
	}
	return s.decisionOf(url, agent, prof, a, err), a
}

// writeResults writes {"results": [...]} with the results of a, in order.
func writeResults(w io.Writer, a *answers) error {
	if _, err := io.WriteString(w, `{"results":[`); err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for i := range a.n {
		r := a.take()
		buf.Reset()
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := enc.Encode(r); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		if _, err := w.Write(buf.Bytes()); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "]}\n")
	return err
}

// answers holds the results of one request from when they are decided
// until they are written, in order: the workers claim URLs in order, at
// most window ahead of the one being written, so a request holds a
// window of results, never its whole answer.
type answers struct {
	mu      sync.Mutex
	cond    sync.Cond
	n       int // URLs
	window  int
	next    int // the next URL to claim
	written int // the next result to write
	done    map[int]Result
	stopped bool
}

func newAnswers(n, window int) *answers {
	a := &answers{n: n, window: window, done: make(map[int]Result)}
	a.cond.L = &a.mu
	return a
}

// claim returns the next URL to decide, waiting while window results are
// ahead of the writer; false when there is none left or the writer quit.
func (a *answers) claim() (int, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for !a.stopped && a.next < a.n && a.next >= a.written+a.window {
		a.cond.Wait()
	}
	if a.stopped || a.next >= a.n {
		return 0, false
	}
	a.next++
	return a.next - 1, true
}

// put gives the result of URL i.
func (a *answers) put(i int, r Result) {
	a.mu.Lock()
	a.done[i] = r
	a.mu.Unlock()
	a.cond.Broadcast()
}

// take waits for the result of the next URL to write and returns it.
func (a *answers) take() Result {
	a.mu.Lock()
	defer a.mu.Unlock()
	for {
		if r, ok := a.done[a.written]; ok {
			delete(a.done, a.written)
			a.written++
			a.cond.Broadcast()
			return r
		}
		a.cond.Wait()
	}
}

// quit stops the claims: nothing more will be written.
func (a *answers) quit() {
	a.mu.Lock()
	a.stopped = true
	a.mu.Unlock()
	a.cond.Broadcast()
}
