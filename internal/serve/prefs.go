package serve

import (
	"context"
	"net/http"
	"sync"

	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/internal/prefs"
	"github.com/sitetxt/sitetxt/robots"
)

// PrefsMaxURLs bounds the URLs of one POST /v1/prefs: each costs a
// robots.txt decision and a request to the URL itself, and the answer is
// written whole.
const PrefsMaxURLs = 32

// prefsURLCost is what one URL of a POST /v1/prefs is charged: the
// header fields of its response (at most maxResponseHeader, and the
// strings and maps they are read into) and its result, each echoed value
// bounded (boundPrefs).
const prefsURLCost = 3*maxResponseHeader + resultCost

// prefsRequest is the body of POST /v1/prefs.
type prefsRequest struct {
	Agent   *string  `json:"agent"`
	URLs    []string `json:"urls"`
	Profile string   `json:"profile"`
}

type prefsResponse struct {
	Results []prefs.Result `json:"results"`
}

// runPrefs answers POST /v1/prefs as 'sitetxt prefs -o json' answers each
// URL (internal/prefs): its robots.txt lines and its own response header
// fields, through the service's guarded fetcher, DefaultParallel URLs at
// a time, in the order asked. Its memory is charged before any URL is
// fetched (prefsURLCost each); the decisions and fetch failures are said
// in /v1/check's words (decisionOf, fetchFailure), and each echoed value
// bounded (boundPrefs).
func (s *Server) runPrefs(ctx context.Context, req *prefsRequest) (*prefsResponse, *apiError) {
	if req.Agent == nil {
		return nil, badRequest(`bad request body: no "agent" (use "*" for the rules every crawler follows)`)
	}
	prof, aerr := s.profileOf(req.Profile)
	if aerr != nil {
		return nil, aerr
	}
	if adm := admissionOf(ctx); adm != nil {
		if err := adm.take(int64(len(req.URLs)) * prefsURLCost); err != nil {
			return nil, &apiError{code: http.StatusServiceUnavailable, msg: errBusy.Error() + "; try again"}
		}
	}
	a := &prefs.Asker{Robots: s.clients[prof], Fetcher: s.siteFetch,
		Decision: func(rawURL, agent string, ans *robots.Answer) jsonview.Decision {
			return s.decisionOf(rawURL, agent, prof, ans, nil).Decision
		},
		URLError: func(rawURL string, err error) string { return s.fetchFailure("the URL", rawURL, err) },
	}
	out := &prefsResponse{Results: make([]prefs.Result, len(req.URLs))}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(DefaultParallel, len(req.URLs)) {
		wg.Go(func() {
			for i := range next {
				out.Results[i] = a.Ask(ctx, *req.Agent, req.URLs[i])
				boundPrefs(&out.Results[i])
			}
		})
	}
	for i := range req.URLs {
		next <- i
	}
	close(next)
	wg.Wait()
	return out, nil
}
