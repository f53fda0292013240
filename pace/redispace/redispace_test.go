package redispace_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/internal/pacetest"
	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/pace"
	"github.com/sitetxt/sitetxt/pace/redispace"
)

// open returns a Cache on the Redis at url with a quiet logger, as one
// process of a fleet would have; its commands may take up to 5 s (on a
// loaded test machine the 250 ms default can time out, and the pacer
// would then, correctly, pace on its own).
func open(t *testing.T, url string) *rediscache.Cache {
	t.Helper()
	c, err := rediscache.Open(url, rediscache.Options{Logger: slog.New(slog.DiscardHandler), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestMain(m *testing.M) {
	rediscache.LogDriverTo(slog.New(slog.DiscardHandler)) // no pool messages from the test that stops Redis
	os.Exit(m.Run())
}

// TestPacerCases: the Redis pacer passes the cases of the in-process one,
// on the test's clock.
func TestPacerCases(t *testing.T) {
	srv := redistest.Start(t)
	pacetest.Run(t, func(t *testing.T, opts pace.Options) pace.Pacer {
		return redispace.Via(open(t, srv.URL()), opts)
	})
}

// TestPacerFleet: processes sharing a Redis (each its own Cache) get
// slots an interval apart from one queue, on Redis's clock; one that
// starts later (a restart) finds the queue where the others left it; a
// 429 reported by one pauses the site for all.
func TestPacerFleet(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	procs := []pace.Pacer{redispace.Via(open(t, srv.URL()), pace.Options{}), redispace.Via(open(t, srv.URL()), pace.Options{})}
	every := pace.Pace{Interval: 10 * time.Second}
	for k := range 6 {
		if k == 4 {
			procs = append(procs, redispace.Via(open(t, srv.URL()), pace.Options{})) // a process started anew
		}
		wait, err := procs[k%len(procs)].Acquire(ctx, "http://a.example", every)
		// The wait is k intervals less the time the earlier calls took
		// (milliseconds on Redis's clock; 2 s allows a starved machine).
		if want := time.Duration(k) * every.Interval; err != nil || wait > want || wait < want-2*time.Second {
			t.Errorf("slot %d: Acquire = %v, %v; want about %v", k, wait, err, want)
		}
	}
	p, err := procs[0].Report(ctx, "http://b.example", 429, "30")
	if err != nil || p.Wait != 30*time.Second || p.Cause != "retry-after" {
		t.Errorf("Report(429, 30) = %+v, %v; want 30s retry-after", p, err)
	}
	if wait, err := procs[1].Acquire(ctx, "http://b.example", every); err != nil || wait > 30*time.Second || wait < 28*time.Second {
		t.Errorf("Acquire on the other process after a 429 = %v, %v; want about 30s", wait, err)
	}
}

// TestPacerExpires: a site's key lives as long as its state matters: the
// interval after the last slot, and a pause plus the backoff's bound.
func TestPacerExpires(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	p := redispace.Via(open(t, srv.URL()), pace.Options{})
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer rdb.Close()
	p.Acquire(ctx, "http://a.example", pace.Pace{Interval: 2 * time.Second})
	if ttl := rdb.PTTL(ctx, rediscache.DefaultPrefix+"pace:{http://a.example}").Val(); ttl <= 0 || ttl > 2*time.Second {
		t.Errorf("TTL after one slot = %v, want (0, 2s]", ttl)
	}
	p.Acquire(ctx, "http://a.example", pace.Pace{Interval: 2 * time.Second})
	if ttl := rdb.PTTL(ctx, rediscache.DefaultPrefix+"pace:{http://a.example}").Val(); ttl <= 2*time.Second || ttl > 4*time.Second {
		t.Errorf("TTL after two slots = %v, want (2s, 4s]", ttl)
	}
	p.Report(ctx, "http://b.example", 500, "")
	if ttl := rdb.PTTL(ctx, rediscache.DefaultPrefix+"pace:{http://b.example}").Val(); ttl <= pace.DefaultBackoffMax || ttl > pace.DefaultBackoffMax+pace.DefaultBackoffBase {
		t.Errorf("TTL after a 500 = %v, want the backoff and its bound", ttl)
	}
}

// TestPacerRedisDown: without Redis each process paces on its own,
// keeping its distance from the slots it had from Redis; when Redis is
// back, the fleet shares one queue again.
func TestPacerRedisDown(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	clock := pacetest.NewClock()
	newProc := func() (*rediscache.Cache, pace.Pacer) {
		c, err := rediscache.Open(srv.URL(), rediscache.Options{Backoff: 100 * time.Millisecond, Timeout: 5 * time.Second, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c, redispace.Via(c, pace.Options{Now: clock.Now})
	}
	c1, p1 := newProc()
	_, p2 := newProc()
	every := pace.Pace{Interval: time.Second}
	acquire := func(p pace.Pacer, want time.Duration, what string) {
		t.Helper()
		if got, err := p.Acquire(ctx, "http://a.example", every); err != nil || got != want {
			t.Errorf("%s: Acquire = %v, %v; want %v", what, got, err, want)
		}
	}
	acquire(p1, 0, "process 1, Redis up")
	acquire(p2, time.Second, "process 2, Redis up")
	srv.Stop()
	acquire(p1, time.Second, "process 1, Redis down (after its own slot)")
	acquire(p1, 2*time.Second, "process 1, Redis down, again")
	acquire(p2, 2*time.Second, "process 2, Redis down (after its own slot)")
	if c1.Up() {
		t.Error("Up() = true after Redis stopped")
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(150 * time.Millisecond) // past the backoff
	clock.Advance(time.Minute)
	acquire(p1, 0, "process 1, Redis back")
	acquire(p2, time.Second, "process 2, Redis back: one queue again")
	if !c1.Up() {
		t.Error("Up() = false after Redis came back")
	}
}

// TestPacerKeys: a crawler's queue at a site is its own key, with the
// site in braces (a Redis Cluster hash tag: one slot for a site's
// queues), apart from another crawler's.
func TestPacerKeys(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	p := redispace.Via(open(t, srv.URL()), pace.Options{})
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer rdb.Close()
	every := pace.Pace{Interval: 2 * time.Second}
	for _, agent := range []string{"FooBot/2.1", "OtherBot"} {
		if w, err := p.Acquire(ctx, pace.Queue("http://a.example", agent), every); w != 0 || err != nil {
			t.Errorf("first slot of %s = %v, %v; want 0 (a queue of its own)", agent, w, err)
		}
	}
	keys, _ := rdb.Keys(ctx, "*").Result()
	slices.Sort(keys)
	want := []string{rediscache.DefaultPrefix + "pace:{http://a.example}:foobot", rediscache.DefaultPrefix + "pace:{http://a.example}:otherbot"}
	if !slices.Equal(keys, want) {
		t.Errorf("keys = %q, want %q", keys, want)
	}
}

// TestSharedSecret: the processes of a fleet get one secret through
// Redis, made by the first that asks; Redis restarted empty, the next
// process that asks makes another.
func TestSharedSecret(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	p1, p2 := redispace.Via(open(t, srv.URL()), pace.Options{}), redispace.Via(open(t, srv.URL()), pace.Options{})
	s1, err1 := p1.SharedSecret(ctx)
	s2, err2 := p2.SharedSecret(ctx)
	if err1 != nil || err2 != nil || len(s1) != 32 || !bytes.Equal(s1, s2) {
		t.Fatalf("SharedSecret = %x, %v and %x, %v; want the same 32 bytes", s1, err1, s2, err2)
	}
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer rdb.Close()
	rdb.FlushAll(ctx)
	s3, err := p2.SharedSecret(ctx)
	if err != nil || len(s3) != 32 || bytes.Equal(s3, s1) {
		t.Errorf("SharedSecret after Redis lost it = %x, %v; want a new one", s3, err)
	}
	if s4, _ := p1.SharedSecret(ctx); !bytes.Equal(s4, s3) {
		t.Errorf("the other process then reads %x, want %x", s4, s3)
	}
}
