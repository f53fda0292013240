package rediscache_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// dialCluster returns a Cache on cl, as serve --redis-cluster makes one
// (with a 2 s deadline: a loaded test machine can miss 250 ms).
func dialCluster(t *testing.T, cl *redistest.Cluster, log *slog.Logger) *rediscache.Cache {
	t.Helper()
	c, err := rediscache.Dial(rediscache.Servers{Cluster: cl.Addrs()[:2]}, rediscache.Options{Logger: log, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestClusterKeysSpread: on a real Redis Cluster (three primaries, three
// replicas), the values, failure records and leases of 300 sites are
// read back by another process and spread over every primary, each
// site's keys in one slot; Health says the cluster is ok with three
// shards up.
func TestClusterKeysSpread(t *testing.T) {
	slowtest.Only(t, "a Redis Cluster of six redis-servers")
	cl := redistest.StartCluster(t)
	a, b := dialCluster(t, cl, slog.New(slog.DiscardHandler)), dialCluster(t, cl, slog.New(slog.DiscardHandler))
	ctx := context.Background()
	for i := range 300 {
		key := fmt.Sprintf("https://site%d.example/robots.txt", i)
		a.Put(key, []byte("v"+key))
		if _, held, err := a.TryLease(ctx, key, time.Minute); !held || err != nil {
			t.Fatalf("TryLease(%q) = %v, %v", key, held, err)
		}
		if i%2 == 0 {
			a.Put("failure:"+key, []byte("f"))
		}
	}
	for i := range 300 {
		key := fmt.Sprintf("https://site%d.example/robots.txt", i)
		if v, ok := b.Get(key); !ok || string(v) != "v"+key {
			t.Fatalf("Get(%q) from another process = %q, %v", key, v, ok)
		}
		if _, held, _ := b.TryLease(ctx, key, time.Minute); held {
			t.Fatalf("TryLease(%q) from another process: held; want the first process's lease", key)
		}
	}
	for _, key := range []string{"https://a.example/s?{x}", "https://b.example/s?{x}"} {
		a.Put(key, []byte("braces"))
	}
	keys, err := cl.Keys()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("keys per primary (752 in all: 300 values, 300 leases, 150 failure records, 2 values with a brace): %v", keys)
	total := 0
	for addr, n := range keys {
		total += n
		if n < 150 {
			t.Errorf("primary %s holds %d keys of %d; want about a third", addr, n, 752)
		}
	}
	if len(keys) != 3 || total != 752 {
		t.Errorf("keys per primary = %v (%d in all); want 752 on 3 primaries", keys, total)
	}
	// A site's keys share a slot; two sites' do not.
	slot := func(key string) string {
		s, err := redistest.Command(cl.Nodes[0].Addr, "CLUSTER", "KEYSLOT", key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	site := "https://site7.example/robots.txt"
	if v, l, f := slot(rediscache.Key(a, site)), slot(rediscache.Key(a, "lease:"+site)), slot(rediscache.Key(a, "failure:"+site)); v != l || v != f ||
		v == slot(rediscache.Key(a, "https://site8.example/robots.txt")) {
		t.Errorf("slots of a site's value, lease and failure record = %s, %s, %s; want one, and another site's elsewhere", v, l, f)
	}
	h := a.Health(ctx)
	if h.State != "up" || h.Cluster == nil || *h.Cluster != (rediscache.ClusterHealth{State: "ok", Shards: 3, ShardsUp: 3}) || len(h.Shards) != 3 {
		t.Errorf("Health = %+v (cluster %+v); want up, ok with 3 of 3 shards", h, h.Cluster)
	}
}

// TestClusterFailover: a primary is killed while a process reads 300
// keys in a loop, on a cluster that serves the slots it can meanwhile
// (cluster-require-full-coverage no; by default every node answers
// CLUSTERDOWN until a replica is promoted). No Get fails (one whose
// shard is down answers from the local copy); the keys of the two other
// shards go on through Redis meanwhile (the backoff is per shard); and
// once the cluster has promoted the replica (cluster_state:ok), every
// key goes through Redis again within the map's refresh and a backoff.
func TestClusterFailover(t *testing.T) {
	slowtest.Only(t, "a Redis Cluster of six redis-servers, a primary killed")
	cl := redistest.StartCluster(t, "--cluster-require-full-coverage", "no")
	c := dialCluster(t, cl, slog.New(slog.DiscardHandler))
	const n = 300
	key := func(i int) string { return fmt.Sprintf("https://site%d.example/robots.txt", i) }
	for i := range n {
		c.Put(key(i), []byte(key(i)))
	}
	primaries, err := cl.Primaries()
	if err != nil || len(primaries) != 3 {
		t.Fatalf("Primaries() = %v, %v", primaries, err)
	}
	var stop atomic.Bool
	var rounds, wrong, hitsWhileDown atomic.Int64
	var downAt, okAt atomic.Int64 // unix nanoseconds
	var wg sync.WaitGroup
	wg.Go(func() {
		for !stop.Load() {
			for i := range n {
				before := c.Stats().Hits
				if v, ok := c.Get(key(i)); !ok || string(v) != key(i) {
					wrong.Add(1)
				}
				if downAt.Load() != 0 && okAt.Load() == 0 && c.Stats().Hits > before {
					hitsWhileDown.Add(1)
				}
			}
			rounds.Add(1)
		}
	})
	time.Sleep(500 * time.Millisecond)
	downAt.Store(time.Now().UnixNano())
	primaries[0].Stop()
	if err := cl.WaitOK(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	okAt.Store(time.Now().UnixNano())
	promoted := time.Duration(okAt.Load() - downAt.Load())
	stop.Store(true)
	wg.Wait()
	// From now on, every key through Redis: measure when the last Get
	// that was not a hit came.
	var lastMiss time.Duration
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		s := c.Stats()
		for i := range n {
			c.Get(key(i))
		}
		if e := c.Stats(); e.Hits-s.Hits != n {
			lastMiss = time.Since(time.Unix(0, okAt.Load()))
		}
	}
	t.Logf("primary %s killed; the cluster was ok again (a replica promoted) %v later; Gets through Redis on the other shards meanwhile: %d; "+
		"the last Get not answered by Redis came %v after the cluster was ok; %d rounds of %d Gets, %d wrong",
		primaries[0].Addr, promoted.Round(time.Millisecond), hitsWhileDown.Load(), lastMiss.Round(time.Millisecond), rounds.Load(), n, wrong.Load())
	if wrong.Load() != 0 {
		t.Errorf("%d Gets answered wrongly or not at all; want none (the local copy answers)", wrong.Load())
	}
	if hitsWhileDown.Load() == 0 {
		t.Errorf("no Get went through Redis while a primary was down; want the other shards' keys to (a backoff per shard)")
	}
	if lastMiss > 5*time.Second {
		t.Errorf("Gets still missed Redis %v after the cluster was ok; want within the map's refresh (1 s) and a backoff (2 s)", lastMiss)
	}
	if h := c.Health(context.Background()); h.State != "up" || h.Cluster == nil || h.Cluster.ShardsUp != 3 {
		t.Errorf("Health after the failover = %+v (cluster %+v); want up, 3 shards", h, h.Cluster)
	}
	for _, sh := range c.Shards() {
		if sh.Addr == primaries[0].Addr && (sh.Errors == 0 || !sh.Gone) {
			t.Errorf("the dead primary's shard = %+v; want its errors counted, and gone (no longer a primary)", sh)
		}
	}
}

// TestClusterRedirections: a slot given to another primary behind the
// client's back answers MOVED, and a slot being migrated ASK; the Cache
// follows both (the value comes back) and counts each for the node that
// answered it (Shards, /metrics).
func TestClusterRedirections(t *testing.T) {
	slowtest.Only(t, "a Redis Cluster of six redis-servers, slots moved")
	cl := redistest.StartCluster(t)
	c := dialCluster(t, cl, slog.New(slog.DiscardHandler))
	primaries, err := cl.Primaries()
	if err != nil {
		t.Fatal(err)
	}
	id := map[string]string{} // address -> node ID
	for _, p := range primaries {
		if id[p.Addr], err = redistest.Command(p.Addr, "CLUSTER", "MYID"); err != nil {
			t.Fatal(err)
		}
	}
	// owner returns the primary serving key's slot, and another one.
	owner := func(key string) (slot string, from, to *redistest.Server) {
		slot, err := redistest.Command(primaries[0].Addr, "CLUSTER", "KEYSLOT", rediscache.Key(c, key))
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range primaries {
			// A primary serves GET of a key in its slot (a miss), else
			// answers MOVED.
			if _, err := redistest.Command(p.Addr, "GET", rediscache.Key(c, key)); err == nil || !strings.Contains(err.Error(), "MOVED") {
				return slot, p, primaries[(i+1)%len(primaries)]
			}
		}
		t.Fatalf("no primary serves slot %s", slot)
		return
	}
	counts := func(addr string) (moved, ask uint64) {
		for _, sh := range c.Shards() {
			if sh.Addr == addr {
				return sh.Moved, sh.Ask
			}
		}
		return 0, 0
	}

	moved := "https://moved.example/robots.txt"
	c.Get(moved) // the client learns the map, and that the key is missing
	slot, from, to := owner(moved)
	for _, p := range primaries { // the slot (empty) is another primary's now
		if _, err := redistest.Command(p.Addr, "CLUSTER", "SETSLOT", slot, "NODE", id[to.Addr]); err != nil {
			t.Fatal(err)
		}
	}
	c.Put(moved, []byte("v"))
	if v, ok := c.Get(moved); !ok || string(v) != "v" {
		t.Fatalf("Get after MOVED = %q, %v", v, ok)
	}
	if m, _ := counts(from.Addr); m == 0 {
		t.Errorf("MOVED answers counted for %s = 0; want the redirections it answered", from.Addr)
	}

	asked := "https://ask.example/robots.txt"
	c.Get(asked)
	slot, from, to = owner(asked)
	if _, err := redistest.Command(to.Addr, "CLUSTER", "SETSLOT", slot, "IMPORTING", id[from.Addr]); err != nil {
		t.Fatal(err)
	}
	if _, err := redistest.Command(from.Addr, "CLUSTER", "SETSLOT", slot, "MIGRATING", id[to.Addr]); err != nil {
		t.Fatal(err)
	}
	c.Put(asked, []byte("w")) // not on the migrating primary: ASK the importing one
	if v, ok := c.Get(asked); !ok || string(v) != "w" {
		t.Fatalf("Get after ASK = %q, %v", v, ok)
	}
	if _, a := counts(from.Addr); a < 2 {
		t.Errorf("ASK answers counted for %s = %d; want the two redirections it answered", from.Addr, a)
	}
	t.Logf("shards: %+v", c.Shards())
}
