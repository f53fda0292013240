// Package redispace is the pace.Pacer of a crawler fleet, on the Redis
// its processes share for robots.txt (cache/rediscache): every process
// that asks it before fetching gets its own slot at a site, and the site
// sees the requests spaced as its robots.txt asks however many processes
// there are (docs/fleet.md, "One pace per site and crawler").
//
// Each queue's state (the start of its last slot, a pause and its cause,
// a count of server errors) is one hash under the Cache's prefix +
// "pace:{" + site + "}" (+ ":" + crawler for a crawler's queue at the
// site, pace.Queue), changed only by two Lua scripts, so that a slot is
// reserved atomically; the site in braces is a Redis Cluster hash tag,
// which keeps one site's queues in one slot. The time is Redis's own
// (TIME), one clock for the fleet; a key expires when its state no longer
// matters, and a process that restarts finds its queues where the fleet
// left them.
//
// Any redis.UniversalClient will do: one server, a Redis Cluster (each
// script touches one queue's key, a site's queues share a slot, and the
// sites spread over every shard), a primary behind Sentinels. Redis is
// reached through a rediscache.Cache on that client
// (rediscache.Cache.Do): its deadline, its backoff from a server that
// failed, its Stats. While a queue's server cannot be reached, each
// process paces that queue on its own with a pace.Memory that has seen
// every slot it handed out: a site may then get one request per process
// per interval, until its server answers again. Each acquisition brings
// the process's next slot as it knows the queue to Redis (a floor), so
// that once Redis is back, or restarted empty, the slots the process
// handed out on its own or got before stay spaced from Redis's next.
package redispace

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/pace"
)

// Pacer is the fleet's pace.Pacer. Make one with New.
type Pacer struct {
	c     *rediscache.Cache
	opts  pace.Options
	local *pace.Memory
}

var _ pace.Pacer = (*Pacer)(nil)

// New returns the fleet's Pacer on rdb, its keys under
// rediscache.DefaultPrefix, through a rediscache.Cache on rdb with the
// default options (the backoff of rdb's servers is shared with every
// Cache on rdb). opts.Now, when set, replaces Redis's clock (tests);
// opts.MaxQueues bounds the process's own pace.Memory, not Redis (whose
// keys expire).
func New(rdb redis.UniversalClient, opts pace.Options) *Pacer {
	return Via(rediscache.New(rdb, rediscache.Options{}), opts)
}

// Via returns the fleet's Pacer whose commands go through c: c's prefix,
// deadline, backoff and Stats (serve's cache and pacer share one Cache).
func Via(c *rediscache.Cache, opts pace.Options) *Pacer {
	local := pace.NewMemory(opts)
	now := opts.Now
	opts = local.Options()
	opts.Now = now
	return &Pacer{c: c, opts: opts, local: local}
}

// Options returns the Options the Pacer applies (with their defaults).
func (p *Pacer) Options() pace.Options { return p.local.Options() }

// luaNow starts both scripts: now is ARGV[1] (Unix milliseconds), or
// when that is 0 Redis's own clock.
const luaNow = `
local now = tonumber(ARGV[1])
if now == 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`

// reserve is Acquire's script: the slot starts at the latest of now, the
// last slot plus the interval, the end of a pause and the caller's floor
// (now plus ARGV[6] ms), moved into the Visit-time window (as
// pace.Window.Next does). A slot more than the
// horizon from now is refused and nothing stored; else it is stored as
// the last slot, and the key lives until the slot's interval is over
// (never less than it had to live). It answers the wait in milliseconds
// and 1, or the wait the slot would have had and 0 when refused.
//
// KEYS[1] the queue's hash; ARGV now (ms, 0: Redis's TIME), spacing (ms),
// window from and to (minutes after midnight UTC; from -1: none), horizon
// (ms; 0: none), floor (ms from now).
var reserve = redis.NewScript(luaNow + `local iv = tonumber(ARGV[2])
local s = redis.call('HMGET', KEYS[1], 'l', 'p')
local start = now
if s[1] then start = math.max(start, tonumber(s[1]) + iv) end
if s[2] then start = math.max(start, tonumber(s[2])) end
start = math.max(start, now + tonumber(ARGV[6]))
local from, to = tonumber(ARGV[3]), tonumber(ARGV[4])
if from >= 0 and from ~= to then
  local minute = math.floor(start / 60000)
  local m = minute % 1440
  if not ((from < to and m >= from and m < to) or (from > to and (m >= from or m < to))) then
    start = (minute + (from - m) % 1440) * 60000
  end
end
local hz = tonumber(ARGV[5])
if hz > 0 and start - now > hz then return {start - now, 0} end
redis.call('HSET', KEYS[1], 'l', string.format('%d', start))
local keep = start + iv - now
if keep > redis.call('PTTL', KEYS[1]) then redis.call('PEXPIRE', KEYS[1], math.max(keep, 1)) end
return {start - now, 1}
`)

// report is Report's script. Kind "fine" ends a backoff (the count of
// server errors); "paused" pauses the queue for ARGV[3] ms (the caller
// has capped it by pace.Options.PauseMax); "failed" counts a server error
// and pauses the queue for the backoff (base ARGV[4] ms doubling per
// error in a row, at most ARGV[5], as pace.Backoff.After). A pause never
// shortens one in force, 'c' says what set the one in force ('b' a
// backoff, else a Retry-After), and the key lives until the pause plus
// the backoff's bound are over. It answers the pause in force in
// milliseconds (0: none) and its cause.
var report = redis.NewScript(luaNow + `local mx = tonumber(ARGV[5])
if ARGV[2] == 'fine' then
  redis.call('HDEL', KEYS[1], 'f')
  local s = redis.call('HMGET', KEYS[1], 'p', 'c')
  local p = tonumber(s[1] or 0)
  if p <= now then return {0, ''} end
  return {p - now, s[2] or 'r'}
end
local d, cause = tonumber(ARGV[3]), 'r'
if ARGV[2] == 'failed' then
  local f = redis.call('HINCRBY', KEYS[1], 'f', 1)
  d, cause = tonumber(ARGV[4]), 'b'
  for i = 2, f do
    if d >= mx then break end
    d = d * 2
  end
  d = math.min(d, mx)
end
local s = redis.call('HMGET', KEYS[1], 'p', 'c')
local p = tonumber(s[1] or 0)
if now + d > p then
  p = now + d
  redis.call('HSET', KEYS[1], 'p', string.format('%d', p), 'c', cause)
else
  cause = s[2] or 'r'
end
local keep = p - now + mx
if keep > redis.call('PTTL', KEYS[1]) then redis.call('PEXPIRE', KEYS[1], keep) end
return {p - now, cause}
`)

// key is the Redis key of a queue: the site in braces (one Redis
// Cluster slot for a site's queues), then the crawler of a crawler's
// queue.
func (p *Pacer) key(queue string) string {
	site, crawler := pace.SplitQueue(queue)
	k := p.c.Prefix() + "pace:{" + site + "}"
	if crawler != "" {
		k += ":" + crawler
	}
	return k
}

// now is the time the scripts are given: 0 for Redis's own clock.
func (p *Pacer) now() int64 {
	if p.opts.Now == nil {
		return 0
	}
	return p.opts.Now().UnixMilli()
}

func (p *Pacer) localNow() time.Time {
	if p.opts.Now == nil {
		return time.Now()
	}
	return p.opts.Now()
}

// ms rounds d up to milliseconds, the scripts' unit.
func ms(d time.Duration) int64 { return int64((d + time.Millisecond - 1) / time.Millisecond) }

// Acquire reserves the queue's next slot for the fleet, or, while Redis
// cannot be reached, for this process; none past the horizon.
func (p *Pacer) Acquire(ctx context.Context, queue string, pc pace.Pace) (time.Duration, error) {
	from, to := -1, -1
	if pc.Window != nil {
		from, to = pc.Window.From, pc.Window.To
	}
	// The floor is this process's next slot as it knows the queue: every
	// slot Redis gave it, and those it gave on its own while Redis could
	// not be reached. Redis's slot comes no sooner, so that the slots a
	// process handed out before a restart of Redis (its state lost) or
	// while a primary failed over stay spaced once Redis is back.
	floor := p.local.Next(queue, pc)
	var r []int64
	err := p.c.Do(ctx, func(ctx context.Context, rdb redis.UniversalClient) (err error) {
		r, err = reserve.Run(ctx, rdb, []string{p.key(queue)}, p.now(), ms(pc.Spacing()), from, to, ms(p.opts.Horizon), ms(floor)).Int64Slice()
		if err == nil && len(r) != 2 {
			err = fmt.Errorf("redis: the slot script answered %d values, want 2", len(r))
		}
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		return p.local.Acquire(ctx, queue, pc)
	}
	d := time.Duration(r[0]) * time.Millisecond
	if r[1] == 0 {
		return 0, &pace.HorizonError{Next: d, Horizon: p.opts.Horizon}
	}
	p.local.Reserved(queue, p.localNow().Add(d), pc)
	return d, nil
}

// Report feeds back an answer of the queue for the fleet (and for this
// process, which keeps the pause should Redis go away), and returns the
// pause in force for the fleet.
func (p *Pacer) Report(ctx context.Context, queue string, status int, retryAfter string) (pace.Pause, error) {
	local, err := p.local.Report(ctx, queue, status, retryAfter)
	if err != nil {
		return local, err
	}
	out, d := pace.Classify(status, retryAfter, p.localNow())
	kind := "fine"
	switch out {
	case pace.Paused:
		kind = "paused"
	case pace.Failed:
		kind = "failed"
	}
	var in int64
	var cause string
	err = p.c.Do(ctx, func(ctx context.Context, rdb redis.UniversalClient) error {
		r, err := report.Run(ctx, rdb, []string{p.key(queue)}, p.now(), kind, ms(min(d, p.opts.PauseMax)),
			ms(p.opts.Backoff.Base), ms(min(p.opts.Backoff.Max, p.opts.PauseMax))).Slice()
		if err != nil {
			return err
		}
		var ok1, ok2 bool
		if len(r) == 2 {
			in, ok1 = r[0].(int64)
			cause, ok2 = r[1].(string)
		}
		if !ok1 || !ok2 {
			return errors.New("redis: the report script answered something else than a pause and its cause")
		}
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return pace.Pause{}, ctx.Err()
		}
		return local, nil
	}
	if in <= 0 {
		return pace.Pause{}, nil
	}
	c := pace.CauseRetryAfter
	if cause == "b" {
		c = pace.CauseBackoff
	}
	return pace.Pause{Wait: time.Duration(in) * time.Millisecond, Cause: c}, nil
}

// secret is SharedSecret's script: the fleet's secret, made by the first
// process that asks (SET NX, without expiry: the secret must outlive
// every ticket signed with it).
var secret = redis.NewScript(`redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])
`)

// SharedSecret returns the secret the fleet's processes share through
// Redis, under the Cache's prefix + "pace:secret": 32 random bytes,
// stored by the first process that asks, read by the others. serve signs
// the tickets of its slots with it, so that any process of the fleet can
// verify them (docs/fleet.md).
func (p *Pacer) SharedSecret(ctx context.Context) ([]byte, error) {
	var fresh [32]byte
	rand.Read(fresh[:])
	var got string
	err := p.c.Do(ctx, func(ctx context.Context, rdb redis.UniversalClient) (err error) {
		got, err = secret.Run(ctx, rdb, []string{p.c.Prefix() + "pace:secret"}, hex.EncodeToString(fresh[:])).Text()
		return err
	})
	if err != nil {
		return nil, err
	}
	b, err := hex.DecodeString(got)
	if err != nil || len(b) < 16 {
		return nil, errors.New("redis: the fleet's pace secret is not 16 or more bytes in hexadecimal")
	}
	return b, nil
}

// Len returns the number of queues this process paced lately (those its
// local pacer holds).
func (p *Pacer) Len() int { return p.local.Len() }

// Evicted returns the number of queues whose state the local pacer
// dropped for room (pace.Options.MaxQueues).
func (p *Pacer) Evicted() int64 { return p.local.Evicted() }
