package sitetxtcolly

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocolly/colly/v2"
	"github.com/sitetxt/sitetxt/internal/crawltest"
	"github.com/sitetxt/sitetxt/internal/servetest"
	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// recording is a pacer that records its calls in a crawltest.Log, as the
// proxy in front of serve does: the test of the in-process pacer.
type recording struct {
	pacer
	log *crawltest.Log
}

func (r recording) acquire(ctx context.Context, url string) (grant, error) {
	e := crawltest.Event{Who: "colly", Kind: "acquire", URL: url, Sent: time.Now()}
	g, err := r.pacer.acquire(ctx, url)
	// The wait in whole milliseconds, rounded up as serve's wait_ms is.
	e.Answered, e.Code, e.Allowed, e.WaitMS = time.Now(), 200, g.allowed, (g.wait + time.Millisecond - 1).Milliseconds()
	if err == nil {
		r.log.Add(e)
	}
	return g, err
}

func (r recording) report(ctx context.Context, url string, g grant, status int, retryAfter string) error {
	e := crawltest.Event{Who: "colly", Kind: "report", URL: url, Sent: time.Now(), Status: status, Code: 200}
	l, ok := r.pacer.(*local)
	if !ok {
		panic("recording wraps the in-process pacer")
	}
	p, err := l.pacer.Report(ctx, g.site, status, retryAfter)
	e.Answered, e.PauseMS = time.Now(), p.Wait.Milliseconds()
	if err == nil {
		r.log.Add(e)
	}
	return err
}

// crawl runs a colly crawler, attached with opts, over shard 1 of site:
// asynchronous, four requests at a time, following every link, retrying
// a 429. wrap, when set, replaces the pacer Attach made. It returns how
// many requests were disallowed.
func crawl(t *testing.T, site *crawltest.Site, opts Options, wrap func(pacer) pacer) int64 {
	c := colly.NewCollector(colly.UserAgent("SitetxtTestBot/1.0 (+http://127.0.0.1/bot)"), colly.Async(true))
	if err := c.Limit(&colly.LimitRule{DomainGlob: "*", Parallelism: 4}); err != nil {
		t.Fatal(err)
	}
	tr, err := attach(c, opts)
	if err != nil {
		t.Fatal(err)
	}
	if wrap != nil {
		tr.pacer = wrap(tr.pacer)
	}
	var disallowed atomic.Int64
	c.OnHTML("a[href]", func(e *colly.HTMLElement) { e.Request.Visit(e.Attr("href")) })
	c.OnError(func(r *colly.Response, err error) {
		var d *DisallowedError
		switch {
		case errors.As(err, &d):
			disallowed.Add(1)
		case r.StatusCode == 429:
			r.Request.Retry()
		default:
			t.Errorf("%s: %v", r.Request.URL, err)
		}
	})
	if err := c.Visit(site.Shard(1)); err != nil {
		t.Fatal(err)
	}
	c.Wait()
	return disallowed.Load()
}

// checkCrawl holds a crawl of one shard to crawltest's promises, and
// logs its figures.
func checkCrawl(t *testing.T, mode string, site *crawltest.Site, log *crawltest.Log, disallowed int64, elapsed time.Duration) {
	f := crawltest.Check(t, site, log, []string{"colly"}, crawltest.ShardPages+1)
	t.Logf("colly %s, in %.1f s: %v; %d requests disallowed", mode, elapsed.Seconds(), f, disallowed)
	if disallowed < 2 {
		t.Errorf("%d requests disallowed; want the private links (at least 2)", disallowed)
	}
}

// TestCrawlInProcess: a colly crawler deciding and pacing in its own
// process (robots.Client, pace.Memory) crawls the crawltest site: no
// private URL, page requests at least the Crawl-delay apart, the 429
// reported at once and no slot granted within its pause.
func TestCrawlInProcess(t *testing.T) {
	slowtest.Only(t, "a colly crawl paced at one request a second, about 9 s")
	site := crawltest.NewSite(t)
	log := &crawltest.Log{}
	start := time.Now()
	n := crawl(t, site, Options{}, func(p pacer) pacer { return recording{p, log} })
	checkCrawl(t, "in process", site, log, n, time.Since(start))
}

// TestCrawlThroughServe: the same crawl through a real "sitetxt serve"
// (POST /v1/acquire and /v1/report, recorded by a proxy in front of it).
func TestCrawlThroughServe(t *testing.T) {
	slowtest.Only(t, "a colly crawl through sitetxt serve paced at one request a second, about 9 s")
	bin := servetest.Build(t)
	srv, err := servetest.Start(t, bin, "serve", "--listen", "127.0.0.1:0", "--allow-private", "--log-level", "info")
	if err != nil {
		t.Fatal(err)
	}
	site := crawltest.NewSite(t)
	log := &crawltest.Log{}
	start := time.Now()
	n := crawl(t, site, Options{ServeURL: crawltest.Proxy(t, log, "colly", srv.Addr)}, nil)
	checkCrawl(t, "through serve", site, log, n, time.Since(start))
	if t.Failed() {
		t.Logf("serve's log:\n%s", srv.Log())
	}
}
