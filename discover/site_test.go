package discover

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/internal/sitetest"
	"github.com/sitetxt/sitetxt/pace"
)

// recordingPacer is a Pacer that answers at once and records the pace
// each request was reserved at, so that a test checks the spacing asked
// for without waiting for it.
type recordingPacer struct {
	mu    sync.Mutex
	paces []pace.Pace
	sites []string
}

func (p *recordingPacer) Acquire(_ context.Context, site string, pc pace.Pace) (time.Duration, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paces, p.sites = append(p.paces, pc), append(p.sites, site)
	return 0, nil
}

func (p *recordingPacer) Report(context.Context, string, int, string) (pace.Pause, error) {
	return pace.Pause{}, nil
}

// discoverSite runs Site over a test site with every kind.
func discoverSite(t *testing.T, s *sitetest.Site, opts Options) *Result {
	t.Helper()
	if opts.Fetcher == nil {
		opts.Fetcher = &fetch.Fetcher{UserAgent: "TestBot/1.0"}
	}
	res, err := Site(context.Background(), s.URL+"/", opts)
	if err != nil {
		t.Fatalf("Site(%s): %v", s.URL, err)
	}
	return res
}
