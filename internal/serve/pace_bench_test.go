package serve

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/pace"
	"github.com/sitetxt/sitetxt/pace/redispace"
)

// syntheticSites answers every robots.txt request at once with one small
// file asking for Crawl-delay 1, whatever the host: sites site0.example
// to siteN.example without a socket each (synthetic: the benchmark
// measures pacing and deciding, not the network).
type syntheticSites struct{}

func (syntheticSites) RoundTrip(r *http.Request) (*http.Response, error) {
	body := "User-agent: *\nDisallow: /private/\nCrawl-delay: 1\n"
	return &http.Response{StatusCode: 200, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Request: r,
		Header:        http.Header{"Content-Type": {"text/plain"}, "Cache-Control": {"max-age=86400"}},
		Body:          io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body))}, nil
}

func syntheticURL(i int) string { return "http://site" + strconv.Itoa(i) + ".example/page" }

// BenchmarkPace measures acquisitions per second for 1, 100 and 100,000
// sites: of a Pacer alone (pace.Memory in process, rediscache's through
// a real Redis), and through serve (POST /v1/acquire, each one a robots.txt
// decision and a slot, with either pacer) beside plain POST /v1/check
// decisions of one URL, in the same run; and Redis's memory per paced
// site. Requests go to the service's handler in process, from as many
// goroutines as GOMAXPROCS (RunParallel), so the figures compare the
// work, not the network. Sites are synthetic (syntheticSites).
//
//	go test -run '^$' -bench Pace -benchtime 200000x ./internal/serve
func BenchmarkPace(b *testing.B) {
	var rdsURL, rdsAddr string
	if redistest.Path() != "" {
		rds := redistest.Start(b)
		rdsURL, rdsAddr = rds.URL(), rds.Addr
	}
	openRedis := func(b *testing.B) *rediscache.Cache {
		if rdsURL == "" {
			b.Skip("redis-server is not installed (Debian package redis-server): no Redis figures")
		}
		rc, err := rediscache.Open(rdsURL, rediscache.Options{Timeout: 5 * time.Second, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { rc.Close() })
		return rc
	}
	rates := map[string]float64{}
	for _, n := range []int{1, 100, 100000} {
		sites := make([]string, n)
		for i := range sites {
			sites[i], _ = pace.Site(syntheticURL(i))
		}
		every := pace.Pace{Interval: time.Second, Slack: pace.DefaultSlack}
		pacer := func(name string, p func(b *testing.B) pace.Pacer) {
			b.Run(fmt.Sprintf("%s/sites=%d", name, n), func(b *testing.B) {
				pc := p(b)
				rates[b.Name()] = parallel(b, func(i int) {
					if _, err := pc.Acquire(context.Background(), sites[i%n], every); err != nil {
						b.Error(err)
					}
				})
			})
		}
		pacer("pacer-memory", func(*testing.B) pace.Pacer { return pace.NewMemory(pace.Options{}) })
		pacer("pacer-redis", func(b *testing.B) pace.Pacer { return redispace.Via(openRedis(b), pace.Options{}) })
		service := func(name, path string, redisPacer bool) {
			var h http.Handler // made and warmed once, for every round of b.N
			bodies := make([]string, n)
			for i := range bodies {
				if path == "/v1/check" {
					bodies[i] = `{"agent":"ExampleBot","urls":["` + syntheticURL(i) + `"]}`
				} else {
					bodies[i] = `{"agent":"ExampleBot","url":"` + syntheticURL(i) + `"}`
				}
			}
			b.Run(fmt.Sprintf("%s/sites=%d", name, n), func(b *testing.B) {
				ask := func(i int) {
					r := httptest.NewRequest("POST", path, strings.NewReader(bodies[i%n]))
					r.Header.Set("Content-Type", "application/json")
					w := httptest.NewRecorder()
					h.ServeHTTP(w, r)
					if w.Code != 200 || !strings.Contains(w.Body.String(), `"allowed":true`) {
						b.Fatalf("POST %s = %d %s", path, w.Code, w.Body)
					}
				}
				if h == nil {
					cfg := Config{Transport: syntheticSites{}, Logger: quiet()}
					if redisPacer {
						cfg.Pacer = redispace.Via(openRedis(b), pace.Options{})
					}
					h = New(cfg).Handler()
					for i := range n { // every site's robots.txt fetched and compiled before timing
						ask(i)
					}
				}
				rates[b.Name()] = parallel(b, ask)
			})
		}
		service("serve-check", "/v1/check", false)
		service("serve-acquire-memory", "/v1/acquire", false)
		service("serve-acquire-redis", "/v1/acquire", true)
	}
	if rdsAddr != "" {
		var perSite, perKey float64 // measured once, for every round of b.N
		b.Run("redis-memory/sites=100000", func(b *testing.B) {
			if perSite == 0 {
				perSite, perKey = redisBytesPerSite(b, openRedis(b), rdsAddr, 100000)
			}
			b.ReportMetric(perSite, "used-bytes/site")
			b.ReportMetric(perKey, "key-bytes/site")
		})
	}
	check, acquire := rates["BenchmarkPace/serve-check/sites=100000"], rates["BenchmarkPace/serve-acquire-redis/sites=100000"]
	if check > 0 && acquire > 0 {
		b.Logf("100,000 sites: POST /v1/acquire through Redis %.0f/s, POST /v1/check %.0f/s: %.2f of a plain decision's throughput", acquire, check, acquire/check)
	}
}

// parallel runs f b.N times over GOMAXPROCS goroutines, each call with
// its own index, and reports and returns the calls per second.
func parallel(b *testing.B, f func(i int)) float64 {
	b.ReportAllocs()
	var next atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			f(int(next.Add(1) - 1))
		}
	})
	rate := float64(b.N) / b.Elapsed().Seconds()
	b.ReportMetric(rate, "acquisitions/s")
	return rate
}

// redisBytesPerSite paces n new sites once each, with an interval long
// enough that none expires meanwhile, and returns Redis's memory growth
// per site (INFO used_memory: keys, values, expiries, the key space's
// tables) and the memory of one site's key (MEMORY USAGE).
func redisBytesPerSite(b *testing.B, rc *rediscache.Cache, addr string, n int) (perSite, perKey float64) {
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	defer rdb.Close()
	ctx := context.Background()
	if err := rdb.FlushAll(ctx).Err(); err != nil {
		b.Fatal(err)
	}
	used := func() float64 {
		info, err := rdb.Info(ctx, "memory").Result()
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range strings.Split(info, "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(l), "used_memory:"); ok {
				f, _ := strconv.ParseFloat(v, 64)
				return f
			}
		}
		b.Fatal("INFO memory has no used_memory")
		return 0
	}
	before := used()
	p := redispace.Via(rc, pace.Options{})
	hour := pace.Pace{Interval: time.Hour}
	for i := range n {
		site, _ := pace.Site(syntheticURL(i))
		if _, err := p.Acquire(ctx, site, hour); err != nil {
			b.Fatal(err)
		}
	}
	perSite = (used() - before) / float64(n)
	site, _ := pace.Site(syntheticURL(0))
	key, err := rdb.MemoryUsage(ctx, rediscache.DefaultPrefix+"pace:"+site, 0).Result()
	if err != nil {
		b.Fatal(err)
	}
	return perSite, float64(key)
}
