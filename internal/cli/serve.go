package cli

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/internal/serve"
	"github.com/sitetxt/sitetxt/pace"
	"github.com/sitetxt/sitetxt/pace/redispace"
	"github.com/sitetxt/sitetxt/robots"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// serveOptions are the options of "sitetxt serve".
type serveOptions struct {
	IO           *IOStreams
	Listen       string
	Redis        redisFlags
	RedisTimeout time.Duration
	Profile      string
	AllowPrivate bool
	TokenFile    string
	Timeout      time.Duration
	ReqTimeout   time.Duration
	UserAgent    string
	MaxURLs      int
	MaxBody      int64
	Grace        time.Duration
	LogFormat    string
	LogLevel     string
	MaxMemory    string
	MaxConns     int
	MaxIdleConns int
	HeaderTime   time.Duration
	ReadTime     time.Duration
	IdleTime     time.Duration
	MaxAgent     int
	Hosts        []string
	PaceDefault  time.Duration
	PaceMax      time.Duration
	PaceLines    string
	PaceSlack    time.Duration
	PaceHorizon  time.Duration
	PauseMax     time.Duration
	CallerSlots  int
	SecretFile   string

	// ready, when set, is called with the address listened on (tests).
	ready func(addr string)
}

func newServeCmd(ios *IOStreams) *cobra.Command {
	opts := &serveOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "serve [--listen ADDR] [--redis URL | --redis-cluster ADDRS | --redis-sentinel MASTER@ADDRS] [--profile P]",
		Short: "Answer robots.txt decisions over HTTP for crawlers in any language",
		Long: `Serve robots.txt decisions over HTTP: POST /v1/check with
  {"agent": "ExampleBot", "urls": ["https://example.org/a", ...], "profile": "rfc9309"}
answers {"results": [...]}, one object per URL in order: the decision object
of check -o json ("url", "agent", "profile", "allowed", "reason", "rule",
"group", "fetch"), plus "crawl_delay" (seconds) and "request_rate"
({"requests", "seconds"}) when the agent's group has them. GET /healthz
says whether the service is ready and Redis up, down or failing, with the
class of the cause and a cluster's state (the servers' own words and
addresses only with the bearer token); GET /metrics gives Prometheus
metrics, per Redis shard too. GET / is the manifest tester, a page for testing a
robots.txt, data.txt or Mobile-agent-server lines in a browser, and POST
/v1/test, /v1/datasets and /v1/agents its API (GET /openapi.json describes
every endpoint; docs/tester.md).

Each site's robots.txt is fetched once per expiry and cached in memory. With
--redis, every serve process (and every robots.Client) sharing that Redis
shares the cache and a lease per robots.txt, so a site sees one request per
expiry from the whole fleet. --redis-cluster runs them on a Redis Cluster
(seed nodes host:port, a site's keys in one slot, each shard followed on
its own), --redis-sentinel on the primary that Sentinels watch; the
password comes from --redis-password-file or $REDIS_PASSWORD, TLS from
rediss:// addresses. When Redis (or one shard) is down or slow, answers
continue from the local cache and direct fetches; nothing fails
(docs/fleet.md).

POST /v1/acquire {"url": ..., "agent": ...} paces a crawler: it answers the
decision of /v1/check for the URL and, when it may be fetched, "wait_ms"
(0: fetch now), the wait for the slot it reserved for the caller, spaced
as the agent's group asks (Crawl-delay, Request-rate, Visit-time;
--pace-default when it asks for nothing, at most --pace-max, read as
--pace-lines says, with --pace-slack between two slots), and a "ticket".
Each crawler (its product token) has its own queue at a site. No slot is
booked past --pace-horizon, and one caller holds at most
--pace-caller-slots slots still to come at a site for an agent: past
either, 429 with Retry-After. POST /v1/report {"url", "agent", "status",
"retry_after", "ticket"} feeds back what a fetch in that slot answered:
a 429 or 503 with Retry-After pauses the agent's queue at the site (at
most --pace-pause-max), repeated 5xx back off; a report without a ticket
the fleet gave for that site and agent is refused. With --redis the
slots and pauses are the fleet's, and so is the tickets' secret (or
--pace-secret-file); while Redis is down each process paces on its own.

The service is meant to face strangers. It refuses to fetch from any
address that is not a public one (loopback, private, link-local,
documentation, reserved, this host's own: the IANA special-purpose
registries, checked at connection time, after DNS and on every redirect)
unless --allow-private is given, and tells a stranger why a fetch failed
in public words only (the detail is logged). It answers only requests
whose Host is a name it was told it answers to (--host; by default
localhost and the address it listens on), refuses requests another
site's page sent (Origin, Sec-Fetch-Site) and JSON API requests without
Content-Type: application/json, so that no browser can be made to drive
it. Connections are bounded: at most --max-conns (1,024) held, of which
--max-idle-conns (256) idle, the one idle the longest closed for a new
connection; a request's headers must arrive within --header-timeout
(10s), the whole request within --read-timeout (30s, else 408), and an
idle connection is closed after --idle-timeout (2m); a request body is
at most --max-body, its agent --max-agent, its URLs --max-urls
(docs/security.md lists every limit with its default). --max-memory is one budget
the response cache, compiled rules, fetches in flight and requests being
answered share; a request it cannot take gets 503. --token-file requires
"Authorization: Bearer <token>" on POST /v1/* and /metrics. SIGTERM or
SIGINT stops accepting connections and finishes the requests in flight
(for at most --grace). One log line per request goes to standard error,
with status 499 when the client did not receive the whole answer.`,
		Example: `  sitetxt serve --listen 127.0.0.1:8080
  sitetxt serve --listen :8080 --redis redis://10.0.0.5:6379/0 --token-file /etc/sitetxt/token
  sitetxt serve --listen :8080 --redis-cluster 10.0.0.5:7000,10.0.0.6:7000 --redis-password-file /etc/sitetxt/redis-password
  curl -s -H 'Content-Type: application/json' -d '{"agent":"ExampleBot","urls":["https://example.org/private/x"]}' http://127.0.0.1:8080/v1/check`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
			defer stop()
			return serveRun(ctx, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Listen, "listen", "127.0.0.1:8080", "address to listen on")
	opts.Redis.add(fl)
	fl.DurationVar(&opts.RedisTimeout, "redis-timeout", rediscache.DefaultTimeout, "give up on a Redis command after this long, and answer without Redis for a moment")
	profileFlag(cmd, &opts.Profile)
	fl.BoolVar(&opts.AllowPrivate, "allow-private", false, "allow fetching from loopback, private and link-local addresses")
	fl.StringVar(&opts.TokenFile, "token-file", "", "require the bearer token in this file on POST /v1/* and /metrics")
	fl.DurationVar(&opts.Timeout, "timeout", serve.DefaultFetchTimeout, "give up fetching a robots.txt after this long, redirects included")
	fl.DurationVar(&opts.ReqTimeout, "request-timeout", serve.DefaultRequestTimeout, "answer a request within this long: URLs whose robots.txt has not come by then are disallowed, with the reason")
	fl.StringVar(&opts.UserAgent, "user-agent", defaultUserAgent(), "User-Agent header to send when fetching robots.txt")
	fl.IntVar(&opts.MaxURLs, "max-urls", serve.DefaultMaxURLs, "most URLs in one request")
	fl.Int64Var(&opts.MaxBody, "max-body", serve.DefaultMaxBody, "most bytes in one request body")
	fl.StringVar(&opts.MaxMemory, "max-memory", "1GiB", "memory budget the response cache, compiled rules, fetches in flight and requests share (e.g. 512MiB, 4GiB); also the Go runtime's soft limit (docs/fleet.md)")
	fl.IntVar(&opts.MaxConns, "max-conns", serve.DefaultMaxConns, "most client connections held at once; past it, the one idle the longest is closed for a new one")
	fl.IntVar(&opts.MaxIdleConns, "max-idle-conns", serve.DefaultMaxIdleConns, "most client connections kept idle between requests; past it, the one idle the longest is closed")
	fl.DurationVar(&opts.HeaderTime, "header-timeout", serve.DefaultHeaderTimeout, "close a connection that does not send a request's headers within this long")
	fl.DurationVar(&opts.ReadTime, "read-timeout", serve.DefaultReadTimeout, "answer 408 to a request whose body has not arrived within this long (headers included)")
	fl.DurationVar(&opts.IdleTime, "idle-timeout", serve.DefaultIdleTimeout, "close a connection idle between requests for this long")
	fl.IntVar(&opts.MaxAgent, "max-agent", serve.DefaultMaxAgent, "most bytes in a request's agent")
	fl.StringSliceVar(&opts.Hosts, "host", nil, "a name this service answers to (the Host header; repeat for more); default: localhost and the listen address")
	fl.DurationVar(&opts.Grace, "grace", 30*time.Second, "on SIGTERM, how long to wait for requests in flight")
	paceFlags(fl, opts)
	fl.StringVar(&opts.LogFormat, "log-format", "text", "log format: text or json")
	fl.StringVar(&opts.LogLevel, "log-level", "info", "least level logged: debug, info, warn or error")
	return cmd
}

// paceFlags registers the --pace-* flags of /v1/acquire and /v1/report.
func paceFlags(fl *pflag.FlagSet, opts *serveOptions) {
	fl.DurationVar(&opts.PaceDefault, "pace-default", pace.DefaultInterval, "POST /v1/acquire: the least time between two fetches from a site whose robots.txt asks for none (0: none)")
	fl.DurationVar(&opts.PaceMax, "pace-max", pace.DefaultMax, "POST /v1/acquire: the slowest pace a site may ask for; a longer Crawl-delay or Request-rate is paced at this, with a diagnostic")
	fl.DurationVar(&opts.PaceSlack, "pace-slack", pace.DefaultSlack, "POST /v1/acquire: time added between two slots at a site, for the crawlers' jitter between an answer and the request (0: none)")
	fl.DurationVar(&opts.PaceHorizon, "pace-horizon", pace.DefaultHorizon, "POST /v1/acquire: book no slot further ahead than this; past it, 429 with Retry-After (0: no horizon)")
	fl.DurationVar(&opts.PauseMax, "pace-pause-max", pace.DefaultPauseMax, "POST /v1/report: the longest pause one report's Retry-After puts on a site")
	fl.IntVar(&opts.CallerSlots, "pace-caller-slots", serve.DefaultCallerSlots, "POST /v1/acquire: the most slots still to come one caller (an address; IPv6 by /64) holds at a site for one agent, and at most half --pace-horizon's worth")
	fl.StringVar(&opts.SecretFile, "pace-secret-file", "", "sign the tickets of /v1/acquire's slots with the secret in this file, the same for every serve of a fleet (default: with --redis, a secret the fleet shares through Redis; else one of this process)")
	fl.StringVar(&opts.PaceLines, "pace-lines", "profile", "POST /v1/acquire: which profiles honour Crawl-delay, Request-rate and Visit-time: profile (all but google, whose crawlers ignore them), always or never")
}

func serveRun(ctx context.Context, opts *serveOptions) error {
	prof, err := robots.ParseProfile(opts.Profile)
	if err != nil {
		return usageError("%v", err)
	}
	if opts.Timeout <= 0 || opts.ReqTimeout <= 0 || opts.MaxURLs <= 0 || opts.MaxBody <= 0 || opts.Grace < 0 {
		return usageError("--timeout, --request-timeout, --max-urls and --max-body must be positive, --grace not negative")
	}
	maxMem := int64(serve.DefaultMaxMemory)
	if opts.MaxMemory != "" {
		if maxMem, err = parseBytes(opts.MaxMemory); err != nil || maxMem < 64<<20 {
			return usageError("--max-memory %q: want a size of at least 64MiB (e.g. 512MiB, 4GiB)", opts.MaxMemory)
		}
	}
	if opts.MaxConns < 0 || opts.MaxIdleConns < 0 || opts.MaxAgent < 0 || opts.HeaderTime < 0 || opts.ReadTime < 0 || opts.IdleTime < 0 {
		return usageError("--max-conns, --max-idle-conns, --max-agent and the timeouts must be positive")
	}
	reading, err := paceReading(opts)
	if err != nil {
		return err
	}
	popts, secret, err := paceLimits(opts, maxMem)
	if err != nil {
		return err
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(maxMem))
	log, err := serveLogger(opts)
	if err != nil {
		return err
	}
	cfg := serve.Config{Profile: prof, UserAgent: opts.UserAgent, AllowPrivate: opts.AllowPrivate,
		MaxURLs: opts.MaxURLs, MaxBody: opts.MaxBody, FetchTimeout: opts.Timeout, RequestTimeout: opts.ReqTimeout, Logger: log,
		MaxMemory: maxMem, MaxConns: opts.MaxConns, MaxAgent: opts.MaxAgent, Hosts: opts.Hosts,
		MaxIdleConns: opts.MaxIdleConns, HeaderTimeout: opts.HeaderTime, ReadTimeout: opts.ReadTime, IdleTimeout: opts.IdleTime,
		Pace: reading, CallerSlots: opts.CallerSlots, PaceSecret: secret, Pacer: pace.NewMemory(popts)}
	if opts.TokenFile != "" {
		b, err := os.ReadFile(opts.TokenFile)
		if err != nil {
			return usageError("--token-file: %v", err)
		}
		if cfg.Token = strings.TrimSpace(string(b)); cfg.Token == "" {
			return usageError("--token-file %s is empty", opts.TokenFile)
		}
	}
	if opts.Redis.set() {
		rc, err := openRedis(ctx, opts, log, maxMem)
		if err != nil {
			return err
		}
		defer rc.Close()
		cfg.Cache, cfg.Redis, cfg.Pacer = rc, rc, redispace.Via(rc, popts)
	}
	ln, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return usageError("--listen: %v", err)
	}
	addr := ln.Addr().String()
	log.Info("serving", "addr", addr, "profile", prof.String(), "redis", opts.Redis.set(), "allow_private", opts.AllowPrivate, "max_memory", maxMem)
	if opts.ready != nil {
		opts.ready(addr)
	}
	if err := serve.New(cfg).Serve(ctx, ln, opts.Grace); err != nil {
		return &exitError{code: ExitError, err: fmt.Errorf("serve: %w", err)}
	}
	log.Info("stopped")
	return nil
}

// serveLogger returns the logger of --log-format and --log-level, on
// standard error.
func serveLogger(opts *serveOptions) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(opts.LogLevel)); err != nil {
		return nil, usageError("unknown --log-level %q (want debug, info, warn or error)", opts.LogLevel)
	}
	hopts := &slog.HandlerOptions{Level: level}
	switch strings.ToLower(opts.LogFormat) {
	case "text":
		return slog.New(slog.NewTextHandler(opts.IO.ErrOut, hopts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(opts.IO.ErrOut, hopts)), nil
	}
	return nil, usageError("unknown --log-format %q (want text or json)", opts.LogFormat)
}

// paceReading reads the --pace-* flags.
func paceReading(opts *serveOptions) (pace.Reading, error) {
	lines, err := pace.ParseLines(cmp.Or(opts.PaceLines, "profile"))
	if err != nil {
		return pace.Reading{}, usageError("--pace-lines: %v", err)
	}
	if opts.PaceDefault < 0 || opts.PaceMax < 0 || opts.PaceSlack < 0 {
		return pace.Reading{}, usageError("--pace-default, --pace-max and --pace-slack must not be negative")
	}
	r := pace.Reading{Default: opts.PaceDefault, Max: opts.PaceMax, Lines: lines, Slack: opts.PaceSlack}
	if r.Default == 0 {
		r.Default = -1 // none
	}
	if r.Slack == 0 {
		r.Slack = -1 // none
	}
	return r, nil
}

// paceLimits reads --pace-horizon, --pace-pause-max, --pace-caller-slots
// and --pace-secret-file: the pacer's Options (its queues held in memory
// from the memory budget) and the tickets' secret (nil: none given).
func paceLimits(opts *serveOptions, maxMem int64) (pace.Options, []byte, error) {
	if opts.PaceHorizon < 0 || opts.PauseMax < 0 || opts.CallerSlots < 0 {
		return pace.Options{}, nil, usageError("--pace-horizon, --pace-pause-max and --pace-caller-slots must not be negative")
	}
	o := pace.Options{Horizon: opts.PaceHorizon, PauseMax: opts.PauseMax, MaxQueues: serve.PaceQueues(maxMem)}
	if o.Horizon == 0 {
		o.Horizon = -1 // none
	}
	if opts.SecretFile == "" {
		return o, nil, nil
	}
	b, err := os.ReadFile(opts.SecretFile)
	if err != nil {
		return o, nil, usageError("--pace-secret-file: %v", err)
	}
	secret := []byte(strings.TrimSpace(string(b)))
	if len(secret) < 16 {
		return o, nil, usageError("--pace-secret-file %s holds %d bytes; want at least 16 (e.g. head -c 32 /dev/urandom | base64)", opts.SecretFile, len(secret))
	}
	return o, secret, nil
}

// parseBytes reads a size: a number with an optional unit (B, KiB, MiB,
// GiB, or KB, MB, GB as powers of 1,000).
func parseBytes(s string) (int64, error) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := s, ""
	if i >= 0 {
		num, unit = s[:i], strings.TrimSpace(s[i:])
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("not a size: %q", s)
	}
	mult := map[string]float64{"": 1, "b": 1, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
		"kb": 1e3, "mb": 1e6, "gb": 1e9, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[strings.ToLower(unit)]
	if mult == 0 {
		return 0, fmt.Errorf("unknown unit %q", unit)
	}
	return int64(f * mult), nil
}
