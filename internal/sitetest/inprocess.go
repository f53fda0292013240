package sitetest

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
)

// InProcess is an http.RoundTripper that answers with Handler in the
// caller's goroutine, without a socket. A test in a testing/synctest
// bubble fetches through it so that synctest.Wait can tell when every
// fetch is blocked (a goroutine waiting on the network never counts as
// blocked), instead of sleeping until it probably is.
type InProcess struct {
	Handler http.HandlerFunc
	hits    atomic.Int64
}

// RoundTrip answers r with Handler; a request whose context ended while
// Handler ran fails with the context's error, as over a network.
func (p *InProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	p.hits.Add(1)
	rec := httptest.NewRecorder()
	p.Handler(rec, r)
	if err := r.Context().Err(); err != nil {
		return nil, err
	}
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

// Client returns an http.Client whose requests p answers.
func (p *InProcess) Client() *http.Client { return &http.Client{Transport: p} }

// Hits returns how many requests p has answered.
func (p *InProcess) Hits() int64 { return p.hits.Load() }
