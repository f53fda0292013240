package sitetxtcolly

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/sitetxt/sitetxt/fetch"
)

// remote decides and paces through a sitetxt serve.
type remote struct {
	url, agent, profile, token string
	hc                         *http.Client
}

// acquireAnswer is the part of POST /v1/acquire's answer remote reads.
type acquireAnswer struct {
	Allowed bool   `json:"allowed"`
	Reason  string `json:"reason"`
	Error   string `json:"error"`
	WaitMS  int64  `json:"wait_ms"`
	Ticket  string `json:"ticket"`
	Rule    *struct {
		Directive string `json:"directive"`
		Pattern   string `json:"pattern"`
		Line      int    `json:"line"`
	} `json:"rule"`
}

// reason says why the answer says no, as robots.Decision.String does.
func (a *acquireAnswer) reason() string {
	switch {
	case a.Error != "":
		return a.Error
	case a.Rule != nil:
		return fmt.Sprintf("disallowed by line %d: %s: %s", a.Rule.Line, a.Rule.Directive, a.Rule.Pattern)
	}
	return "disallowed: " + a.Reason
}

// busyError is serve's "429: later" to an acquire: the site's slots are
// booked to serve's horizon, or the caller's share of them.
type busyError struct{ retry time.Duration }

func (e *busyError) Error() string { return fmt.Sprintf("serve is busy; again in %v", e.retry) }

// maxBusy is how long an acquire is asked again while serve answers
// "429: later", before the request fails.
const maxBusy = 10 * time.Minute

func (r *remote) acquire(ctx context.Context, url string) (grant, error) {
	giveUp := time.Now().Add(maxBusy)
	for {
		var a acquireAnswer
		err := r.post(ctx, "/v1/acquire", map[string]string{"url": url, "agent": r.agent, "profile": r.profile}, &a)
		if busy, ok := err.(*busyError); ok && time.Now().Before(giveUp) {
			if err := sleep(ctx, busy.retry); err != nil {
				return grant{}, err
			}
			continue
		}
		if err != nil {
			return grant{}, err
		}
		if !a.Allowed {
			return grant{reason: a.reason()}, nil
		}
		return grant{allowed: true, wait: time.Duration(a.WaitMS) * time.Millisecond, ticket: a.Ticket}, nil
	}
}

// report sends POST /v1/report: the agent and the ticket go with it only
// when the acquire's answer carried a ticket (a serve that hands out none
// refuses fields it does not know).
func (r *remote) report(ctx context.Context, url string, g grant, status int, retryAfter string) error {
	body := map[string]any{"url": url, "status": status, "retry_after": retryAfter}
	if g.ticket != "" {
		body["agent"], body["ticket"] = r.agent, g.ticket
	}
	var out struct{}
	return r.post(ctx, "/v1/report", body, &out)
}

// post sends body to serve's path and decodes its answer into out.
func (r *remote) post(ctx context.Context, path string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url+path, bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("sitetxtcolly: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	resp, err := r.hc.Do(req)
	if err != nil {
		return fmt.Errorf("sitetxtcolly: %s: %w", path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("sitetxtcolly: %s: %w", path, err)
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		d, ok := fetch.ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
		if !ok || d <= 0 {
			d = time.Second
		}
		return &busyError{d}
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		json.Unmarshal(data, &e)
		return fmt.Errorf("sitetxtcolly: %s answered %d: %s", path, resp.StatusCode, e.Error)
	}
	return json.Unmarshal(data, out)
}
