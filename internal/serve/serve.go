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
//
// A decision is the object "sitetxt check -o json" prints (docs/cli.md),
// plus "crawl_delay" (seconds) and "request_rate" ({"requests", "seconds"})
// when the agent's group has them, and "error" for a URL that could not be
// decided at all.
package serve

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/sitetxt/sitetxt/cache"
	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/internal/fetch"
	"github.com/sitetxt/sitetxt/robots"
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
	// DefaultMaxConns bounds the client connections held at once.
	DefaultMaxConns = 1024
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
	// DefaultMaxMemory. An eighth goes to the in-memory response cache
	// (when Cache is nil), an eighth to compiled policies (the robots.txt
	// bytes behind them, at about 16 heap bytes per file byte), a quarter
	// to fetches in flight (MaxFetches = budget/4 / 16 MiB, at most 256:
	// each up to a 500 KiB body, its syntax tree and its compile); the
	// rest is headroom for answers being written and the garbage collector
	// (TestLoadServeMemory measures it). The CLI also sets it as the runtime's soft memory limit.
	MaxMemory int64
	// MaxFetches bounds the robots.txt fetches in flight for the whole
	// process; 0 means what MaxMemory allows. One request fetches at most
	// DefaultParallel sites at once.
	MaxFetches int
	// MaxConns bounds the client connections Serve holds at once; 0 means
	// DefaultMaxConns. Past it, new connections wait in the kernel's queue.
	MaxConns int
	// ReadTimeout bounds reading a request; 0 means DefaultReadTimeout.
	ReadTimeout time.Duration
}

// Server answers decision requests. Make one with New.
type Server struct {
	cfg      Config
	clients  map[robots.Profile]*robots.Client
	metrics  *metrics
	log      *slog.Logger
	draining atomic.Bool
	mux      *http.ServeMux
	// work holds a slot per Check in progress, process-wide: a Check may
	// fetch and compile a file, and the bodies and parse trees of those in
	// progress are what MaxFetches bounds.
	work chan struct{}
}

// New returns a Server for cfg.
func New(cfg Config) *Server {
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.MaxURLs <= 0 {
		cfg.MaxURLs = DefaultMaxURLs
	}
	if cfg.FetchTimeout <= 0 {
		cfg.FetchTimeout = DefaultFetchTimeout
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.MaxAgent <= 0 {
		cfg.MaxAgent = DefaultMaxAgent
	}
	if cfg.MaxMemory <= 0 {
		cfg.MaxMemory = DefaultMaxMemory
	}
	if cfg.MaxFetches <= 0 {
		cfg.MaxFetches = int(min(256, max(2, cfg.MaxMemory/4/(16<<20))))
	}
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = DefaultMaxConns
	}
	if cfg.ReadTimeout <= 0 {
		cfg.ReadTimeout = DefaultReadTimeout
	}
	if cfg.Cache == nil {
		cfg.Cache = &fetch.MemoryCache{MaxBytes: int(cfg.MaxMemory / 8)}
	}
	s := &Server{cfg: cfg, clients: map[robots.Profile]*robots.Client{}, log: cfg.Logger, metrics: newMetrics(cfg.Redis),
		work: make(chan struct{}, cfg.MaxFetches)}
	rt := cfg.Transport
	if rt == nil {
		rt = newTransport(cfg.AllowPrivate)
	}
	hc := &http.Client{Transport: counting{next: rt, slots: make(chan struct{}, cfg.MaxFetches), observe: func(outcome string, d time.Duration) {
		s.metrics.fetches.WithLabelValues(outcome).Inc()
		s.metrics.fetchTime.Observe(d.Seconds())
	}}}
	// Compiled policies: an eighth of the budget over the four clients, at
	// about 16 heap bytes per robots.txt byte (the syntax tree a policy
	// keeps for its positions, and the rule index).
	policyBytes := int(cfg.MaxMemory / 8 / int64(len(robots.Profiles)) / 16)
	ua := cfg.UserAgent
	if ua == "" {
		// A service answers for many crawlers: it names itself, as
		// documented, rather than the first crawler that asks
		// (robots.Client's own default).
		ua = fetch.DefaultUserAgent
	}
	for _, p := range robots.Profiles {
		s.clients[p] = &robots.Client{Profile: p, UserAgent: ua, HTTPClient: hc,
			Timeout: cfg.FetchTimeout, Cache: cfg.Cache, MaxPolicyBytes: policyBytes}
	}
	s.mux = http.NewServeMux()
	s.mux.Handle("POST /v1/check", s.authed(http.HandlerFunc(s.check)))
	s.mux.Handle("POST /v1/sitemaps", s.authed(http.HandlerFunc(s.sitemaps)))
	s.mux.Handle("GET /healthz", http.HandlerFunc(s.healthz))
	s.mux.Handle("GET /metrics", s.authed(promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{})))
	return s
}

// Handler returns the service's HTTP handler: routing, metrics and one
// log line per request.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &recorder{ResponseWriter: w, code: http.StatusOK}
		h, pattern := s.mux.Handler(r)
		if pattern == "" {
			pattern = "other"
			h = s.notRouted(h)
		}
		h.ServeHTTP(rec, r)
		d := time.Since(start)
		path := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(pattern, "POST "), "GET "), "other")
		if path == "" {
			path = "other"
		}
		s.metrics.requests.WithLabelValues(path, strconv.Itoa(rec.code)).Inc()
		s.metrics.latency.WithLabelValues(path).Observe(d.Seconds())
		level := slog.LevelInfo
		if rec.code >= 500 {
			level = slog.LevelError
		} else if path == "/healthz" || path == "/metrics" {
			level = slog.LevelDebug // probes every few seconds; not worth a line each
		}
		attrs := []slog.Attr{slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", rec.code), slog.Int64("bytes", rec.n), slog.Duration("duration", d),
			slog.String("remote", r.RemoteAddr)}
		if rec.urls > 0 {
			attrs = append(attrs, slog.Int("urls", rec.urls))
		}
		if rec.err != "" {
			attrs = append(attrs, slog.String("error", rec.err))
		}
		if rec.cut != nil {
			// What the client really received: the write failed (it left,
			// or the write timeout cut it) after rec.n bytes.
			attrs = append(attrs, slog.Bool("cut", true), slog.String("write_error", rec.cut.Error()))
		}
		s.log.LogAttrs(r.Context(), level, "request", attrs...)
	})
}

// recorder keeps what the log line and metrics need.
type recorder struct {
	http.ResponseWriter
	code int
	n    int64
	urls int
	err  string
	cut  error // the first failed write
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

// authed requires the bearer token, when there is one.
func (s *Server) authed(h http.Handler) http.Handler {
	if s.cfg.Token == "" {
		return h
	}
	want := []byte("Bearer " + s.cfg.Token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="sitetxt"`)
			s.fail(w, http.StatusUnauthorized, "missing or wrong bearer token")
			return
		}
		h.ServeHTTP(w, r)
	})
}

// fail answers {"error": msg} with code.
func (s *Server) fail(w http.ResponseWriter, code int, msg string) {
	if rec, ok := w.(*recorder); ok {
		rec.err = msg
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(struct {
		Error string `json:"error"`
	}{msg})
}

// checkRequest is the body of POST /v1/check.
type checkRequest struct {
	Agent   *string  `json:"agent"`
	URLs    []string `json:"urls"`
	Profile string   `json:"profile"`
}

func (s *Server) check(w http.ResponseWriter, r *http.Request) {
	var req checkRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			s.fail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes", s.cfg.MaxBody))
			return
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			s.fail(w, http.StatusRequestTimeout, fmt.Sprintf("the request body did not arrive within %s", s.cfg.ReadTimeout))
			return
		}
		s.fail(w, http.StatusBadRequest, "bad request body: "+err.Error())
		return
	}
	if _, err := dec.Token(); err != io.EOF {
		s.fail(w, http.StatusBadRequest, "bad request body: more than one JSON value")
		return
	}
	if req.Agent == nil {
		s.fail(w, http.StatusBadRequest, `bad request body: no "agent" (use "*" for the rules every crawler follows)`)
		return
	}
	if len(*req.Agent) > s.cfg.MaxAgent {
		s.fail(w, http.StatusBadRequest, fmt.Sprintf(`"agent" is %d bytes long; at most %d (a product token or a User-Agent header)`, len(*req.Agent), s.cfg.MaxAgent))
		return
	}
	if len(req.URLs) > s.cfg.MaxURLs {
		s.fail(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("%d URLs in one request; at most %d", len(req.URLs), s.cfg.MaxURLs))
		return
	}
	prof := s.cfg.Profile
	if req.Profile != "" {
		p, err := robots.ParseProfile(req.Profile)
		if err != nil {
			s.fail(w, http.StatusBadRequest, err.Error())
			return
		}
		prof = p
	}
	if rec, ok := w.(*recorder); ok {
		rec.urls = len(req.URLs)
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.RequestTimeout)
	defer cancel()
	results := s.decide(ctx, s.clients[prof], prof, *req.Agent, req.URLs)
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(checkResponse{Results: results}); err != nil {
		s.log.Debug("writing response", "err", err)
	}
}

type checkResponse struct {
	Results []Result `json:"results"`
}

// decide decides urls in order, fetching the robots.txt of up to
// DefaultParallel sites at once.
func (s *Server) decide(ctx context.Context, c *robots.Client, prof robots.Profile, agent string, urls []string) []Result {
	out := make([]Result, len(urls))
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1)) - 1
			if i >= len(urls) {
				return
			}
			if ctx.Err() != nil {
				// The client left or the request's time is up: fetch no
				// more for it.
				out[i] = ended(urls[i], agent, prof, ctx.Err())
				continue
			}
			select {
			case s.work <- struct{}{}:
			case <-ctx.Done():
				out[i] = ended(urls[i], agent, prof, ctx.Err())
				continue
			}
			a, err := c.Check(ctx, agent, urls[i])
			<-s.work
			out[i] = s.decisionOf(urls[i], agent, prof, a, err)
			switch {
			case err != nil:
				s.metrics.decisions.WithLabelValues("error").Inc()
				continue
			case a.Allowed:
				s.metrics.decisions.WithLabelValues("allowed").Inc()
			default:
				s.metrics.decisions.WithLabelValues("disallowed").Inc()
			}
			if a.FromCache {
				s.metrics.answers.WithLabelValues("hit").Inc()
			} else {
				s.metrics.answers.WithLabelValues("miss").Inc()
			}
		}
	}
	n := min(DefaultParallel, len(urls))
	var wg sync.WaitGroup
	for range n - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return out
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	status, code := "ok", http.StatusOK
	if s.draining.Load() {
		status, code = "shutting down", http.StatusServiceUnavailable
	}
	redis := "none"
	if s.cfg.Redis != nil {
		redis = "up"
		if err := s.cfg.Redis.Ping(r.Context()); err != nil {
			redis = "down"
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(struct {
		Status string `json:"status"`
		Redis  string `json:"redis"`
	}{status, redis})
}

// Serve answers on ln until ctx is done, then stops accepting connections
// and waits up to grace for the requests in flight to finish.
func (s *Server) Serve(ctx context.Context, ln net.Listener, grace time.Duration) error {
	ln = limitListener(ln, s.cfg.MaxConns)
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       s.cfg.ReadTimeout,
		WriteTimeout:      s.cfg.RequestTimeout + 30*time.Second,
		IdleTimeout:       120 * time.Second,
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
