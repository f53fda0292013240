package serve

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/sitetxt/sitetxt/cache/rediscache"
)

// shardMetrics expose each Redis server the process sends commands to (a
// cluster's primaries: its shards; the one server otherwise), labelled
// by its address: whether its last command worked, the commands that
// failed on it, and the redirections it answered (MOVED: the slot is
// another primary's; ASK: the slot is moving).
type shardMetrics struct {
	rc                    *rediscache.Cache
	up, errs, redirection *prometheus.Desc
}

func newShardMetrics(rc *rediscache.Cache) *shardMetrics {
	return &shardMetrics{rc: rc,
		up: prometheus.NewDesc("sitetxt_redis_shard_up",
			"1 when the last command to this Redis server (a cluster's shard) worked, 0 while its keys are answered locally.", []string{"shard"}, nil),
		errs: prometheus.NewDesc("sitetxt_redis_shard_errors_total",
			"Redis commands that failed on this server (timeout, refused, CLUSTERDOWN, a bad reply, ...).", []string{"shard"}, nil),
		redirection: prometheus.NewDesc("sitetxt_redis_redirections_total",
			"Redirections this Redis Cluster node answered: moved (the slot is another primary's) or ask (the slot is moving).", []string{"shard", "kind"}, nil),
	}
}

func (m *shardMetrics) Describe(ch chan<- *prometheus.Desc) {
	ch <- m.up
	ch <- m.errs
	ch <- m.redirection
}

func (m *shardMetrics) Collect(ch chan<- prometheus.Metric) {
	for _, sh := range m.rc.Shards() {
		if !sh.Gone {
			up := 0.0
			if sh.State == rediscache.StateUp {
				up = 1
			}
			ch <- prometheus.MustNewConstMetric(m.up, prometheus.GaugeValue, up, sh.Addr)
		}
		ch <- prometheus.MustNewConstMetric(m.errs, prometheus.CounterValue, float64(sh.Errors), sh.Addr)
		ch <- prometheus.MustNewConstMetric(m.redirection, prometheus.CounterValue, float64(sh.Moved), sh.Addr, "moved")
		ch <- prometheus.MustNewConstMetric(m.redirection, prometheus.CounterValue, float64(sh.Ask), sh.Addr, "ask")
	}
}
