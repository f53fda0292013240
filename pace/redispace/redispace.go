// Package redispace is the pace.Pacer of a crawler fleet, on the Redis
// its processes share for robots.txt (cache/rediscache): every process
// that asks it before fetching gets its own slot at a site, and the site
// sees the requests spaced as its robots.txt asks however many processes
// there are (docs/fleet.md, "One pace per site").
//
// Each site's state (the start of its last slot, a pause, a count of
// server errors) is one hash under the Cache's prefix + "pace:" + site,
// changed only by two Lua scripts, so that a slot is reserved atomically.
// The time is Redis's own (TIME), one clock for the fleet; a key expires
// when its state no longer matters, and a process that restarts finds its
// sites' pace where the fleet left it.
//
// Any redis.UniversalClient will do: one server, a Redis Cluster (each
// script touches the keys of one site, all in one slot, and the sites
// spread over every shard), a primary behind Sentinels. Redis is reached
// through a rediscache.Cache on that client (rediscache.Cache.Do): its
// deadline, its backoff from a server that failed, its Stats. While a
// site's server cannot be reached, each process paces that site on its
// own with a pace.Memory that has seen every slot it handed out: a site
// may then get one request per process per interval, until its server
// answers again.
package redispace

import (
	"context"
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
// Cache on rdb). opts.Now, when set, replaces Redis's clock (tests).
func New(rdb redis.UniversalClient, opts pace.Options) *Pacer {
	return Via(rediscache.New(rdb, rediscache.Options{}), opts)
}

// Via returns the fleet's Pacer whose commands go through c: c's prefix,
// deadline, backoff and Stats (serve's cache and pacer share one Cache).
func Via(c *rediscache.Cache, opts pace.Options) *Pacer {
	opts.Backoff = opts.Backoff.WithDefaults()
	return &Pacer{c: c, opts: opts, local: pace.NewMemory(opts)}
}

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
// (now plus ARGV[5] ms), moved into the Visit-time window (as
// pace.Window.Next does); it is stored as the last slot, and the key
// lives until the slot's interval is over (never less than it had to
// live). It answers the wait in milliseconds.
//
// KEYS[1] the site's hash; ARGV now (ms, 0: Redis's TIME), spacing (ms),
// window from and to (minutes after midnight UTC; from -1: none), floor
// (ms from now).
var reserve = redis.NewScript(luaNow + `local iv = tonumber(ARGV[2])
local s = redis.call('HMGET', KEYS[1], 'l', 'p')
local start = now
if s[1] then start = math.max(start, tonumber(s[1]) + iv) end
if s[2] then start = math.max(start, tonumber(s[2])) end
start = math.max(start, now + tonumber(ARGV[5]))
local from, to = tonumber(ARGV[3]), tonumber(ARGV[4])
if from >= 0 and from ~= to then
  local minute = math.floor(start / 60000)
  local m = minute % 1440
  if not ((from < to and m >= from and m < to) or (from > to and (m >= from or m < to))) then
    start = (minute + (from - m) % 1440) * 60000
  end
end
redis.call('HSET', KEYS[1], 'l', string.format('%d', start))
local keep = start + iv - now
if keep > redis.call('PTTL', KEYS[1]) then redis.call('PEXPIRE', KEYS[1], math.max(keep, 1)) end
return start - now
`)

// report is Report's script for a pause: kind "paused" pauses the site
// for ARGV[3] ms, "failed" counts a server error and pauses it for the
// backoff (base ARGV[4] ms doubling per error in a row, at most ARGV[5],
// as pace.Backoff.After); a pause never shortens one in force, and the
// key lives until the pause plus the backoff's bound are over. It
// answers the pause in force in milliseconds.
var report = redis.NewScript(luaNow + `local d = tonumber(ARGV[3])
local mx = tonumber(ARGV[5])
if ARGV[2] == 'failed' then
  local f = redis.call('HINCRBY', KEYS[1], 'f', 1)
  d = tonumber(ARGV[4])
  for i = 2, f do
    if d >= mx then break end
    d = d * 2
  end
  d = math.min(d, mx)
end
local p = math.max(tonumber(redis.call('HGET', KEYS[1], 'p') or 0), now + d)
redis.call('HSET', KEYS[1], 'p', string.format('%d', p))
local keep = p - now + mx
if keep > redis.call('PTTL', KEYS[1]) then redis.call('PEXPIRE', KEYS[1], keep) end
return p - now
`)

func (p *Pacer) key(site string) string { return p.c.Prefix() + "pace:" + site }

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

// Acquire reserves the site's next slot for the fleet, or, while Redis
// cannot be reached, for this process.
func (p *Pacer) Acquire(ctx context.Context, site string, pc pace.Pace) (time.Duration, error) {
	from, to := -1, -1
	if pc.Window != nil {
		from, to = pc.Window.From, pc.Window.To
	}
	// The floor is this process's next slot as it knows the site: every
	// slot Redis gave it, and those it gave on its own while Redis could
	// not be reached. Redis's slot comes no sooner, so that the slots a
	// process handed out before a restart of Redis (its state lost) or
	// while a primary failed over stay spaced once Redis is back.
	floor, err := p.local.Acquire(ctx, site, pc)
	if err != nil {
		return 0, err
	}
	var wait int64
	err = p.c.Do(ctx, func(ctx context.Context, rdb redis.UniversalClient) (err error) {
		wait, err = reserve.Run(ctx, rdb, []string{p.key(site)}, p.now(), ms(pc.Spacing()), from, to, ms(floor)).Int64()
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		return floor, nil // the slot this process booked on its own
	}
	d := time.Duration(wait) * time.Millisecond
	p.local.Reserved(site, p.localNow().Add(d), pc)
	return d, nil
}

// Report feeds back an answer of site for the fleet (and for this
// process, which keeps the pause should Redis go away).
func (p *Pacer) Report(ctx context.Context, site string, status int, retryAfter string) (pace.Pause, error) {
	local, err := p.local.Report(ctx, site, status, retryAfter)
	if err != nil {
		return local, err
	}
	out, d := pace.Classify(status, retryAfter, p.localNow())
	var in int64
	err = p.c.Do(ctx, func(ctx context.Context, rdb redis.UniversalClient) (err error) {
		if out == pace.Fine {
			return rdb.HDel(ctx, p.key(site), "f").Err()
		}
		kind := "paused"
		if out == pace.Failed {
			kind = "failed"
		}
		in, err = report.Run(ctx, rdb, []string{p.key(site)}, p.now(), kind, ms(d),
			ms(p.opts.Backoff.Base), ms(p.opts.Backoff.Max)).Int64()
		return err
	})
	if err != nil || out == pace.Fine {
		if ctx.Err() != nil {
			return pace.Pause{}, ctx.Err()
		}
		return local, nil
	}
	if in <= 0 {
		return pace.Pause{}, nil
	}
	cause := "retry-after"
	if out == pace.Failed {
		cause = "backoff"
	}
	return pace.Pause{Wait: time.Duration(in) * time.Millisecond, Cause: cause}, nil
}

// Len returns the number of sites this process paced lately (those its
// local pacer holds).
func (p *Pacer) Len() int { return p.local.Len() }
