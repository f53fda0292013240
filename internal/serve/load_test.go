package serve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	rtmetrics "runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// bigRobots builds a robots.txt of about n bytes: real-looking rules, a
// different file for each seed.
func bigRobots(n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for b.Len() < n {
		fmt.Fprintf(&b, "Disallow: /*?sort=%d&page=*\nAllow: /section-%d/*.html$\nDisallow: /tmp%d/\n", r.IntN(1e6), r.IntN(1e6), r.IntN(1e6))
	}
	return b.String()
}

// sampleMemory reads f of the runtime's memory statistics every 20 ms
// until the function it returns is called, which returns the largest
// value f gave.
func sampleMemory(f func(*runtime.MemStats) uint64) (peak func() uint64) {
	stop, done := make(chan struct{}), make(chan struct{})
	var most uint64
	go func() {
		defer close(done)
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			most = max(most, f(&ms))
		}
	}()
	return func() uint64 { close(stop); <-done; return most }
}

// TestLoadServeMemory (slow tier): serve under --max-memory 512MiB,
// sites of 500 KiB robots.txt files on 600 origins (all on one loopback
// listener), 16 clients asking for 40 origins each per request, with
// hostile requests mixed in (100 KB agents, clients that hang up, 300 KB
// host names). The Go heap in use stays under the budget at every sample.
func TestLoadServeMemory(t *testing.T) {
	slowtest.Only(t, "600 origins of 500 KiB under a 512 MiB budget")
	const budget = 512 << 20
	old := debug.SetMemoryLimit(budget) // as sitetxt serve --max-memory does
	defer debug.SetMemoryLimit(old)
	// Eight different files, each served by many origins: the site's own
	// memory stays small, and every origin is still its own fetch and
	// compile for serve.
	var bodies [8][]byte
	for i := range bodies {
		bodies[i] = []byte(bigRobots(500<<10, uint64(i)))
	}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(bodies[len(r.Host)%len(bodies)])
	}))
	defer site.Close()
	addr := site.Listener.Addr().String()
	tr := newTransport(true)
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	h := New(Config{AllowPrivate: true, Logger: quiet(), Transport: tr, MaxMemory: budget}).Handler()

	peakOf := sampleMemory(func(ms *runtime.MemStats) uint64 { return ms.HeapInuse + ms.StackInuse })
	live := []rtmetrics.Sample{{Name: "/gc/heap/live:bytes"}}
	peakLiveOf := sampleMemory(func(*runtime.MemStats) uint64 { rtmetrics.Read(live); return live[0].Value.Uint64() })
	deadline := time.Now().Add(40 * time.Second)
	var wg sync.WaitGroup
	var answered, hostile atomic.Int64
	for c := range 16 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(c), 2))
			for i := 0; i < 12 && time.Now().Before(deadline); i++ {
				switch i % 4 {
				case 1: // a 100 KB agent
					post(t, h, checkBody(strings.Repeat("x", 100<<10), "http://site-1.test/"), "")
					hostile.Add(1)
					continue
				case 2: // a client that hangs up after 200 ms
					urls := make([]string, 200)
					for j := range urls {
						urls[j] = fmt.Sprintf("http://gone-%d-%d-%d.test/x", c, i, j)
					}
					ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
					req := jsonRequestWithContext(ctx, "POST", "/v1/check", strings.NewReader(checkBody("Bot", urls...)))
					h.ServeHTTP(httptest.NewRecorder(), req)
					cancel()
					hostile.Add(1)
					continue
				case 3: // a 300 KB host name
					post(t, h, checkBody("Bot", "http://"+strings.Repeat("h", 300<<10)+".test/"), "")
					hostile.Add(1)
					continue
				}
				urls := make([]string, 40)
				for j := range urls {
					urls[j] = fmt.Sprintf("http://site-%d.test/section-%d/page.html", r.IntN(600), j)
				}
				if code, resp, _ := post(t, h, checkBody("ExampleBot", urls...), ""); code == 200 {
					answered.Add(int64(len(resp.Results)))
				}
			}
		})
	}
	wg.Wait()
	p, peakLive := peakOf(), peakLiveOf()
	t.Logf("16 clients: %d URLs answered, %d hostile requests; peak heap+stacks %.0f MiB (live heap after a GC at most %.0f MiB) of a %d MiB budget",
		answered.Load(), hostile.Load(), float64(p)/(1<<20), float64(peakLive)/(1<<20), budget>>20)
	if p > budget {
		t.Errorf("peak heap+stacks %d MiB, over the --max-memory budget of %d MiB", p>>20, budget>>20)
	}
	if answered.Load() == 0 {
		t.Errorf("no URL answered")
	}
}
