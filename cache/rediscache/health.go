package rediscache

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// HealthWindow is how long after Redis answered wrongly Health says so.
const HealthWindow = time.Minute

// How often a cluster's map of slots is loaded again: every refreshEvery,
// and after a failure at most every reloadGap.
const (
	refreshEvery = time.Second
	reloadGap    = 250 * time.Millisecond
)

// Health is what a Cache knows of its Redis (Cache.Health).
type Health struct {
	// State is StateUp; StateDown when a server does not answer or a
	// cluster says it cannot serve (some keys are not shared meanwhile);
	// StateFailing when a reply in the last HealthWindow was not the
	// answer asked for (too large, of the wrong type, an error reply).
	State string
	// Cause is the class of the first cause found when not up (the
	// Cause* constants): our own words, never a server's.
	Cause string
	// Detail is that cause's error: it may quote a server, so it is for
	// the operator, not for strangers.
	Detail string
	// Cluster is the state of a Redis Cluster; nil for one server.
	Cluster *ClusterHealth
	// Shards are the servers the client sends commands to (a cluster's
	// primaries), by address.
	Shards []ShardHealth
}

// ClusterHealth is a Redis Cluster's state, as its primaries see it.
type ClusterHealth struct {
	// State is "ok" when every primary answered CLUSTER INFO with
	// cluster_state:ok, else "fail".
	State string
	// Shards are the primaries the client's map of slots names, ShardsUp
	// those that answered "ok".
	Shards, ShardsUp int
}

// ShardHealth is one server's state and counters.
type ShardHealth struct {
	Addr                 string
	State, Cause, Detail string
	// Errors are the commands that failed on it; Moved and Ask the
	// redirections it answered (a cluster's slot elsewhere, or moving).
	Errors, Moved, Ask uint64
	// Gone is set when the client no longer sends the server commands (a
	// cluster's map names it no primary): its counters stay.
	Gone bool
}

// Shards returns each server's state as the last commands left it, and
// its counters, without asking anything: every server the client sent
// commands to, those no longer in use (a cluster's primary replaced)
// marked Gone.
func (c *Cache) Shards() []ShardHealth {
	var out []ShardHealth
	for _, sh := range c.shards.list(true) {
		h := sh.health(nil, false)
		h.Gone = sh.gone.Load()
		out = append(out, h)
	}
	return out
}

// health is the shard's state: from err, the answer to a probe when
// probed, else from its last failure.
func (sh *shard) health(err error, probed bool) ShardHealth {
	h := ShardHealth{Addr: sh.addr, State: StateUp, Errors: sh.errs.Load(), Moved: sh.moved.Load(), Ask: sh.ask.Load()}
	last := sh.last.Load()
	switch state, cause := classify(err, sh.set.cluster != nil); {
	case err == ErrUnavailable || !probed && sh.down.Load():
		if last != nil {
			h.State, h.Cause, h.Detail = last.state, last.cause, last.err
		}
	case state != "":
		h.State, h.Cause, h.Detail = state, cause, err.Error()
	case probed && last != nil && last.state == StateFailing && time.Since(last.at) < HealthWindow:
		h.State, h.Cause, h.Detail = last.state, last.cause, last.err
	}
	return h
}

// Health asks each server whether it is there, within ctx and
// Options.Timeout (a cluster's primaries their CLUSTER INFO), and says
// how Redis is doing. The Cache answers from its local copy meanwhile.
func (c *Cache) Health(ctx context.Context) Health {
	var h Health
	if c.shards.cluster != nil {
		h = c.clusterHealth(ctx)
	} else {
		err := c.Ping(ctx)
		for _, sh := range c.shards.list(false) {
			h.Shards = append(h.Shards, sh.health(err, true))
		}
	}
	h.State = StateUp
	for _, sh := range h.Shards {
		if sh.State != StateUp && (h.State == StateUp || sh.State == StateFailing && h.State != StateFailing) {
			h.State, h.Cause, h.Detail = sh.State, sh.Cause, sh.Detail
		}
	}
	if b := c.bad.Load(); b != nil && time.Since(b.at) < HealthWindow && h.State != StateFailing {
		h.State, h.Cause, h.Detail = StateFailing, b.cause, b.err
	}
	if h.State == StateUp && h.Cluster != nil && h.Cluster.State != "ok" {
		h.State, h.Cause, h.Detail = StateDown, CauseClusterFail, "cluster_state is not ok"
	}
	if h.State == StateUp && len(h.Shards) == 0 {
		h.State, h.Cause = StateDown, CauseUnreachable
	}
	return h
}

// clusterHealth asks each primary of the map of slots (loaded again) for
// CLUSTER INFO.
func (c *Cache) clusterHealth(ctx context.Context) Health {
	cl := &ClusterHealth{State: "ok"}
	h := Health{Cluster: cl}
	var mu sync.Mutex
	err := c.call(ctx, func(ctx context.Context) error {
		return c.shards.cluster.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
			info, err := node.ClusterInfo(ctx).Result()
			ok := err == nil && strings.Contains(info, "cluster_state:ok")
			mu.Lock()
			defer mu.Unlock()
			cl.Shards++
			if ok {
				cl.ShardsUp++
			} else {
				cl.State = "fail"
			}
			h.Shards = append(h.Shards, c.shards.get(node.Options().Addr).health(err, true))
			return nil
		})
	})
	if err != nil {
		state, cause := classify(err, true)
		h.Shards = append(h.Shards, ShardHealth{Addr: "cluster", State: state, Cause: cause, Detail: err.Error()})
		cl.State = "fail"
	}
	return h
}

// reload asks a cluster's client to load the map of slots again, at most
// every reloadGap.
func (s *shards) reload() {
	if s.cluster == nil {
		return
	}
	now := time.Now().UnixNano()
	last := s.lastReload.Load()
	if now-last < int64(reloadGap) || !s.lastReload.CompareAndSwap(last, now) {
		return
	}
	s.cluster.ReloadState(context.Background())
}

// refresh loads a cluster's map of slots every refreshEvery, until the
// client is closed or its last Cache is, and marks the shards it no
// longer names as primaries gone.
func (s *shards) refresh() {
	t := time.NewTicker(refreshEvery)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), max(s.timeout, time.Second))
		masters := map[string]bool{}
		var mu sync.Mutex
		err := s.cluster.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
			mu.Lock()
			masters[node.Options().Addr] = true
			mu.Unlock()
			return nil
		})
		cancel()
		if err == redis.ErrClosed {
			return
		}
		if err != nil || len(masters) == 0 {
			continue
		}
		s.mu.Lock()
		for addr, sh := range s.all {
			sh.gone.Store(!masters[addr])
		}
		s.mu.Unlock()
		for addr := range masters {
			s.get(addr)
		}
	}
}
