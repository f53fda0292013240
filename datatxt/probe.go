package datatxt

import (
	"context"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
)

// SiteRules decides whether an agent may fetch a URL on any site, fetching
// each site's robots.txt as needed: *robots.Client satisfies it.
type SiteRules interface {
	Allowed(ctx context.Context, agent, url string) bool
}

// ProbeOptions control Probe.
type ProbeOptions struct {
	// Agent is the crawler whose robots.txt rules are honoured; "" means
	// "*". The requests carry the Fetcher's UserAgent.
	Agent string
	// Robots decides which URLs may be asked for; nil asks for every URL
	// (a library caller that has already checked them).
	Robots SiteRules
	// Concurrency is how many requests are in flight at once; 0 means 4.
	Concurrency int
	// HostDelay is the least time between two requests to one host; 0
	// means 1 s, a negative value none.
	HostDelay time.Duration
	// Timeout bounds the whole probe; 0 means 2 minutes. URLs not asked for
	// in time are reported.
	Timeout time.Duration
}

// Probe asks the server of each distribution URL of c's entries what it
// serves: a HEAD request, or a one-byte ranged GET where HEAD is refused.
// What it learns (media type, size, Last-Modified) goes into Entry.Files,
// which the exports read. Only http(s) URLs of files are asked for, each
// once, honouring opts.Robots for opts.Agent, with bounded concurrency, a
// per-host delay and a total time limit. A broken link (a 4xx or 5xx
// answer, a network error) is an error diagnostic on the entry; a URL
// robots.txt disallows or the time limit left out is a warning.
//
// Probe writes to the entries: probe a Catalog from Parse or Discover, or
// one Fetch parsed with Rules or Robots, not one whose entries Fetch shares
// between callers.
func (f *Fetcher) Probe(ctx context.Context, c *Catalog, opts ProbeOptions) grammar.Diagnostics {
	if opts.Concurrency <= 0 {
		opts.Concurrency = 4
	}
	if opts.HostDelay == 0 {
		opts.HostDelay = time.Second
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 2 * time.Minute
	}
	agent := opts.Agent
	if agent == "" {
		agent = "*"
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	f.init()
	p := &prober{f: f, c: c, opts: opts, ctx: ctx, heads: f.memo.Fetcher, next: map[string]time.Time{}}
	sem := make(chan struct{}, opts.Concurrency)
	var wg sync.WaitGroup
	for _, j := range probeJobs(c) {
		if ctx.Err() != nil {
			p.report(grammar.Warning, "probe-skipped", j, fmt.Sprintf("%s not probed: the probe's time limit (%v) was reached", j.url, opts.Timeout))
			continue
		}
		if opts.Robots != nil && !opts.Robots.Allowed(ctx, agent, j.url) {
			p.report(grammar.Warning, "probe-disallowed", j, fmt.Sprintf("%s not probed: robots.txt disallows it for %s", j.url, agent))
			continue
		}
		sem <- struct{}{}
		wg.Add(1)
		go func(j *probeJob) {
			defer wg.Done()
			defer func() { <-sem }()
			p.probe(j)
		}(j)
	}
	wg.Wait()
	p.diags.Sort()
	return p.diags
}

// probeJob is one URL to probe and the entries that list it.
type probeJob struct {
	url     string
	entries []*Entry
}

// probeJobs returns the http(s) file URLs of c's entries, each once.
func probeJobs(c *Catalog) []*probeJob {
	var jobs []*probeJob
	byURL := map[string]*probeJob{}
	for _, e := range c.Entries {
		for i, u := range e.urlByPath() {
			if u == "" || pinsDirectory(e.Paths[i]) || !isHTTP(u) {
				continue
			}
			j := byURL[u]
			if j == nil {
				j = &probeJob{url: u}
				byURL[u] = j
				jobs = append(jobs, j)
			}
			j.entries = append(j.entries, e)
		}
	}
	return jobs
}

// prober is one Probe run: what its goroutines share.
type prober struct {
	f     *Fetcher
	c     *Catalog
	opts  ProbeOptions
	ctx   context.Context
	heads *fetch.Fetcher // the Fetcher's transport, asking each file's server (fetch.Fetcher.Headers)

	mu    sync.Mutex
	diags grammar.Diagnostics
	next  map[string]time.Time // host: earliest next request
}

// report gives each entry of j a diagnostic.
func (p *prober) report(sev grammar.Severity, code string, j *probeJob, msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range j.entries {
		name := e.fileName()
		if name == "" {
			name = p.c.Name
		}
		p.diags = append(p.diags, &grammar.Diagnostic{Severity: sev, Code: code, Filename: name,
			Range: grammar.Range{Start: e.Pos, End: e.Pos}, Summary: msg})
	}
}

// wait reserves the host's next slot and sleeps until it.
func (p *prober) wait(host string) error {
	p.mu.Lock()
	now := time.Now()
	at := p.next[host]
	if at.Before(now) {
		at = now
	}
	if p.opts.HostDelay > 0 {
		p.next[host] = at.Add(p.opts.HostDelay)
	}
	p.mu.Unlock()
	if d := time.Until(at); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-p.ctx.Done():
			return p.ctx.Err()
		}
	}
	return nil
}

// probe asks for one URL, in its host's turn, and records the answer.
func (p *prober) probe(j *probeJob) {
	u, _ := url.Parse(j.url)
	if err := p.wait(strings.ToLower(u.Host)); err != nil {
		p.report(grammar.Warning, "probe-skipped", j, fmt.Sprintf("%s not probed: the probe's time limit (%v) was reached", j.url, p.opts.Timeout))
		return
	}
	info, status, err := probeOne(p.ctx, p.heads, j.url)
	switch {
	case err != nil:
		p.report(grammar.Error, "broken-link", j, fmt.Sprintf("%s: %v", j.url, err))
	case status >= 400:
		p.report(grammar.Error, "broken-link", j, fmt.Sprintf("%s: HTTP %d %s", j.url, status, http.StatusText(status)))
	default:
		p.mu.Lock()
		for _, e := range j.entries {
			if e.Files == nil {
				e.Files = map[string]FileInfo{}
			}
			e.Files[j.url] = info
		}
		p.mu.Unlock()
	}
}

// probeOne asks for u's headers (fetch.Fetcher.Headers: HEAD, or a
// ranged GET when HEAD is refused) and reads the file's media type, size
// and modification time from them.
func probeOne(ctx context.Context, heads *fetch.Fetcher, u string) (FileInfo, int, error) {
	info := FileInfo{Size: -1}
	resp, err := heads.Headers(ctx, u)
	if err != nil {
		return info, 0, err
	}
	if resp.HTTPStatus >= 400 {
		return info, resp.HTTPStatus, nil
	}
	if mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type")); err == nil && strings.Contains(mt, "/") {
		info.MediaType = mt
	}
	if resp.HTTPStatus == http.StatusPartialContent {
		// Content-Range: bytes 0-0/1234
		if cr := resp.Header.Get("Content-Range"); strings.Contains(cr, "/") {
			if n, err := strconv.ParseInt(cr[strings.LastIndexByte(cr, '/')+1:], 10, 64); err == nil {
				info.Size = n
			}
		}
	} else if resp.ContentLength >= 0 {
		info.Size = resp.ContentLength
	}
	if t, err := http.ParseTime(resp.Header.Get("Last-Modified")); err == nil {
		info.LastModified = t.UTC()
	}
	return info, resp.HTTPStatus, nil
}
