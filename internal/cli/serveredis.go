package cli

import (
	"cmp"
	"context"
	"crypto/tls"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/sitetxt/sitetxt/cache"
	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/internal/serve"
	"github.com/spf13/pflag"
)

// redisFlags are serve's options for the fleet's Redis: one server, a
// Redis Cluster or a primary behind Sentinels.
type redisFlags struct {
	URL          string
	Cluster      string
	Sentinel     string
	PasswordFile string
}

func (f *redisFlags) add(fl *pflag.FlagSet) {
	fl.StringVar(&f.URL, "redis", "", "share the cache, fetch leases and pace through this Redis (redis://host:6379/0; rediss:// for TLS)")
	fl.StringVar(&f.Cluster, "redis-cluster", "", "share them through this Redis Cluster: seed nodes ADDR[,ADDR...] (host:port; rediss://host:port for TLS)")
	fl.StringVar(&f.Sentinel, "redis-sentinel", "", "share them through the primary these Sentinels watch: MASTER@ADDR[,ADDR...] (host:port; rediss://host:port for TLS)")
	fl.StringVar(&f.PasswordFile, "redis-password-file", "", "the Redis password, in this file (else $REDIS_PASSWORD; Sentinels' own: $REDIS_SENTINEL_PASSWORD)")
}

// set reports whether serve is to use Redis.
func (f *redisFlags) set() bool { return f.URL != "" || f.Cluster != "" || f.Sentinel != "" }

// servers reads the flags and the password into rediscache.Servers.
func (f *redisFlags) servers(getenv func(string) string) (rediscache.Servers, error) {
	n := 0
	for _, v := range []string{f.URL, f.Cluster, f.Sentinel} {
		if v != "" {
			n++
		}
	}
	if n > 1 {
		return rediscache.Servers{}, usageError("give one of --redis, --redis-cluster and --redis-sentinel")
	}
	var s rediscache.Servers
	if f.PasswordFile != "" {
		b, err := os.ReadFile(f.PasswordFile)
		if err != nil {
			return s, usageError("--redis-password-file: %v", err)
		}
		if s.Password = strings.TrimRight(string(b), "\r\n"); s.Password == "" {
			return s, usageError("--redis-password-file %s is empty", f.PasswordFile)
		}
	} else {
		s.Password = getenv("REDIS_PASSWORD")
	}
	s.SentinelPassword = getenv("REDIS_SENTINEL_PASSWORD")
	var err error
	switch {
	case f.URL != "":
		s.URL = f.URL
	case f.Cluster != "":
		if s.Cluster, s.TLS, s.Username, err = seedAddrs(f.Cluster); err != nil {
			return s, usageError("--redis-cluster: %v", err)
		}
	case f.Sentinel != "":
		master, addrs, ok := strings.Cut(f.Sentinel, "@")
		if !ok || master == "" {
			return s, usageError("--redis-sentinel %q: want MASTER@ADDR[,ADDR...], the primary's name as the Sentinels know it", f.Sentinel)
		}
		s.Master = master
		if s.Sentinels, s.TLS, s.Username, err = seedAddrs(addrs); err != nil {
			return s, usageError("--redis-sentinel: %v", err)
		}
	}
	return s, nil
}

// seedAddrs reads ADDR[,ADDR...]: host:port, or redis:// or rediss://
// (TLS) with a host:port and at most a user name, all of one scheme.
func seedAddrs(list string) (addrs []string, tlsConf *tls.Config, user string, err error) {
	scheme := ""
	for _, a := range strings.Split(list, ",") {
		a = strings.TrimSpace(a)
		sch := "redis"
		if i := strings.Index(a, "://"); i >= 0 {
			u, err := url.Parse(a)
			if err != nil || u.Scheme != "redis" && u.Scheme != "rediss" || u.Path != "" && u.Path != "/" || u.RawQuery != "" {
				return nil, nil, "", usageError("%q: want host:port, redis://host:port or rediss://host:port", a)
			}
			if _, has := u.User.Password(); has {
				return nil, nil, "", usageError("%q: give the password in --redis-password-file or $REDIS_PASSWORD, not on the command line", a)
			}
			sch, a, user = u.Scheme, u.Host, cmp.Or(u.User.Username(), user)
		}
		if scheme != "" && sch != scheme {
			return nil, nil, "", usageError("every address must use one scheme (redis:// or rediss://)")
		}
		scheme = sch
		host, port, err := net.SplitHostPort(a)
		if p, perr := strconv.Atoi(port); err != nil || host == "" || perr != nil || p < 1 || p > 65535 {
			return nil, nil, "", usageError("%q: want host:port", a)
		}
		addrs = append(addrs, a)
	}
	if scheme == "rediss" {
		tlsConf = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	return addrs, tlsConf, user, nil
}

// openRedis opens the fleet's Redis cache, its local copy sized from the
// memory budget, and asks it once whether it is there: Redis being down
// is logged once, by the cache, with its address and the cause in words,
// and serving goes on without it.
func openRedis(ctx context.Context, opts *serveOptions, log *slog.Logger, maxMem int64) (*rediscache.Cache, error) {
	if opts.RedisTimeout <= 0 {
		return nil, usageError("--redis-timeout must be positive")
	}
	getenv := os.Getenv
	if opts.IO != nil && opts.IO.Getenv != nil {
		getenv = opts.IO.Getenv
	}
	servers, err := opts.Redis.servers(getenv)
	if err != nil {
		return nil, err
	}
	rediscache.LogDriverTo(log)
	rc, err := rediscache.Dial(servers, rediscache.Options{Logger: log, Timeout: opts.RedisTimeout,
		Local: &cache.Memory{MaxBytes: serve.ResponseCacheBytes(maxMem)}})
	if err != nil {
		return nil, usageError("--redis: %v", err)
	}
	rc.Ping(ctx)
	return rc, nil
}
