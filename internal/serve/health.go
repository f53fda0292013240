package serve

import (
	"encoding/json"
	"net/http"

	"github.com/sitetxt/sitetxt/cache/rediscache"
)

// health is the answer of GET /healthz. Anyone may ask it (load
// balancers do): it says whether serve is serving, whether Redis is up,
// down or failing and the class of the cause, in our own words, and a
// cluster's state. What a server said (its error replies, its address)
// is the operator's: only a request with the bearer token (when serve
// has one) gets it, in redis_error and shards.
type health struct {
	Status     string         `json:"status"`
	Redis      string         `json:"redis"`
	RedisCause string         `json:"redis_cause,omitempty"`
	Cluster    *clusterHealth `json:"cluster,omitempty"`
	RedisError string         `json:"redis_error,omitempty"`
	Shards     []shardHealth  `json:"shards,omitempty"`
}

type clusterHealth struct {
	State    string `json:"state"`
	Shards   int    `json:"shards"`
	ShardsUp int    `json:"shards_up"`
}

type shardHealth struct {
	Addr   string `json:"addr"`
	State  string `json:"state"`
	Cause  string `json:"cause,omitempty"`
	Error  string `json:"error,omitempty"`
	Errors uint64 `json:"errors"`
	Moved  uint64 `json:"moved"`
	Ask    uint64 `json:"ask"`
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	out, code := health{Status: "ok", Redis: "none"}, http.StatusOK
	if s.draining.Load() {
		out.Status, code = "shutting down", http.StatusServiceUnavailable
	}
	if s.cfg.Redis != nil {
		h := s.cfg.Redis.Health(r.Context())
		out.Redis, out.RedisCause = h.State, h.Cause
		if c := h.Cluster; c != nil {
			out.Cluster = &clusterHealth{State: c.State, Shards: c.Shards, ShardsUp: c.ShardsUp}
		}
		if s.cfg.Token != "" && s.tokenOK(r) {
			out.RedisError, out.Shards = h.Detail, shardsOf(h.Shards)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(out)
}

func shardsOf(hs []rediscache.ShardHealth) []shardHealth {
	out := make([]shardHealth, 0, len(hs))
	for _, h := range hs {
		out = append(out, shardHealth{Addr: h.Addr, State: h.State, Cause: h.Cause, Error: h.Detail, Errors: h.Errors, Moved: h.Moved, Ask: h.Ask})
	}
	return out
}
