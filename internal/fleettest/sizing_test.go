package fleettest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/internal/serve"
	"github.com/sitetxt/sitetxt/internal/shareddata"
	"github.com/sitetxt/sitetxt/pace"
	"github.com/sitetxt/sitetxt/pace/redispace"
)

// corpusSites answers the robots.txt of host siteN.example with the Nth
// file of the real corpus (../shared/corpus/robots, by name, in turn),
// and every other request with an empty page, at once and without a
// socket: the sites are synthetic, their robots.txt files real.
type corpusSites struct{ bodies [][]byte }

func loadCorpusSites(b testing.TB) corpusSites {
	dir := shareddata.Require(b, "corpus", "robots")
	names, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(names) == 0 {
		b.Fatalf("corpus robots: %v", err)
	}
	slices.Sort(names)
	var c corpusSites
	for _, n := range names {
		body, err := os.ReadFile(n)
		if err != nil {
			b.Fatal(err)
		}
		c.bodies = append(c.bodies, body)
	}
	return c
}

func (c corpusSites) RoundTrip(r *http.Request) (*http.Response, error) {
	body := []byte{}
	if r.URL.Path == "/robots.txt" {
		n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(r.URL.Hostname(), "site"), ".example"))
		body = c.bodies[n%len(c.bodies)]
	}
	return &http.Response{StatusCode: 200, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Request: r,
		Header:        http.Header{"Content-Type": {"text/plain"}, "Cache-Control": {"max-age=86400"}},
		Body:          io.NopCloser(strings.NewReader(string(body))),
		ContentLength: int64(len(body))}, nil
}

func corpusURL(i int) string { return "http://site" + strconv.Itoa(i) + ".example/page" }

// redisSide is the Redis a sizing run measures: one node, or a cluster's
// primaries.
type redisSide struct {
	name  string
	flags rediscache.Servers
	nodes func() []string // the addresses holding data now
}

func redisSides(b testing.TB) []redisSide {
	one := redistest.Start(b)
	cl := redistest.StartCluster(b)
	primaries := func() []string {
		p, err := cl.Primaries()
		if err != nil {
			b.Fatal(err)
		}
		var out []string
		for _, s := range p {
			out = append(out, s.Addr)
		}
		return out
	}
	return []redisSide{
		{"one-node", rediscache.Servers{URL: one.URL()}, func() []string { return []string{one.Addr} }},
		{"cluster-3-shards", rediscache.Servers{Cluster: cl.Addrs()[:3]}, primaries},
	}
}

// dataMemory is the memory of the data over nodes: INFO used_memory less
// the replication backlog (filled as writes flow to replicas, up to 1 MiB
// a primary) and the clients' buffers, which do not grow with the sites.
func dataMemory(b testing.TB, nodes []string) float64 {
	return info(b, nodes, "memory", "used_memory") - info(b, nodes, "memory", "mem_replication_backlog") -
		info(b, nodes, "memory", "mem_clients_normal") - info(b, nodes, "memory", "mem_clients_slaves")
}

// info sums a field of INFO section over nodes ("used_memory").
func info(b testing.TB, nodes []string, section, field string) float64 {
	var sum float64
	for _, addr := range nodes {
		r, err := redistest.Command(addr, "INFO", section)
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range strings.Split(r, "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(l), field+":"); ok {
				f, _ := strconv.ParseFloat(v, 64)
				sum += f
			}
		}
	}
	return sum
}

// commandStats returns the calls and microseconds of each command over
// nodes (INFO commandstats).
func commandStats(b testing.TB, nodes []string) map[string][2]float64 {
	out := map[string][2]float64{}
	for _, addr := range nodes {
		r, err := redistest.Command(addr, "INFO", "commandstats")
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range strings.Split(r, "\n") {
			name, rest, ok := strings.Cut(strings.TrimPrefix(strings.TrimSpace(l), "cmdstat_"), ":")
			if !ok || !strings.HasPrefix(l, "cmdstat_") {
				continue
			}
			var calls, usec float64
			for _, kv := range strings.Split(rest, ",") {
				k, v, _ := strings.Cut(kv, "=")
				f, _ := strconv.ParseFloat(v, 64)
				switch k {
				case "calls":
					calls = f
				case "usec":
					usec = f
				}
			}
			c := out[name]
			out[name] = [2]float64{c[0] + calls, c[1] + usec}
		}
	}
	return out
}

// perOp says the commands sent per operation, of counts for n
// operations, leaving out the client's own upkeep (the cluster's map,
// the connections' setup).
func perOp(counts map[string]int, n int) (string, float64) {
	var parts []string
	var total float64
	for name, c := range counts {
		switch name {
		case "cluster", "hello", "client", "auth", "select", "readonly", "command":
			continue
		}
		if d := float64(c) / float64(n); d >= 0.005 {
			parts = append(parts, fmt.Sprintf("%s %.2f", strings.ToUpper(name), d))
			total += d
		}
	}
	slices.Sort(parts)
	return strings.Join(parts, ", "), total
}

// usecPerCall is the Redis time one call of name took, on average,
// between two commandStats.
func usecPerCall(before, after map[string][2]float64, name string) float64 {
	calls := after[name][0] - before[name][0]
	if calls == 0 {
		return 0
	}
	return (after[name][1] - before[name][1]) / calls
}

// sizingProc is one serve process of a sizing run, in process: its
// Cache, and its handler with the Redis pacer; sent counts the commands
// its client sent, by name.
type sizingProc struct {
	rc    *rediscache.Cache
	h     http.Handler
	sent  *sentCommands
	asked atomic.Int64
}

func newSizingProc(b testing.TB, s redisSide, sites corpusSites) *sizingProc {
	rdb, err := rediscache.NewClient(s.flags, rediscache.Options{Timeout: 5 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	sent := &sentCommands{n: map[string]int{}}
	if c, ok := rdb.(*redis.ClusterClient); ok {
		c.OnNewNode(func(node *redis.Client) { node.AddHook(sent) })
	} else {
		rdb.AddHook(sent)
	}
	rc := rediscache.New(rdb, rediscache.Options{Timeout: 5 * time.Second, Logger: slog.New(slog.DiscardHandler)})
	b.Cleanup(func() { rc.Close() })
	h := serve.New(serve.Config{Transport: sites, Logger: slog.New(slog.DiscardHandler), Cache: rc, Redis: rc,
		Pacer: redispace.Via(rc, pace.Options{Horizon: -1}), MaxMemory: 4 << 30}).Handler()
	return &sizingProc{rc: rc, h: h, sent: sent}
}

// sentCommands is a hook counting the commands a client sends, by name
// (a script's own calls are Redis's, not sent).
type sentCommands struct {
	mu sync.Mutex
	n  map[string]int
}

func (s *sentCommands) DialHook(next redis.DialHook) redis.DialHook { return next }

func (s *sentCommands) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		s.count(cmd)
		return next(ctx, cmd)
	}
}

func (s *sentCommands) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, c := range cmds {
			s.count(c)
		}
		return next(ctx, cmds)
	}
}

func (s *sentCommands) count(cmd redis.Cmder) {
	s.mu.Lock()
	s.n[cmd.Name()]++
	s.mu.Unlock()
}

// take returns the counts since the last take.
func (s *sentCommands) take() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.n
	s.n = map[string]int{}
	return out
}

// ask sends POST path for site i and fails on anything but a 200. Each
// request comes from an address of its own, so that no caller's bound on
// slots still to come (serve's callers.go) refuses one: the fleet's
// crawlers are many.
func (p *sizingProc) ask(b testing.TB, path string, i int) {
	body := `{"agent":"ExampleBot","url":"` + corpusURL(i) + `"}`
	if path == "/v1/check" {
		body = `{"agent":"ExampleBot","urls":["` + corpusURL(i) + `"]}`
	}
	r := httptest.NewRequest("POST", path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	n := p.asked.Add(1)
	r.RemoteAddr = fmt.Sprintf("10.%d.%d.%d:1234", n>>16&255, n>>8&255, n&255)
	w := httptest.NewRecorder()
	p.h.ServeHTTP(w, r)
	if w.Code != 200 {
		b.Fatalf("POST %s %s = %d %s", path, corpusURL(i), w.Code, w.Body)
	}
}

// BenchmarkRedisSizing measures what docs/fleet.md's sizing table says,
// on one redis-server and on a Redis Cluster of three primaries (and
// their replicas) on loopback, in one run: n sites whose robots.txt files
// are the real corpus's (synthetic sites, corpusSites), decided and paced
// through serve's handler in process, with two processes' Caches.
//
//   - Redis's memory per site: of the cache (INFO used_memory less the
//     replication backlog and the clients' buffers, summed over the
//     primaries, after each site was decided once) and of the pace state
//     (after one acquisition at each of as many other sites);
//
//   - Redis commands per decision (a site new to the fleet; a site another
//     process fetched; a site the process holds) and per acquisition (the
//     commands the clients sent, counted by a hook);
//
//   - acquisitions a second: of the Redis pacer alone and of serve's POST
//     /v1/acquire, from 16 goroutines per core, on one node and on the
//     cluster, and Redis's own time per acquisition (commandstats usec of
//     EVALSHA). No horizon: a site whose robots.txt asks for a long delay
//     gets a slot far ahead rather than a 429.
//
//     go test -run '^$' -bench RedisSizing -benchtime 100000x ./internal/fleettest
func BenchmarkRedisSizing(b *testing.B) {
	sites := loadCorpusSites(b)
	// 2,000 sites, files taken evenly over the corpus: a process keeps
	// every one compiled (at 16 heap bytes a robots.txt byte), so that a
	// decision it holds asks Redis nothing.
	n := min(len(sites.bodies), 2000)
	spread := make([][]byte, n)
	for i := range spread {
		spread[i] = sites.bodies[i*len(sites.bodies)/n]
	}
	sites.bodies = spread
	rates := map[string]float64{}
	for _, side := range redisSides(b) {
		var sized bool
		b.Run("sizes/"+side.name, func(b *testing.B) {
			if !sized {
				sizeSide(b, side, sites, n)
				sized = true
			}
		})
		for _, what := range []string{"pacer", "serve"} {
			p := newSizingProc(b, side, sites) // made once, for every round of b.N
			for i := range n {                 // every site decided before timing
				p.ask(b, "/v1/check", i)
			}
			b.Run(fmt.Sprintf("acquire/%s/%s", what, side.name), func(b *testing.B) {
				pacer := redispace.Via(p.rc, pace.Options{Horizon: -1})
				every := pace.Pace{Interval: time.Second, Slack: pace.DefaultSlack}
				siteOf := make([]string, n)
				for i := range siteOf {
					site, _ := pace.Site(corpusURL(i))
					siteOf[i] = pace.Queue(site, "ExampleBot")
				}
				before := commandStats(b, side.nodes())
				b.SetParallelism(16)
				b.ReportAllocs()
				var next atomic.Int64
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						i := int(next.Add(1)-1) % n
						if what == "serve" {
							p.ask(b, "/v1/acquire", i)
						} else if _, err := pacer.Acquire(context.Background(), siteOf[i], every); err != nil {
							b.Error(err)
						}
					}
				})
				rate := float64(b.N) / b.Elapsed().Seconds()
				b.StopTimer()
				rates[b.Name()] = rate
				b.ReportMetric(rate, "acquisitions/s")
				b.ReportMetric(usecPerCall(before, commandStats(b, side.nodes()), "evalsha"), "redis-µs/acquisition")
				if s := p.rc.Stats(); s.Fallbacks != 0 {
					b.Fatalf("%d operations answered without Redis (%+v); the figures would not be Redis's", s.Fallbacks, p.rc.Shards())
				}
			})
		}
	}
	b.Run("ratio/three-shards-to-one-node", func(b *testing.B) {
		for _, what := range []string{"pacer", "serve"} {
			one, three := rates["BenchmarkRedisSizing/acquire/"+what+"/one-node"], rates["BenchmarkRedisSizing/acquire/"+what+"/cluster-3-shards"]
			if one > 0 {
				b.ReportMetric(three/one, what+"-x")
			}
		}
	})
}

// sizeSide measures the memory per site and the commands per operation
// of one Redis side, and reports them.
func sizeSide(b *testing.B, side redisSide, sites corpusSites, n int) {
	for _, addr := range side.nodes() {
		if _, err := redistest.Command(addr, "FLUSHALL"); err != nil {
			b.Fatal(err)
		}
	}
	p1, p2 := newSizingProc(b, side, sites), newSizingProc(b, side, sites)
	mem0 := dataMemory(b, side.nodes())
	p1.sent.take()
	for i := range n {
		p1.ask(b, "/v1/check", i)
	}
	mem1, newSite := dataMemory(b, side.nodes()), p1.sent.take()
	for i := range n {
		p2.ask(b, "/v1/check", i)
	}
	fetched := p2.sent.take()
	for i := range n {
		p1.ask(b, "/v1/check", i)
	}
	held := p1.sent.take()
	for i := range n {
		p1.ask(b, "/v1/acquire", i)
	}
	acquired := p1.sent.take()
	// The pace state of n other sites, at an interval long enough that
	// none expires meanwhile.
	pacer, hour := redispace.Via(p1.rc, pace.Options{}), pace.Pace{Interval: time.Hour}
	mem3 := dataMemory(b, side.nodes())
	for i := range n {
		if _, err := pacer.Acquire(context.Background(), pace.Queue("http://pace"+strconv.Itoa(i)+".example", "ExampleBot"), hour); err != nil {
			b.Fatal(err)
		}
	}
	mem4 := dataMemory(b, side.nodes())
	if s := p1.rc.Stats(); s.Fallbacks != 0 {
		b.Fatalf("%d operations answered without Redis (%+v); the figures would not be Redis's", s.Fallbacks, p1.rc.Shards())
	}
	var bodies float64
	for _, body := range sites.bodies {
		bodies += float64(len(body))
	}
	newWords, total := perOp(newSite, n)
	fetchedWords, total2 := perOp(fetched, n)
	heldWords, total3 := perOp(held, n)
	acqWords, total4 := perOp(acquired, n)
	b.Logf("%s, %d sites (robots.txt of the corpus, %.0f bytes on average):\n"+
		"  cache: %.0f bytes of Redis memory a site (INFO used_memory, less backlog and clients)\n"+
		"  pace state: %.0f bytes a site, after one acquisition at each of as many other sites\n"+
		"  commands per decision, a site new to the fleet: %.2f (%s)\n"+
		"  commands per decision, a site another process fetched: %.2f (%s)\n"+
		"  commands per decision, a site the process holds: %.2f (%s)\n"+
		"  commands per acquisition, the site's decision held: %.2f (%s)",
		side.name, n, bodies/float64(n), (mem1-mem0)/float64(n), (mem4-mem3)/float64(n),
		total, newWords, total2, fetchedWords, total3, heldWords, total4, acqWords)
	b.ReportMetric((mem1-mem0)/float64(n), "cache-bytes/site")
	b.ReportMetric((mem4-mem3)/float64(n), "pace-bytes/site")
	b.ReportMetric(total, "commands/new-site")
	b.ReportMetric(total4, "commands/acquisition")
}
