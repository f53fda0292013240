// Package sitetxtcolly makes a colly crawler (github.com/gocolly/colly/v2)
// follow each site's robots.txt as sitetxt reads it and pace its requests
// as the site asks, in one process or across a fleet.
//
// colly reads robots.txt only when told to (IgnoreRobotsTxt is true by
// default), with its own parser, and paces with LimitRules that one
// process keeps for itself: N crawler processes send a site N times the
// requests its Crawl-delay allows. Attach installs, with
// Collector.WithTransport, an http.RoundTripper through which every
// request the collector sends passes:
//
//  1. acquire: decide the URL under the site's robots.txt (a disallowed
//     URL fails with a *DisallowedError, which colly hands to OnError) and
//     reserve the site's next slot for the crawler;
//  2. wait for the slot (the request's context ends the wait);
//  3. send the request;
//  4. report the response's status and Retry-After, so that a 429 or 503
//     pauses the site (for the fleet, through serve).
//
// With Options.ServeURL empty, the decision and the pace are this
// process's: a robots.Client and a pace.Memory. With ServeURL set they are
// a "sitetxt serve"'s, through POST /v1/acquire and POST /v1/report: every
// crawler of a fleet behind one serve (or serves sharing one Redis) shares
// one robots.txt fetch and one pace per site (docs/fleet.md). A redirect's
// every hop is a request, decided and paced; a request for /robots.txt
// itself passes unpaced.
package sitetxtcolly

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gocolly/colly/v2"
	"github.com/sitetxt/sitetxt/robots"
)

// Options configure Attach.
type Options struct {
	// ServeURL is the sitetxt serve to ask ("http://127.0.0.1:8080"); ""
	// decides and paces in this process.
	ServeURL string
	// Agent is the crawler's product token ("ExampleBot"), the name its
	// robots.txt groups are chosen by and its pace is kept under; "" means
	// the product token of the Collector's UserAgent.
	Agent string
	// Profile is the sitetxt profile robots.txt is read by: "rfc9309"
	// (the default), "google", "draft" or "norobots" (docs/profiles.md).
	Profile string
	// Token is the bearer token of serve's --token-file, if it has one.
	Token string
	// Transport sends the crawler's requests (and, in process, robots.txt
	// requests); nil means http.DefaultTransport. A Collector does not tell
	// which transport it has, so give here one set with WithTransport
	// before.
	Transport http.RoundTripper
	// Logger receives the reports that could not be made (the response
	// goes on to colly); nil means slog.Default().
	Logger *slog.Logger
}

// DisallowedError is the error of a request robots.txt disallows: nothing
// was sent.
type DisallowedError struct {
	URL    string
	Reason string // why, as sitetxt explains the decision
}

func (e *DisallowedError) Error() string {
	return fmt.Sprintf("sitetxtcolly: robots.txt disallows %s: %s", e.URL, e.Reason)
}

// grant is an acquire's answer: whether the URL may be fetched, why not,
// the wait for its slot, and what the report needs.
type grant struct {
	allowed bool
	reason  string
	wait    time.Duration
	site    string // in process: the pacer's site
	ticket  string // through serve: the slot's ticket, "" when serve hands out none
}

// pacer decides and paces: in process or through serve.
type pacer interface {
	acquire(ctx context.Context, url string) (grant, error)
	report(ctx context.Context, url string, g grant, status int, retryAfter string) error
}

// Attach makes every request of c decided by robots.txt and paced as its
// site asks, as opts say. It sets c.IgnoreRobotsTxt, since sitetxt
// decides (colly's own robots.txt check would fetch the file again and
// read it another way), and replaces c's transport (see
// Options.Transport). It fails on an unknown profile or an agent that is
// no product token.
func Attach(c *colly.Collector, opts Options) error {
	_, err := attach(c, opts)
	return err
}

// attach is Attach, returning the transport it installed.
func attach(c *colly.Collector, opts Options) (*transport, error) {
	agent := opts.Agent
	if agent == "" {
		agent = robots.ProductToken(c.UserAgent)
	}
	if agent == "" || robots.ProductToken(agent) != agent {
		return nil, fmt.Errorf("sitetxtcolly: agent %q is no product token (a name such as ExampleBot): set Options.Agent", agent)
	}
	prof, err := robots.ParseProfile(cmp.Or(opts.Profile, robots.RFC9309.String()))
	if err != nil {
		return nil, fmt.Errorf("sitetxtcolly: %w", err)
	}
	base := opts.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	var p pacer
	if opts.ServeURL == "" {
		p = newLocal(agent, prof, c.UserAgent, base)
	} else {
		p = &remote{url: strings.TrimSuffix(opts.ServeURL, "/"), agent: agent, profile: prof.String(), token: opts.Token,
			hc: &http.Client{Timeout: time.Minute}}
	}
	t := &transport{base: base, pacer: p, log: cmp.Or(opts.Logger, slog.Default())}
	c.IgnoreRobotsTxt = true
	c.WithTransport(t)
	return t, nil
}

// transport is the RoundTripper Attach installs.
type transport struct {
	base  http.RoundTripper
	pacer pacer
	log   *slog.Logger
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Path == "/robots.txt" || req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return t.base.RoundTrip(req)
	}
	ctx := req.Context()
	url := req.URL.String()
	g, err := t.pacer.acquire(ctx, url)
	if err != nil {
		return nil, err
	}
	if !g.allowed {
		return nil, &DisallowedError{URL: url, Reason: g.reason}
	}
	if err := sleep(ctx, g.wait); err != nil {
		return nil, err
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if err := t.pacer.report(ctx, url, g, resp.StatusCode, resp.Header.Get("Retry-After")); err != nil && !errors.Is(err, context.Canceled) {
		t.log.Warn("sitetxtcolly: the report was not taken", "url", url, "status", resp.StatusCode, "error", err)
	}
	return resp, nil
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
