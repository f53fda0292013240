package rediscache

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
)

// A client's commands go to one or more servers: the one server of a
// redis.Client (a Sentinel's primary, for a failover client), or the
// nodes of a Redis Cluster, each serving a share of the keys. A Cache
// follows each server on its own (a shard): a hook on its client (one per
// node of a cluster) counts its errors and redirections, and for
// Options.Backoff after a failure sends it no command (ErrUnavailable),
// so that one dead primary stops the sharing of its own keys only, not of
// every key. Every Cache on one client shares the client's shards (the
// first one made sets the backoff and the logger).
//
// What a failure says is read from the error (classify): no answer (a
// timeout, a connection refused or closed) and a cluster that says it
// cannot serve now (CLUSTERDOWN, TRYAGAIN, LOADING, ...) are "down"; an
// answer that is not one (a bad reply, an error reply) is "failing". A
// cluster's map of slots is reloaded after each failure (at most every
// reloadGap) and every second (cluster.go), so that the keys of a dead
// primary go to the replica promoted in its place as soon as the cluster
// says so.

// Health states of a server, and classes of causes: words of our own,
// for /healthz, never a server's text.
const (
	StateUp      = "up"
	StateDown    = "down"
	StateFailing = "failing"

	CauseTimeout     = "timeout"      // no answer within the deadline
	CauseUnreachable = "unreachable"  // connection refused, reset or closed; no address
	CauseNotServing  = "not-serving"  // the server says it cannot serve now (CLUSTERDOWN, TRYAGAIN, LOADING, MASTERDOWN, READONLY, BUSY)
	CauseAuth        = "auth"         // the password or user was refused
	CauseBadReply    = "bad-reply"    // a reply too large or of the wrong type (reply.go)
	CauseErrorReply  = "error-reply"  // another error reply
	CauseClusterFail = "cluster-fail" // the cluster's own state is not ok (CLUSTER INFO)
)

// classify says what err tells of the server that answered: nothing (""),
// when it answered (a value, a miss, an unknown script, a redirection in a
// cluster), else StateDown or StateFailing and a cause.
func classify(err error, cluster bool) (state, cause string) {
	if err == nil || errors.Is(err, redis.Nil) {
		return "", ""
	}
	var ne net.Error
	switch {
	case wrongType(err):
		return StateFailing, CauseBadReply
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		return StateDown, CauseTimeout
	case errors.Is(err, ErrUnavailable), errors.As(err, &ne), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, net.ErrClosed), errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE), errors.Is(err, redis.ErrClosed):
		return StateDown, CauseUnreachable
	}
	word, _, _ := strings.Cut(err.Error(), " ")
	switch word {
	case "NOSCRIPT": // EVALSHA before EVAL: an answer
		return "", ""
	case "MOVED", "ASK":
		if cluster {
			return "", ""
		}
		return StateFailing, CauseErrorReply // a cluster's node given as one server
	case "CLUSTERDOWN", "TRYAGAIN", "LOADING", "MASTERDOWN", "READONLY", "NOREPLICAS", "BUSY":
		return StateDown, CauseNotServing
	case "NOAUTH", "WRONGPASS", "NOPERM":
		return StateFailing, CauseAuth
	}
	var re redis.Error
	if errors.As(err, &re) {
		return StateFailing, CauseErrorReply
	}
	return StateDown, CauseUnreachable // a dial error of a custom dialer, say
}

// dead reports whether err is that of a connection the server had closed
// (a pooled one, after a restart): the command was not answered, and may
// be sent again on another connection at once. The driver drops such a
// connection before use where it sees the socket (reply.go), not over
// TLS.
func dead(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE)
}

// maxResend bounds how often a command that met a dead connection is sent
// again (each on the next pooled connection, within the deadline).
const maxResend = 32

// errDeadline is the cause of a Cache's own deadline on a command: a
// command that ends for another cause of its context (the caller gave up)
// says nothing about Redis.
var errDeadline = errors.New("redis command deadline (--redis-timeout)")

// failure is a shard's last failure.
type failure struct {
	at           time.Time
	state, cause string
	err          string
}

// shard is one server of a client.
type shard struct {
	addr      string
	set       *shards
	down      atomic.Bool
	downUntil atomic.Int64 // unix nanoseconds
	last      atomic.Pointer[failure]
	errs      atomic.Uint64
	moved     atomic.Uint64
	ask       atomic.Uint64
	gone      atomic.Bool // no longer a server of the client's (a cluster's map moved on)
}

// shards are the servers of one client, shared by every Cache on it.
type shards struct {
	rdb     redis.UniversalClient
	backoff time.Duration
	timeout time.Duration
	log     *slog.Logger
	cluster *redis.ClusterClient // nil for one server
	users   atomic.Int32         // Caches on the client, until closed
	stop    chan struct{}

	lastReload atomic.Int64
	errs       atomic.Uint64
	resent     atomic.Uint64 // commands sent again after a dead connection

	mu  sync.Mutex
	all map[string]*shard
}

// registry holds the shards of every client a Cache was made on.
var registry sync.Map // redis.UniversalClient -> *shards

// shardsOf returns rdb's shards, installing their hooks when rdb is new
// to it.
func shardsOf(rdb redis.UniversalClient, opts Options) *shards {
	if v, ok := registry.Load(rdb); ok {
		s := v.(*shards)
		s.users.Add(1)
		return s
	}
	s := &shards{rdb: rdb, backoff: opts.Backoff, timeout: opts.Timeout, log: opts.Logger, all: map[string]*shard{}, stop: make(chan struct{})}
	if v, loaded := registry.LoadOrStore(rdb, s); loaded {
		s := v.(*shards)
		s.users.Add(1)
		return s
	}
	s.users.Add(1)
	switch c := rdb.(type) {
	case *redis.ClusterClient:
		s.cluster = c
		c.OnNewNode(func(node *redis.Client) { node.AddHook(s.get(node.Options().Addr)) })
		go s.refresh()
	case *redis.Ring:
		c.OnNewNode(func(node *redis.Client) { node.AddHook(s.get(node.Options().Addr)) })
	case *redis.Client:
		c.AddHook(s.get(serverName(c)))
	default:
		rdb.AddHook(s.get("redis"))
	}
	return s
}

// release ends a Cache's use of the shards; the last one stops the
// cluster's refresh and forgets the client.
func (s *shards) release() {
	if s.users.Add(-1) == 0 {
		registry.Delete(s.rdb)
		close(s.stop)
	}
}

// serverName names the one server of a client: its address, or for a
// failover client the primary its Sentinels name.
func serverName(c *redis.Client) string {
	if a := c.Options().Addr; a != "FailoverClient" {
		return a
	}
	return "sentinel primary"
}

// get returns the shard of addr, made on first use (or again, once gone).
func (s *shards) get(addr string) *shard {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh := s.all[addr]
	if sh == nil {
		sh = &shard{addr: addr, set: s}
		s.all[addr] = sh
	}
	sh.gone.Store(false)
	return sh
}

// list returns the shards in use (and those gone, with gone), by
// address.
func (s *shards) list(gone bool) []*shard {
	s.mu.Lock()
	out := make([]*shard, 0, len(s.all))
	for _, sh := range s.all {
		if gone || !sh.gone.Load() {
			out = append(out, sh)
		}
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b *shard) int { return strings.Compare(a.addr, b.addr) })
	return out
}

// up reports whether no shard in use is down or failing.
func (s *shards) up() bool {
	for _, sh := range s.list(false) {
		if sh.down.Load() {
			return false
		}
	}
	return true
}

// backedOff reports whether the shard failed less than the backoff ago.
func (sh *shard) backedOff() bool {
	return sh.down.Load() && time.Now().UnixNano() < sh.downUntil.Load()
}

// record notes what a command's error says of the shard: the change of
// state is logged, a failure starts the backoff and, in a cluster, asks
// for the map of slots again.
func (sh *shard) record(ctx context.Context, err error) {
	s := sh.set
	state, cause := classify(err, s.cluster != nil)
	if state == "" {
		sh.redirected(err)
		if sh.down.Load() && sh.down.Swap(false) {
			s.log.Info("redis reachable again; fetches are shared by the fleet", "redis", sh.addr)
		}
		return
	}
	if errors.Is(err, ErrUnavailable) || ctx.Err() != nil && !errors.Is(context.Cause(ctx), errDeadline) {
		return // not sent (a connection's setup backed off), or the caller gave up
	}
	sh.errs.Add(1)
	s.errs.Add(1)
	sh.downUntil.Store(time.Now().Add(s.backoff).UnixNano())
	sh.last.Store(&failure{at: time.Now(), state: state, cause: cause, err: err.Error()})
	if !sh.down.Swap(true) {
		s.log.Warn("redis unreachable; answering from the local cache and fetching directly",
			"redis", sh.addr, "cause", s.causeWords(cause, err), "retry_in", s.backoff.String())
	}
	s.reload()
}

// causeWords is a failure's cause for the log line.
func (s *shards) causeWords(cause string, err error) string {
	if cause == CauseTimeout {
		return "no answer within " + s.timeout.String() + " (--redis-timeout)"
	}
	return err.Error()
}

// DialHook passes dials through: their errors come back as commands'.
func (sh *shard) DialHook(next redis.DialHook) redis.DialHook { return next }

// ProcessHook sends no command while the shard is backed off, sends one
// that met a dead connection again (dead), and records what came back.
func (sh *shard) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if setup(cmd) {
			return next(ctx, cmd)
		}
		if sh.backedOff() {
			sh.set.reload()
			return ErrUnavailable
		}
		err := next(ctx, cmd)
		for i := 0; i < maxResend && dead(err) && ctx.Err() == nil; i++ {
			sh.set.resent.Add(1)
			err = next(ctx, cmd)
		}
		sh.record(ctx, err)
		return err
	}
}

// ProcessPipelineHook does as ProcessHook for a pipeline (a cluster's
// ASKING and the command it precedes), counting the redirections its
// commands met.
func (sh *shard) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if len(cmds) > 0 && setup(cmds[0]) {
			return next(ctx, cmds)
		}
		if sh.backedOff() {
			sh.set.reload()
			return ErrUnavailable
		}
		err := next(ctx, cmds)
		for _, c := range cmds {
			if c.Err() != err {
				sh.redirected(c.Err())
			}
		}
		sh.record(ctx, err)
		return err
	}
}

// setup reports whether cmd is one the driver sends on a new connection
// before the command that made it dial: its errors (an unknown CLIENT
// subcommand on an older server, a password refused) come back as that
// command's, recorded once.
func setup(cmd redis.Cmder) bool {
	switch cmd.Name() {
	case "hello", "auth", "select", "client", "readonly":
		return true
	}
	return false
}

// redirected counts a MOVED or ASK reply.
func (sh *shard) redirected(err error) {
	if err == nil {
		return
	}
	switch word, _, _ := strings.Cut(err.Error(), " "); word {
	case "MOVED":
		sh.moved.Add(1)
	case "ASK":
		sh.ask.Add(1)
	}
}
