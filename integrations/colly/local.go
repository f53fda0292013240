package sitetxtcolly

import (
	"context"
	"net/http"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/pace"
	"github.com/sitetxt/sitetxt/robots"
)

// local decides and paces in this process: a robots.Client fetching
// robots.txt through the crawler's transport, and a pace.Memory.
type local struct {
	agent   string
	client  *robots.Client
	reading pace.Reading
	pacer   pace.Pacer
}

func newLocal(agent string, prof robots.Profile, userAgent string, base http.RoundTripper) *local {
	return &local{
		agent:  agent,
		client: &robots.Client{Profile: prof, Fetcher: &fetch.Fetcher{UserAgent: userAgent, Client: &http.Client{Transport: base}}},
		pacer:  pace.NewMemory(pace.Options{}),
	}
}

func (l *local) acquire(ctx context.Context, url string) (grant, error) {
	a, err := l.client.Check(ctx, l.agent, url)
	if err != nil {
		return grant{}, err
	}
	if !a.Allowed {
		return grant{reason: reasonOf(a)}, nil
	}
	site, err := pace.Site(url)
	if err != nil {
		return grant{}, err
	}
	wait, err := l.pacer.Acquire(ctx, site, l.reading.Of(a.Policy(), l.agent))
	return grant{allowed: true, wait: wait, site: site}, err
}

func (l *local) report(ctx context.Context, _ string, g grant, status int, retryAfter string) error {
	_, err := l.pacer.Report(ctx, g.site, status, retryAfter)
	return err
}

// reasonOf says why a says no: the decision with its rule and line, or
// what the robots.txt response meant.
func reasonOf(a *robots.Answer) string {
	if a.Decision != nil {
		return a.Decision.String()
	}
	return a.Reason
}
