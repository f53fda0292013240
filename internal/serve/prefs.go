package serve

import (
	"context"
	"sync"

	"github.com/sitetxt/sitetxt/internal/prefs"
)

// PrefsMaxURLs bounds the URLs of one POST /v1/prefs: each costs a
// robots.txt decision and a request to the URL itself, and the answer is
// written whole.
const PrefsMaxURLs = 32

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
// a time, in the order asked.
func (s *Server) runPrefs(ctx context.Context, req *prefsRequest) (*prefsResponse, *apiError) {
	if req.Agent == nil {
		return nil, badRequest(`bad request body: no "agent" (use "*" for the rules every crawler follows)`)
	}
	prof, aerr := s.profileOf(req.Profile)
	if aerr != nil {
		return nil, aerr
	}
	a := &prefs.Asker{Robots: s.clients[prof], Fetcher: s.siteFetch}
	out := &prefsResponse{Results: make([]prefs.Result, len(req.URLs))}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(DefaultParallel, len(req.URLs)) {
		wg.Go(func() {
			for i := range next {
				out.Results[i] = a.Ask(ctx, *req.Agent, req.URLs[i])
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
