// Package rediscache is a cache.Shared on Redis (or Valkey): the store a
// fleet of crawlers shares so that each site sees one robots.txt request
// per expiry from all of them, not one per machine.
//
// The Redis may be one server, a Redis Cluster or a primary behind
// Sentinels (Dial, or New with any redis.UniversalClient). Values are kept
// under Prefix+key with the time to live sitetxt asks for, the key's URL
// origin in a hash tag so that a site's keys share a cluster's slot; a
// fetch's lease is a key Prefix+"lease:"+key set with SET NX PX, so a
// crashed holder's lease expires by itself, and released by a script that
// deletes it only for its own token.
//
// Redis is an optimisation, never a dependency of an answer. Every command
// has a short deadline (Options.Timeout); when one fails, the Cache answers
// from its local copy (Options.Local, in memory by default) and reports
// errors for Options.Backoff without asking that server (a cluster's
// shard: the others go on), so sitetxt fetches directly meanwhile. The
// change of state is logged once each way, and Stats, Shards and Health
// say what happened, for metrics and /healthz.
package rediscache

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
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
	rdb    redis.UniversalClient
	opts   Options
	local  cache.Cache
	shards *shards

	hits, misses, wrong, fallbacks, leases, waits atomic.Uint64
	// bad is the last reply of the wrong type, found above the client's
	// hooks (Get's, say): when, and what.
	bad atomic.Pointer[failure]
}

var _ cache.Shared = (*Cache)(nil)

// ErrUnavailable is the error of a command not sent because its server
// failed less than Options.Backoff ago.
var ErrUnavailable = errors.New("redis unavailable (backing off)")

// New returns a Cache on rdb, a client the caller configured (a
// redis.Client, a ClusterClient, a failover client of Sentinels); its own
// timeouts still apply to each command. New adds hooks to rdb (to each
// node of a cluster as the client makes them: give New a client that has
// not sent commands yet) that follow each server and back off from one
// that failed, for every command sent on rdb (shards.go).
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
	c := &Cache{rdb: rdb, opts: opts, local: opts.Local, shards: shardsOf(rdb, opts)}
	if c.local == nil {
		c.local = new(cache.Memory)
	}
	return c
}

// Close closes the Redis client.
func (c *Cache) Close() error {
	c.shards.release()
	return c.rdb.Close()
}

// Client returns the Redis client the Cache uses, for other stores on
// the same servers (pace/redispace): they share its servers' backoff and
// counters.
func (c *Cache) Client() redis.UniversalClient { return c.rdb }

// Stats are a Cache's counters since it was made.
type Stats struct {
	Hits, Misses uint64 // Get answered by Redis
	Errors       uint64 // commands that failed (timeout, connection refused, ...), whichever store on the client sent them
	Fallbacks    uint64 // operations answered locally because Redis failed or was backed off
	Leases       uint64 // leases taken (fetches this process made for the fleet)
	LeaseWaits   uint64 // waits for another holder's lease
}

// Stats returns the counters.
func (c *Cache) Stats() Stats {
	return Stats{Hits: c.hits.Load(), Misses: c.misses.Load(), Errors: c.shards.errs.Load() + c.wrong.Load(),
		Fallbacks: c.fallbacks.Load(), Leases: c.leases.Load(), LeaseWaits: c.waits.Load()}
}

// Up reports whether the last command to each server reached it.
func (c *Cache) Up() bool { return c.shards.up() }

// Ping asks Redis whether it is there, within ctx and Options.Timeout.
func (c *Cache) Ping(ctx context.Context) error {
	return c.call(ctx, func(ctx context.Context) error { return c.rdb.Ping(ctx).Err() })
}

// call runs one command with the Cache's deadline. The client's hooks
// back off from a server that failed and count what happened
// (shards.go); a reply of the wrong type, which only the caller sees,
// is counted here.
func (c *Cache) call(ctx context.Context, fn func(ctx context.Context) error) error {
	cctx, cancel := context.WithTimeoutCause(ctx, c.opts.Timeout, errDeadline)
	defer cancel()
	err := fn(cctx)
	if err == nil || errors.Is(err, redis.Nil) {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err() // the caller gave up: says nothing about Redis
	}
	if wrongType(err) {
		c.wrong.Add(1)
		c.bad.Store(&failure{at: time.Now(), state: StateFailing, cause: CauseBadReply, err: err.Error()})
	}
	c.fallbacks.Add(1)
	return err
}

// wrongType reports whether err is a reply refused: too large (reply.go),
// or of the wrong type, found by the Cache or the driver.
func wrongType(err error) bool {
	if errors.Is(err, ErrBadReply) {
		return true
	}
	msg := err.Error()
	return strings.HasPrefix(msg, "redis: unexpected type") || strings.HasPrefix(msg, "redis: can't parse") ||
		strings.HasPrefix(msg, "redis: invalid reply")
}

// Do runs fn's commands on the Cache's Redis as the Cache runs its own:
// with its deadline (Options.Timeout), not at all to a server backed off
// (ErrUnavailable), and counted in Stats and Up, a failure starting the
// server's backoff. It is for other stores on the same Redis (the fleet's
// pacer, pace/redispace), whose keys should start with Prefix. An error
// that is the caller's own (ctx ended) says nothing about Redis.
func (c *Cache) Do(ctx context.Context, fn func(ctx context.Context, rdb redis.UniversalClient) error) error {
	return c.call(ctx, func(ctx context.Context) error { return fn(ctx, c.rdb) })
}

// Prefix returns the prefix of the Cache's keys (Options.Prefix).
func (c *Cache) Prefix() string { return c.opts.Prefix }

// Get returns the value under key from Redis, keeping a local copy; from
// the local copy when Redis fails or has none (after a restart, say).
func (c *Cache) Get(key string) ([]byte, bool) {
	var v []byte
	err := c.call(context.Background(), func(ctx context.Context) error {
		r, err := c.rdb.Do(ctx, "GET", c.key(key)).Result()
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
			return c.rdb.Del(ctx, c.key(key)).Err()
		})
		return
	}
	c.local.Put(key, value)
	_ = c.call(context.Background(), func(ctx context.Context) error {
		return c.rdb.Set(ctx, c.key(key), value, ttl).Err()
	})
}

// key is the Redis key of a value: Prefix+key, its URL's origin in a
// hash tag ("sitetxt:{https://example.org}/robots.txt", the failure
// record "sitetxt:failure:{https://example.org}/robots.txt", the lease
// "sitetxt:lease:{...}..."). On a Redis Cluster a site's keys then live
// in one slot, so that a dead primary stops the sharing of its own sites
// only (a third of them of three shards) rather than of every site one
// of whose keys it held (five ninths); the sites spread over every shard.
// A "{" in key is written %7B (as in a URL), so that no stranger's URL
// names a tag of its own. A key without a URL is hashed whole.
func (c *Cache) key(key string) string {
	key = strings.ReplaceAll(key, "{", "%7B")
	if i := strings.Index(key, "://"); i > 0 {
		start, end := i, i+3
		for start > 0 && isSchemeByte(key[start-1]) {
			start--
		}
		for end < len(key) && !strings.ContainsRune("/?#", rune(key[end])) {
			end++
		}
		if start < i && end > i+3 {
			key = key[:start] + "{" + key[start:end] + "}" + key[end:]
		}
	}
	return c.opts.Prefix + key
}

// isSchemeByte reports whether b may be in a URL's scheme (RFC 3986 3.1).
func isSchemeByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '+' || b == '-' || b == '.'
}

func (c *Cache) leaseKey(key string) string { return c.key("lease:" + key) }

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
