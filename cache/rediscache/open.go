package rediscache

import (
	"crypto/tls"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// Servers say where a fleet's Redis is: one server (URL), a Redis
// Cluster (Cluster), or a primary its Sentinels watch (Master and
// Sentinels). Exactly one of URL, Cluster and Sentinels is set.
type Servers struct {
	// URL is one server: "redis://host:6379/0",
	// "rediss://user:password@host/1" (TLS), "unix:///run/redis.sock".
	URL string
	// Cluster are seed nodes of a Redis Cluster, as host:port; the client
	// learns the others from them.
	Cluster []string
	// Master is the name the Sentinels know the primary by, Sentinels
	// their addresses (host:port).
	Master    string
	Sentinels []string
	// Username and Password authenticate to the servers of a Cluster or
	// of the Sentinels' primary (a URL carries its own);
	// SentinelPassword to the Sentinels themselves.
	Username, Password, SentinelPassword string
	// TLS, when set, connects to the servers of a Cluster or of Sentinels
	// (and to the Sentinels) over TLS; a config without ServerName
	// verifies each server's certificate for the host it is dialled at.
	TLS *tls.Config
}

// Dial returns a Cache on the servers s names, with a client made as Open
// makes one.
func Dial(s Servers, opts Options) (*Cache, error) {
	rdb, err := NewClient(s, opts)
	if err != nil {
		return nil, err
	}
	return New(rdb, opts), nil
}

// Open connects to the Redis at url ("redis://host:6379/0",
// "rediss://user:password@host/1", "unix:///run/redis.sock"): Dial with
// Servers{URL: url}.
func Open(url string, opts Options) (*Cache, error) { return Dial(Servers{URL: url}, opts) }

// NewClient returns a client of the servers s names, made for a Cache:
// short timeouts (Options.Timeout for a dial, a read, a write, a wait for
// a pooled connection), one dial a try and no retries, and every reply
// checked (Options.MaxReply, reply.go) on every connection, to each node
// of a cluster and to the Sentinels too: a slow or misbehaving Redis must
// not slow the answers or fill the memory. It does not wait for Redis to
// be reachable. (A client given to New is used as its caller configured
// it.)
func NewClient(s Servers, opts Options) (redis.UniversalClient, error) {
	t := opts.Timeout
	if t <= 0 {
		t = DefaultTimeout
	}
	maxReply := opts.MaxReply
	if maxReply <= 0 {
		maxReply = DefaultMaxReply
	}
	switch {
	case s.URL != "" && len(s.Cluster) == 0 && len(s.Sentinels) == 0:
		o, err := redis.ParseURL(s.URL)
		if err != nil {
			return nil, fmt.Errorf("redis url: %w", err)
		}
		if o.Password == "" && s.Password != "" {
			o.Username, o.Password = s.Username, s.Password
		}
		o.DialTimeout, o.ReadTimeout, o.WriteTimeout, o.PoolTimeout = t, t, t, t
		o.MaxRetries, o.DialerRetries = -1, 1
		o.Dialer = guardDialer(t, maxReply, o.TLSConfig)
		o.ContextTimeoutEnabled = true
		o.MaintNotificationsConfig = noMaint()
		return redis.NewClient(o), nil
	case len(s.Cluster) > 0 && s.URL == "" && len(s.Sentinels) == 0:
		return redis.NewClusterClient(&redis.ClusterOptions{Addrs: s.Cluster, Username: s.Username, Password: s.Password,
			DialTimeout: t, ReadTimeout: t, WriteTimeout: t, PoolTimeout: t, MaxRetries: -1, DialerRetries: 1,
			Dialer: guardDialer(t, maxReply, s.TLS), TLSConfig: s.TLS, ContextTimeoutEnabled: true,
			MaintNotificationsConfig: noMaint()}), nil
	case len(s.Sentinels) > 0 && s.URL == "" && len(s.Cluster) == 0:
		if s.Master == "" {
			return nil, errors.New("redis sentinel: no primary's name")
		}
		return redis.NewFailoverClient(&redis.FailoverOptions{MasterName: s.Master, SentinelAddrs: s.Sentinels,
			SentinelPassword: s.SentinelPassword, Username: s.Username, Password: s.Password,
			DialTimeout: t, ReadTimeout: t, WriteTimeout: t, PoolTimeout: t, MaxRetries: -1, DialerRetries: 1,
			Dialer: guardDialer(t, maxReply, s.TLS), TLSConfig: s.TLS, ContextTimeoutEnabled: true}), nil
	}
	return nil, errors.New("redis: give one of a URL, a cluster's nodes and Sentinels")
}

// noMaint turns off the driver's maintenance notifications (a feature of
// Redis Enterprise and Redis 8 servers): one command less on each new
// connection.
func noMaint() *maintnotifications.Config {
	return &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
}
