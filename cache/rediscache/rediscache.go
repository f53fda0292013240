// Package rediscache is a cache.Shared on Redis (or Valkey): the store a
// fleet of crawlers shares so that each site sees one robots.txt request
// per expiry from all of them, not one per machine.
//
// Values are kept under Prefix+key with the time to live sitetxt asks for;
// a fetch's lease is a key Prefix+"lease:"+key set with SET NX PX, so a
// crashed holder's lease expires by itself, and released by a script that
// deletes it only for its own token.
//
// Redis is an optimisation, never a dependency of an answer. Every command
// has a short deadline (Options.Timeout); when one fails, the Cache answers
// from its local copy (Options.Local, in memory by default) and reports
// errors for Options.Backoff without asking Redis, so sitetxt fetches
// directly meanwhile. The change of state is logged once each way, and
// Stats counts what happened, for metrics.
package rediscache

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/sitetxt/sitetxt/cache"
)

// Defaults of Options.
const (
	DefaultPrefix  = "sitetxt:"
	DefaultTimeout = 250 * time.Millisecond
	DefaultBackoff = 2 * time.Second
	// DefaultTTL is how long Put (without a TTL) keeps a value: the longest
	// a robots.txt is usable under RFC 9309, fresh and then stale
	// (fetch.RFCLifetime + fetch.DefaultMaxStale, 24 h and 30 days, written
	// out so that cache imports nothing above it; TestDefaultTTL holds them
	// equal).
	DefaultTTL = 31 * 24 * time.Hour
)

// Options configure a Cache. The zero value uses the defaults above.
type Options struct {
	// Prefix starts every key, so that several applications can share a
	// database.
	Prefix string
	// Timeout bounds each Redis command, including waiting for a pooled
	// connection.
	Timeout time.Duration
	// Backoff is how long, after a failed command, the Cache does not ask
	// Redis and answers from Local.
	Backoff time.Duration
	// Local holds a copy of every value stored or read, answering while
	// Redis cannot; nil means an in-memory cache of the default size.
	Local cache.Cache
	// Logger gets one line when Redis becomes unreachable and one when it
	// is back; nil means slog.Default().
	Logger *slog.Logger
	// MaxReply bounds one reply on the connections Open makes; 0 means
	// DefaultMaxReply. A longer one is an error as soon as its length is
	// read (reply.go).
	MaxReply int64
}

// Cache is a cache.Shared on Redis. It is safe for concurrent use.
type Cache struct {
	rdb   redis.UniversalClient
	opts  Options
	local cache.Cache

	down      atomic.Bool
	downUntil atomic.Int64 // unix nanoseconds

	hits, misses, errs, fallbacks, leases, waits atomic.Uint64
	// bad is the last reply refused (badReply) and when.
	bad atomic.Pointer[badReply]
}

// badReply is a reply Redis sent that was not the answer asked for.
type badReply struct {
	at  time.Time
	err string
}

var _ cache.Shared = (*Cache)(nil)

// ErrUnavailable is the error of a command not sent because Redis failed
// less than Options.Backoff ago.
var ErrUnavailable = errors.New("redis unavailable (backing off)")

// New returns a Cache on rdb, a client the caller configured; its own
// timeouts still apply to each command.
func New(rdb redis.UniversalClient, opts Options) *Cache {
	if opts.Prefix == "" {
		opts.Prefix = DefaultPrefix
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Backoff <= 0 {
		opts.Backoff = DefaultBackoff
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	c := &Cache{rdb: rdb, opts: opts, local: opts.Local}
	if c.local == nil {
		c.local = new(cache.Memory)
	}
	return c
}

// Open connects to the Redis at url ("redis://host:6379/0",
// "rediss://user:password@host/1", "unix:///run/redis.sock") with short
// timeouts, no retries and every reply checked (Options.MaxReply): a slow
// or misbehaving Redis must not slow the answers or fill the memory. It
// does not wait for Redis to be reachable. (A client given to New is used
// as its caller configured it.)
func Open(url string, opts Options) (*Cache, error) {
	o, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redis url: %w", err)
	}
	t := opts.Timeout
	if t <= 0 {
		t = DefaultTimeout
	}
	o.DialTimeout, o.ReadTimeout, o.WriteTimeout, o.PoolTimeout = t, t, t, t
	o.MaxRetries = -1 // no retries
	maxReply := opts.MaxReply
	if maxReply <= 0 {
		maxReply = DefaultMaxReply
	}
	o.Dialer = guardDialer(t, maxReply, o.TLSConfig)
	o.ContextTimeoutEnabled = true
	return New(redis.NewClient(o), opts), nil
}

// Close closes the Redis client.
func (c *Cache) Close() error { return c.rdb.Close() }

// Stats are a Cache's counters since it was made.
type Stats struct {
	Hits, Misses uint64 // Get answered by Redis
	Errors       uint64 // commands that failed (timeout, connection refused, ...)
	Fallbacks    uint64 // operations answered locally because Redis failed or was backed off
	Leases       uint64 // leases taken (fetches this process made for the fleet)
	LeaseWaits   uint64 // waits for another holder's lease
}

// Stats returns the counters.
func (c *Cache) Stats() Stats {
	return Stats{Hits: c.hits.Load(), Misses: c.misses.Load(), Errors: c.errs.Load(),
		Fallbacks: c.fallbacks.Load(), Leases: c.leases.Load(), LeaseWaits: c.waits.Load()}
}

// Up reports whether the last command reached Redis.
func (c *Cache) Up() bool { return !c.down.Load() }

// answeredWrongly reports whether err is a reply that came but was not
// the answer asked for (too large, of the wrong type, an error reply),
// rather than no reply (a connection refused or reset, a timeout).
func answeredWrongly(err error) bool {
	var ne net.Error
	switch {
	case errors.Is(err, ErrBadReply):
		return true
	case errors.Is(err, ErrUnavailable), errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled),
		errors.As(err, &ne), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed):
		return false
	}
	return true
}

// HealthWindow is how long after Redis answered wrongly Health says so.
const HealthWindow = time.Minute

// Health says how Redis is doing, within ctx and Options.Timeout: "up";
// "down" when it does not answer (a ping fails to arrive); "failing" when
// it answers, but a reply in the last HealthWindow was not the answer
// asked for (too large, of the wrong type: reply.go), with that reply's
// error. The Cache answers from its local copy meanwhile.
func (c *Cache) Health(ctx context.Context) (state, detail string) {
	err := c.Ping(ctx)
	switch {
	case err != nil && answeredWrongly(err):
		return "failing", err.Error()
	case err != nil:
		return "down", err.Error()
	}
	if b := c.bad.Load(); b != nil && time.Since(b.at) < HealthWindow {
		return "failing", b.err
	}
	return "up", ""
}

// Ping asks Redis whether it is there, within ctx and Options.Timeout.
func (c *Cache) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	err := c.rdb.Ping(ctx).Err()
	c.record(err)
	return err
}

// call runs one command with the Cache's deadline, unless Redis is backed
// off.
func (c *Cache) call(ctx context.Context, fn func(ctx context.Context) error) error {
	if c.down.Load() && time.Now().UnixNano() < c.downUntil.Load() {
		c.fallbacks.Add(1)
		return ErrUnavailable
	}
	cctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	err := fn(cctx)
	if err != nil && ctx.Err() != nil {
		return ctx.Err() // the caller gave up: says nothing about Redis
	}
	if errors.Is(err, redis.Nil) {
		c.record(nil)
		return err
	}
	c.record(err)
	if err != nil {
		c.fallbacks.Add(1)
	}
	return err
}

// Do runs fn's commands on the Cache's Redis as the Cache runs its own:
// with its deadline (Options.Timeout), not at all while Redis is backed
// off (ErrUnavailable), and counted in Stats and Up, a failure starting
// the backoff. It is for other stores on the same Redis (the fleet's
// pacer, pace/redispace), whose keys should start with Prefix. An error
// that is the caller's own (ctx ended) says nothing about Redis.
func (c *Cache) Do(ctx context.Context, fn func(ctx context.Context, rdb redis.UniversalClient) error) error {
	return c.call(ctx, func(ctx context.Context) error { return fn(ctx, c.rdb) })
}

// Prefix returns the prefix of the Cache's keys (Options.Prefix).
func (c *Cache) Prefix() string { return c.opts.Prefix }

// record notes whether a command reached Redis, logging a change of state.
func (c *Cache) record(err error) {
	if err == nil || errors.Is(err, redis.Nil) {
		if c.down.Swap(false) {
			c.opts.Logger.Info("redis reachable again; fetches are shared by the fleet")
		}
		return
	}
	c.errs.Add(1)
	c.downUntil.Store(time.Now().Add(c.opts.Backoff).UnixNano())
	if answeredWrongly(err) {
		c.bad.Store(&badReply{at: time.Now(), err: err.Error()})
	}
	if !c.down.Swap(true) {
		cause := err.Error()
		var ne net.Error
		if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
			cause = "no answer within " + c.opts.Timeout.String() + " (--redis-timeout)"
		}
		c.opts.Logger.Warn("redis unreachable; answering from the local cache and fetching directly",
			"redis", redisAddr(c.rdb), "cause", cause, "retry_in", c.opts.Backoff.String())
	}
}

// Get returns the value under key from Redis, keeping a local copy; from
// the local copy when Redis fails or has none (after a restart, say).
func (c *Cache) Get(key string) ([]byte, bool) {
	var v []byte
	err := c.call(context.Background(), func(ctx context.Context) error {
		r, err := c.rdb.Do(ctx, "GET", c.opts.Prefix+key).Result()
		if err != nil {
			return err
		}
		s, ok := r.(string)
		if !ok {
			return fmt.Errorf("%w: GET answered %T, not a string", ErrBadReply, r)
		}
		v = []byte(s)
		return nil
	})
	switch {
	case err == nil:
		c.hits.Add(1)
		c.local.Put(key, v)
		return v, true
	case errors.Is(err, redis.Nil):
		c.misses.Add(1)
	}
	return c.local.Get(key)
}

// Put stores value under key for DefaultTTL.
func (c *Cache) Put(key string, value []byte) { c.PutTTL(key, value, DefaultTTL) }

// PutTTL stores value under key for ttl, locally and in Redis; a ttl <= 0
// removes key.
func (c *Cache) PutTTL(key string, value []byte, ttl time.Duration) {
	if ttl <= 0 {
		if _, ok := c.local.Get(key); ok {
			c.local.Put(key, nil) // an empty value never decodes: a miss
		}
		_ = c.call(context.Background(), func(ctx context.Context) error {
			return c.rdb.Del(ctx, c.opts.Prefix+key).Err()
		})
		return
	}
	c.local.Put(key, value)
	_ = c.call(context.Background(), func(ctx context.Context) error {
		return c.rdb.Set(ctx, c.opts.Prefix+key, value, ttl).Err()
	})
}

func (c *Cache) leaseKey(key string) string { return c.opts.Prefix + "lease:" + key }

// TryLease takes the lease on key for ttl with SET NX PX.
func (c *Cache) TryLease(ctx context.Context, key string, ttl time.Duration) (string, bool, error) {
	var b [16]byte
	rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	var held bool
	err := c.call(ctx, func(ctx context.Context) (err error) {
		held, err = c.rdb.SetNX(ctx, c.leaseKey(key), token, ttl).Result()
		return err
	})
	if err != nil {
		return "", false, err
	}
	if held {
		c.leases.Add(1)
	}
	return token, held, nil
}

// release deletes a lease only for the token that holds it.
var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// extend sets a lease's expiry only for the token that holds it.
var extend = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`)

// Extend makes the lease on key last ttl more if token holds it.
func (c *Cache) Extend(ctx context.Context, key, token string, ttl time.Duration) (bool, error) {
	var n int64
	err := c.call(ctx, func(ctx context.Context) (err error) {
		n, err = extend.Run(ctx, c.rdb, []string{c.leaseKey(key)}, token, ttl.Milliseconds()).Int64()
		return err
	})
	return n == 1, err
}

// Release ends the lease on key if token holds it.
func (c *Cache) Release(key, token string) {
	_ = c.call(context.Background(), func(ctx context.Context) error {
		return release.Run(ctx, c.rdb, []string{c.leaseKey(key)}, token).Err()
	})
}

// WaitLease polls the lease on key (every 10 ms at first, then up to every
// 100 ms) until nobody holds it.
func (c *Cache) WaitLease(ctx context.Context, key string) error {
	c.waits.Add(1)
	delay := 10 * time.Millisecond
	for {
		var n int64
		err := c.call(ctx, func(ctx context.Context) (err error) {
			n, err = c.rdb.Exists(ctx, c.leaseKey(key)).Result()
			return err
		})
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		if n == 0 {
			return nil
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		delay = min(delay*2, 100*time.Millisecond)
	}
}

// LogDriverTo sends the go-redis driver's own messages (failed dials in
// its connection pool, ...) to l at debug level instead of standard error.
// The driver's logger is global: this affects every go-redis client of
// the process. A Cache already logs Redis becoming unreachable, once.
// It may be called again while clients run (a process serving twice, as
// the tests do): the driver's logger is set once, and it writes to the
// last l given. Setting the driver's logger again raced with the pool's
// goroutines still dialing for an earlier client.
func LogDriverTo(l *slog.Logger) {
	driverLogger.Store(l)
	driverLogOnce.Do(func() { redis.SetLogger(driverLog{}) })
}

var (
	driverLogger  atomic.Pointer[slog.Logger]
	driverLogOnce sync.Once
)

type driverLog struct{}

func (driverLog) Printf(ctx context.Context, format string, v ...any) {
	driverLogger.Load().DebugContext(ctx, "redis driver: "+fmt.Sprintf(format, v...))
}

// redisAddr names the server a client talks to, for a log line (no
// password: only the address).
func redisAddr(rdb redis.UniversalClient) string {
	if c, ok := rdb.(*redis.Client); ok {
		return c.Options().Addr
	}
	return "the configured servers"
}
