package serve

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/fetch"
)

// metrics are what /metrics exposes, in Prometheus text format.
type metrics struct {
	reg       *prometheus.Registry
	requests  *prometheus.CounterVec   // by path and status code
	latency   *prometheus.HistogramVec // by path
	decisions *prometheus.CounterVec   // by verdict
	answers   *prometheus.CounterVec   // by where robots.txt came from: cache or fetch
	fetches   *prometheus.CounterVec   // robots.txt requests by outcome
	fetchTime prometheus.Histogram
	pace      paceMetrics
}

// connStats gives the client connections Serve holds and how many it
// closed for newer ones (zero before Serve runs).
type connStats func() (open int, evicted int64)

func newMetrics(rc *rediscache.Cache, flights *fetch.Limit, conns connStats) *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sitetxt_http_requests_total", Help: "HTTP requests served, by path and status code.",
	}, []string{"path", "code"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "sitetxt_http_request_duration_seconds", Help: "Time to answer an HTTP request, by path.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
	}, []string{"path"})
	m.decisions = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sitetxt_decisions_total", Help: "URLs decided, by verdict (allowed, disallowed, error for a URL that is not http or https).",
	}, []string{"verdict"})
	m.answers = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sitetxt_cache_lookups_total", Help: "robots.txt lookups behind decisions: hit (answered from a cache) or miss (fetched, revalidated, or waited for another process's fetch).",
	}, []string{"result"})
	m.fetches = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sitetxt_fetches_total", Help: "robots.txt HTTP requests this process made, by outcome (2xx, 304, 3xx, 4xx, 5xx, timeout, refused, error).",
	}, []string{"outcome"})
	m.fetchTime = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "sitetxt_fetch_duration_seconds", Help: "Time of robots.txt HTTP requests (to the response headers).",
		Buckets: prometheus.ExponentialBuckets(.001, 4, 9),
	})
	inFlight := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "sitetxt_fetches_in_flight", Help: "robots.txt fetches (and compiles) in flight, of at most sitetxt_fetches_in_flight_max.",
	}, func() float64 { return float64(flights.InUse()) })
	inFlightMax := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "sitetxt_fetches_in_flight_max", Help: "The most robots.txt fetches in flight at once (from --max-memory).",
	}, func() float64 { return float64(flights.Cap()) })
	connsOpen := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "sitetxt_client_connections", Help: "Client connections held, of at most --max-conns.",
	}, func() float64 { n, _ := conns(); return float64(n) })
	connsEvicted := prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "sitetxt_client_connections_evicted_total", Help: "Idle or silent client connections closed for newer ones (--max-conns, --max-idle-conns).",
	}, func() float64 { _, n := conns(); return float64(n) })
	m.reg.MustRegister(m.requests, m.latency, m.decisions, m.answers, m.fetches, m.fetchTime, inFlight, inFlightMax, connsOpen, connsEvicted,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if rc != nil {
		stat := func(f func(rediscache.Stats) uint64) func() float64 {
			return func() float64 { return float64(f(rc.Stats())) }
		}
		counter := func(name, help string, f func(rediscache.Stats) uint64) prometheus.Collector {
			return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, stat(f))
		}
		redisUp := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "sitetxt_redis_up", Help: "1 when the last command to each Redis server succeeded, 0 while some answers come from the local cache and direct fetches.",
		}, func() float64 {
			if rc.Up() {
				return 1
			}
			return 0
		})
		m.reg.MustRegister(redisUp, newShardMetrics(rc),
			counter("sitetxt_redis_hits_total", "Redis GETs that found a value.", func(s rediscache.Stats) uint64 { return s.Hits }),
			counter("sitetxt_redis_misses_total", "Redis GETs that found none.", func(s rediscache.Stats) uint64 { return s.Misses }),
			counter("sitetxt_redis_errors_total", "Redis commands that failed (timeout, refused, ...).", func(s rediscache.Stats) uint64 { return s.Errors }),
			counter("sitetxt_redis_fallbacks_total", "Cache operations answered locally because Redis failed or was backed off.", func(s rediscache.Stats) uint64 { return s.Fallbacks }),
			counter("sitetxt_lease_acquired_total", "Fetch leases this process took (fetches it made for the fleet).", func(s rediscache.Stats) uint64 { return s.Leases }),
			counter("sitetxt_lease_waits_total", "Waits for another process's fetch lease.", func(s rediscache.Stats) uint64 { return s.LeaseWaits }),
		)
	}
	return m
}
