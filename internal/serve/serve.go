// Package serve is the HTTP decision service behind "sitetxt serve": a
// crawler written in any language posts a batch of URLs and an agent, and
// gets, for each URL in order, whether robots.txt lets the agent fetch it,
// which rule decided, and the Crawl-delay and Request-rate of the agent's
// group, so its frontier can schedule.
//
// Each site's robots.txt is fetched by a robots.Client (one per profile),
// cached in memory or, with a Redis, in a cache the whole fleet shares
// (package rediscache), so that a site sees one robots.txt request per
// expiry from all the processes. The service is meant to sit inside a
// network where others can reach it: it refuses to fetch from loopback,
// private and link-local addresses (checked when connecting, after name
// resolution and on every redirect) unless AllowPrivate is set; it bounds
// request bodies, URLs per request, and the time of every connection; it
// can require a bearer token; it logs one line per request with log/slog
// and exposes Prometheus metrics.
//
// Endpoints:
//
//	POST /v1/check  {"agent": "ExampleBot", "urls": ["https://example.org/a", ...], "profile": "rfc9309"}
//	                -> {"results": [decision, ...]}
//	GET  /healthz   -> {"status": "ok", "redis": "up"|"down"|"none"}
//	GET  /metrics   -> Prometheus text format
//	POST /v1/sitemaps {"site": URL, "agent": ...} -> JSON Lines: a header, the URLs, a summary (sitemaps.go)
//	POST /v1/acquire  {"url": URL, "agent": "ExampleBot"} -> the decision, and when allowed
//	                  "wait_ms" (0: fetch now) for the slot reserved for the caller and its
//	                  "ticket" (pace.go, callers.go, ticket.go); 429 past the horizon
//	POST /v1/report   {"url": URL, "agent", "status": 429, "retry_after": "120", "ticket"}
//	                  -> {"site", "pause_ms", "cause"}: the pause in force
//
// and the manifest tester (docs/tester.md): GET / is its page (page.go,
// embedded with its script and style sheet), and its API answers with the
// objects the command line prints:
//
//	POST /v1/test     {"robots": TEXT | "site": URL, "agent", "urls", "profiles"} -> per URL, a Result per profile, diagnostics
//	POST /v1/datasets {"datatxt": TEXT | "site": URL, "base"} -> the entries of datasets -o json
//	POST /v1/agents   {"robots": TEXT | "site": URL, "urls"}  -> the answers of agents -o json
//	GET  /v1/crawlers, GET /openapi.json (OpenAPI 3.1, every route)
//
// Every request passes one gate (gate.go) before an endpoint runs: the
// Host, Origin and Sec-Fetch-Site checks that keep other sites' pages
// out, the bearer token, a JSON content type, the memory budget charged
// as the body arrives, the limits on the body, "agent" and "urls", the
// process-wide fetch cap, the guarded transport and the request's time
// (Config.RequestTimeout) in the endpoint's context, and errors in public
// words. A new endpoint is registered through it in New (or routePage),
// never on the mux:
//
//	jsonRoute(s, "POST /v1/example", Limits{Work: windowCost}, s.runExample, nil) // answer written whole as JSON
//	streamRoute(s, "POST /v1/example", Limits{}, s.example)                       // answer written as it goes
//	s.getRoute("GET /v1/example", http.HandlerFunc(s.example), open)
//
// where runExample is func(context.Context, *exampleRequest)
// (*exampleResponse, *apiError): the gate has decoded exampleRequest (an
// "agent" field of it is bounded by Config.MaxAgent, a "urls" field by
// Config.MaxURLs or Limits.MaxURLs), and ctx carries the fetch cap and
// ends Config.RequestTimeout after the request was read; fetch only with
// the Server's clients (s.clients, s.siteFetch, s.sitemapFetch), and tell
// a failed fetch with publicFetchError.
// TestEveryRouteGated sends every registered route, and every path
// /openapi.json describes, the requests the gate refuses.
//
// A decision is the object "sitetxt check -o json" prints (docs/cli.md),
// plus "crawl_delay" (seconds) and "request_rate" ({"requests", "seconds"})
// when the agent's group has them, and "error" for a URL that could not be
// decided at all.
package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/sitetxt/sitetxt/cache"
	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/pace"
	"github.com/sitetxt/sitetxt/robots"
	"github.com/sitetxt/sitetxt/sitemap"
)

// Defaults of Config.
const (
	DefaultMaxBody      = 1 << 20 // bytes of a request body
	DefaultMaxURLs      = 10000   // URLs in one request
	DefaultFetchTimeout = 10 * time.Second
	DefaultParallel     = 32 // sites fetched at once for one request
	// DefaultRequestTimeout bounds the work for one request: URLs not
	// decided by then are answered as their robots.txt being unreachable
	// (RFC 9309: disallowed), with the reason in fetch.error.
	DefaultRequestTimeout = 60 * time.Second
	// DefaultMaxAgent bounds the "agent" of a request in bytes: a product
	// token is a word, a User-Agent header a line; anything longer is a
	// 400, so no stranger's text is copied into every result.
	DefaultMaxAgent = 512
	// DefaultMaxMemory is the memory budget of a serve process (see
	// Config.MaxMemory and docs/fleet.md).
	DefaultMaxMemory = 1 << 30
	// DefaultMaxConns bounds the client connections held at once,
	// DefaultMaxIdleConns those of them idle between requests (conns.go).
	DefaultMaxConns     = 1024
	DefaultMaxIdleConns = 256
	// DefaultHeaderTimeout bounds reading a request's headers,
	// DefaultIdleTimeout how long a connection is kept idle.
	DefaultHeaderTimeout = 10 * time.Second
	DefaultIdleTimeout   = 120 * time.Second
	// DefaultReadTimeout bounds reading one request, body included: a
	// client slower than that gets 408.
	DefaultReadTimeout = 30 * time.Second
)

// Config configures a Server. The zero value serves rfc9309 decisions from
// an in-memory cache, refusing private destinations.
type Config struct {
	// Profile is the profile of a request that names none.
	Profile robots.Profile
	// UserAgent is sent when fetching robots.txt; "" means sitetxt's.
	UserAgent string
	// Cache keeps robots.txt responses; nil means one in memory. A
	// rediscache.Cache (set Redis too) shares them with the fleet.
	Cache cache.Cache
	// Redis, when set, is asked by /healthz and reported by /metrics.
	Redis *rediscache.Cache
	// AllowPrivate lets the service fetch from loopback, private and
	// link-local addresses.
	AllowPrivate bool
	// Hosts are the names the service answers to: a request whose Host
	// header names another is refused (421), so that a page elsewhere
	// cannot reach the service through a name of its own that resolves to
	// it (DNS rebinding). Empty means "localhost" and the address each
	// connection came to (the listen address).
	Hosts []string
	// Token, when set, must come as "Authorization: Bearer <Token>" on
	// /v1/check and /metrics.
	Token string
	// MaxBody bounds a request body in bytes, MaxURLs the URLs in one
	// request; 0 means the defaults.
	MaxBody int64
	MaxURLs int
	// FetchTimeout bounds one fetch of robots.txt, redirects included.
	FetchTimeout time.Duration
	// RequestTimeout bounds the decisions of one request;
	// 0 means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// Logger gets one line per request; nil means slog.Default().
	Logger *slog.Logger
	// Transport, when set, replaces the guarded transport (tests).
	Transport http.RoundTripper
	// MaxAgent bounds the "agent" field in bytes; 0 means DefaultMaxAgent.
	MaxAgent int
	// MaxMemory is the process's memory budget in bytes; 0 means
	// DefaultMaxMemory. It is shared out (budget.go, docs/fleet.md): an
	// eighth to the in-memory response cache (when Cache is nil), three
	// eighths to compiled policies, a quarter to fetches in flight, a
	// quarter to requests being read and answered; the rest is headroom
	// for the garbage collector. The CLI also makes it the runtime's soft
	// memory limit.
	MaxMemory int64
	// MaxFetches bounds the robots.txt fetches in flight (each fetch and
	// compile of one robots.txt, for all the requests that wait for it)
	// for the whole process; 0 means what MaxMemory allows. A slot is
	// taken before dialling and given back once the policy is compiled,
	// or when the last request waiting for it ends. One request waits for
	// at most DefaultParallel sites at once.
	MaxFetches int
	// MaxConns bounds the client connections Serve holds at once, and
	// MaxIdleConns those of them idle between requests; 0 means
	// DefaultMaxConns and DefaultMaxIdleConns. A new connection past
	// MaxConns closes the one idle the longest (or silent for a second);
	// only when every connection is answering does it wait in the
	// kernel's queue (conns.go).
	MaxConns     int
	MaxIdleConns int
	// HeaderTimeout bounds reading a request's headers, ReadTimeout the
	// whole request, body included; IdleTimeout how long a connection is
	// kept between requests; 0 means the defaults.
	HeaderTimeout time.Duration
	ReadTimeout   time.Duration
	IdleTimeout   time.Duration
	// Pacer hands out the fetch slots of POST /v1/acquire and takes the
	// feedback of POST /v1/report; nil means a pace.Memory of this
	// process. A redispace.Pacer on the fleet's Redis shares them.
	Pacer pace.Pacer
	// Pace reads the pace a site asks of an agent (its default, cap and
	// which profiles honour the lines).
	Pace pace.Reading
	// CallerSlots bounds the slots one caller (the address a request comes
	// from: an IP address, an IPv6 /64) holds still to come at one site
	// for one agent, and with them at most half the Pacer's horizon
	// (callers.go); 0 means DefaultCallerSlots.
	CallerSlots int
	// PaceSecret keys the tickets of /v1/acquire's slots, which
	// /v1/report asks back (ticket.go): every serve process of a fleet is
	// given the same. Empty means the secret the Pacer shares through
	// Redis (redispace.Pacer.SharedSecret), when it has one, else a random
	// one of this process.
	PaceSecret []byte
}

// withDefaults returns cfg with every zero limit set to its default.
func (cfg Config) withDefaults() Config {
	orDefault(&cfg.MaxBody, DefaultMaxBody)
	orDefault(&cfg.MaxURLs, DefaultMaxURLs)
	orDefault(&cfg.MaxAgent, DefaultMaxAgent)
	orDefault(&cfg.MaxMemory, DefaultMaxMemory)
	orDefault(&cfg.MaxConns, DefaultMaxConns)
	orDefault(&cfg.FetchTimeout, DefaultFetchTimeout)
	orDefault(&cfg.RequestTimeout, DefaultRequestTimeout)
	orDefault(&cfg.ReadTimeout, DefaultReadTimeout)
	orDefault(&cfg.MaxIdleConns, DefaultMaxIdleConns)
	orDefault(&cfg.HeaderTimeout, DefaultHeaderTimeout)
	orDefault(&cfg.IdleTimeout, DefaultIdleTimeout)
	orDefault(&cfg.CallerSlots, DefaultCallerSlots)
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	cfg.Hosts = canonicalHosts(cfg.Hosts)
	return cfg
}

func orDefault[T int | int64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// Server answers decision requests. Make one with New.
type Server struct {
	cfg      Config
	clients  map[robots.Profile]*robots.Client
	metrics  *metrics
	log      *slog.Logger
	draining atomic.Bool
	mux      *http.ServeMux
	// routeTable holds every route registered through the gate (gate.go),
	// by pattern; routes are their patterns in the order they were added
	// (/openapi.json names each).
	routeTable map[string]*route
	routes     []string
	// flights bounds the fetches (and compiles) in flight, process-wide;
	// the requests sent (one connection each) are bounded by the clients'
	// transport (capped, guard.go).
	flights *fetch.Limit
	// requests is the memory requests being read and answered may take
	// (admit).
	requests *budget
	// pacer is Config.Pacer, or one in memory; horizon its horizon and
	// paceNow its clock (pacerOptions).
	pacer   pace.Pacer
	horizon time.Duration
	paceNow func() time.Time
	// callers bounds the slots each caller holds (callers.go); tickets
	// signs and verifies the slots' tickets (ticket.go).
	callers *callers
	tickets *tickets
	// siteFetch fetches the manifests the tester's requests name by
	// "site" (source.go): the guarded client, the cache, the user agent
	// and the fetch timeout of the robots.txt clients, the default size
	// limit.
	siteFetch *fetch.Fetcher
	// pool holds Serve's client connections (conns.go), once it runs.
	pool atomic.Pointer[pool]
	// sitemapFetch follows the sitemaps of POST /v1/sitemaps, with the
	// cache and a client whose streams hold at most a quarter of the
	// outbound slots (capped).
	sitemapFetch *sitemap.Fetcher
}

// New returns a Server for cfg.
func New(cfg Config) *Server {
	cfg = cfg.withDefaults()
	shares := shareOut(cfg.MaxMemory)
	if cfg.MaxFetches <= 0 {
		cfg.MaxFetches = shares.fetches
	}
	if cfg.Cache == nil {
		cfg.Cache = &cache.Memory{MaxBytes: shares.cache}
	}
	s := &Server{cfg: cfg, clients: map[robots.Profile]*robots.Client{}, log: cfg.Logger,
		flights: fetch.NewLimit(cfg.MaxFetches), requests: newBudget(shares.requests)}
	s.metrics = newMetrics(cfg.Redis, s.flights, s.connStats)
	s.pacer = cfg.Pacer
	if s.pacer == nil {
		s.pacer = pace.NewMemory(pace.Options{MaxQueues: shares.paceQueues})
	}
	popts := pacerOptions(s.pacer)
	s.horizon, s.paceNow = popts.Horizon, popts.Now
	s.callers = newCallers(shares.paceQueues)
	var shared func(context.Context) ([]byte, error)
	if sp, ok := s.pacer.(interface {
		SharedSecret(context.Context) ([]byte, error)
	}); ok {
		shared = sp.SharedSecret
	}
	s.tickets = newTickets(cfg.PaceSecret, shared)
	s.tickets.now = s.paceNow
	s.metrics.pace = registerPace(s.metrics.reg, s.pacer)
	rt := cfg.Transport
	if rt == nil {
		rt = newTransport(cfg.AllowPrivate)
	}
	observe := func(outcome string, d time.Duration) {
		s.metrics.fetches.WithLabelValues(outcome).Inc()
		s.metrics.fetchTime.Observe(d.Seconds())
	}
	outbound := capOutbound(rt, make(chan struct{}, cfg.MaxFetches))
	hc := &http.Client{Transport: counting{next: outbound, observe: observe}}
	streams := &capped{next: outbound, share: make(chan struct{}, max(1, cfg.MaxFetches/4))}
	sitemapClient := &http.Client{Transport: counting{next: streams, observe: observe}}
	policyBytes := shares.policies
	ua := cfg.UserAgent
	if ua == "" {
		// A service answers for many crawlers: it names itself, as
		// documented, rather than the first crawler that asks
		// (robots.Client's own default).
		ua = fetch.DefaultUserAgent
	}
	// Every fetch of the service goes through the guarded, counted client
	// with the service's User-Agent: the robots.txt clients and the
	// tester's sites share one Fetcher (one flight per URL), sitemaps have
	// their own for the request's timeout.
	s.siteFetch = &fetch.Fetcher{Client: hc, UserAgent: ua, Timeout: cfg.FetchTimeout, Cache: cfg.Cache}
	for _, p := range robots.Profiles {
		s.clients[p] = &robots.Client{Profile: p, Fetcher: s.siteFetch, MaxPolicyBytes: policyBytes}
	}
	s.sitemapFetch = &sitemap.Fetcher{Fetcher: &fetch.Fetcher{Client: sitemapClient, UserAgent: ua, Timeout: cfg.RequestTimeout, Cache: cfg.Cache},
		MaxFiles: SitemapMaxFiles, MaxTime: cfg.RequestTimeout}
	s.mux, s.routeTable = http.NewServeMux(), map[string]*route{}
	streamRoute(s, "POST /v1/check", Limits{Work: windowCost}, s.check)
	streamRoute(s, "POST /v1/sitemaps", Limits{Work: sitemapCost}, s.sitemaps)
	jsonRoute(s, "POST /v1/acquire", Limits{Work: resultCost}, s.runAcquire, func(*acquireRequest) int { return 1 })
	jsonRoute(s, "POST /v1/report", Limits{}, s.runReport, nil)
	jsonRoute(s, "POST /v1/prefs", Limits{MaxURLs: PrefsMaxURLs}, s.runPrefs, func(r *prefsRequest) int { return len(r.URLs) })
	s.getRoute("GET /healthz", http.HandlerFunc(s.healthz), true)
	s.getRoute("GET /metrics", promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}), false)
	s.routePage()
	return s
}

// pacerOptions returns the Options p applies, when it says (pace.Memory,
// redispace.Pacer), else the defaults.
func pacerOptions(p pace.Pacer) pace.Options {
	if o, ok := p.(interface{ Options() pace.Options }); ok {
		return o.Options()
	}
	return pace.Options{}.WithDefaults()
}

var errClientLeft = errors.New("the client closed the connection")

// statusClientGone is the status logged and counted for a request whose
// client did not receive the whole answer (nginx's 499, "client closed
// request"): it left, or the write deadline cut it.
const statusClientGone = 499

// logRequest writes the access log line of r and counts it in the
// metrics. "status" is what the client got: the status sent, or 499 when
// the connection was cut before the whole answer was written (then
// "sent_status" is the one that was sent and "write_error" why it was
// cut); "bytes" is what the connection wrote of the answer, headers
// included (the body's bytes when the handler runs outside Serve).
func (s *Server) logRequest(r *http.Request, rec *recorder, pattern string, d time.Duration) {
	path := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(pattern, "POST "), "GET "), "other")
	if path == "" {
		path = "other"
	}
	status := rec.code
	if rec.cut != nil {
		status = statusClientGone
	}
	s.metrics.requests.WithLabelValues(path, strconv.Itoa(status)).Inc()
	s.metrics.latency.WithLabelValues(path).Observe(d.Seconds())
	level := slog.LevelInfo
	if status >= 500 && status != statusClientGone {
		level = slog.LevelError
	} else if path == "/healthz" || path == "/metrics" {
		level = slog.LevelDebug // probes every few seconds; not worth a line each
	}
	attrs := []slog.Attr{slog.String("method", r.Method), slog.String("path", r.URL.Path),
		slog.Int("status", status), slog.Int64("bytes", rec.n), slog.Duration("duration", d),
		slog.String("remote", r.RemoteAddr)}
	if rec.urls > 0 {
		attrs = append(attrs, slog.Int("urls", rec.urls))
	}
	if rec.err != "" {
		attrs = append(attrs, slog.String("error", rec.err))
	}
	if rec.cut != nil {
		attrs = append(attrs, slog.Int("sent_status", rec.code), slog.String("write_error", rec.cut.Error()))
	}
	s.log.LogAttrs(r.Context(), level, "request", attrs...)
}

// recorder keeps what the log line and metrics need.
type recorder struct {
	http.ResponseWriter
	code int
	n    int64 // bytes of the body written
	urls int
	err  string
	cut  error // why the client did not get the whole answer
}

func (r *recorder) WriteHeader(code int) { r.code = code; r.ResponseWriter.WriteHeader(code) }
func (r *recorder) Write(b []byte) (int, error) {
	n, err := r.ResponseWriter.Write(b)
	r.n += int64(n)
	if err != nil && r.cut == nil {
		r.cut = err
	}
	return n, err
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// fail answers {"error": msg} with code.
func (s *Server) fail(w http.ResponseWriter, code int, msg string) {
	if rec, ok := w.(*recorder); ok {
		rec.err = msg
	}
	if code == http.StatusServiceUnavailable && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", "1")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(struct {
		Error string `json:"error"`
	}{msg})
}

// connStats returns the client connections held and those closed for
// newer ones, once Serve runs.
func (s *Server) connStats() (int, int64) {
	p := s.pool.Load()
	if p == nil {
		return 0, 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.open, p.evicted.Load()
}

// Serve answers on ln until ctx is done, then stops accepting connections
// and waits up to grace for the requests in flight to finish.
func (s *Server) Serve(ctx context.Context, ln net.Listener, grace time.Duration) error {
	p := newPool(ln, s.cfg.MaxConns, s.cfg.MaxIdleConns)
	s.pool.Store(p)
	ln = p
	hs := &http.Server{
		ConnContext:       withConn,
		ConnState:         p.state,
		Handler:           s.Handler(),
		ReadHeaderTimeout: s.cfg.HeaderTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		WriteTimeout:      s.cfg.RequestTimeout + 30*time.Second,
		IdleTimeout:       s.cfg.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.draining.Store(true)
	s.log.Info("shutting down: finishing requests in flight", "grace", grace.String())
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
