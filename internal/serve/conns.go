package serve

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// The client connections Serve holds are bounded, so that no client can
// hoard them: at most Config.MaxConns at once, of which at most
// Config.MaxIdleConns idle (kept alive between requests). When a new
// connection arrives and all are taken, the connection idle the longest is
// closed for it, then one that has sent nothing for freshGrace; only when
// every connection is answering a request does the new one wait (in the
// kernel's queue). A client that holds a thousand idle keep-alive
// connections therefore loses them to the next clients, and /healthz is
// answered at once (TestHostileIdleConns). Reading a request's headers and
// body have their own deadlines (Config.HeaderTimeout, ReadTimeout), and
// an idle connection is closed after Config.IdleTimeout.

// freshGrace is how long a new connection may stay silent before it may
// be closed for a newer one.
const freshGrace = time.Second

// pool is Serve's listener and the http.Server's ConnState hook: it
// counts the connections open, knows which are idle or have sent nothing
// yet, and closes them for newer ones under pressure.
type pool struct {
	net.Listener
	max, maxIdle int

	mu     sync.Mutex
	cond   sync.Cond
	open   int
	idle   map[*meteredConn]time.Time // since when
	fresh  map[*meteredConn]time.Time // accepted, nothing read yet: since when
	closed bool
	// evicted counts the connections closed for newer ones (tests, log).
	evicted atomic.Int64
}

func newPool(ln net.Listener, max, maxIdle int) *pool {
	p := &pool{Listener: ln, max: max, maxIdle: min(maxIdle, max), idle: map[*meteredConn]time.Time{}, fresh: map[*meteredConn]time.Time{}}
	p.cond.L = &p.mu
	return p
}

// Accept accepts a connection, then makes room for it: past max, it
// closes the oldest idle connection, else the oldest silent one, else
// waits for one to end or fall idle.
func (p *pool) Accept() (net.Conn, error) {
	c, err := p.Listener.Accept()
	if err != nil {
		return nil, err
	}
	mc := &meteredConn{Conn: c, pool: p}
	p.mu.Lock()
	p.open++
	for p.open > p.max && !p.closed {
		victim := p.victimLocked(time.Now())
		if victim == nil {
			p.cond.Wait()
			continue
		}
		p.mu.Unlock()
		victim.Close()
		p.evicted.Add(1)
		p.mu.Lock()
	}
	p.fresh[mc] = time.Now()
	p.mu.Unlock()
	return mc, nil
}

// victimLocked picks the connection to close for a newer one, removing it
// from the idle or fresh set: the one idle the longest, else the oldest
// that has sent nothing for freshGrace; nil when none may be closed.
func (p *pool) victimLocked(now time.Time) *meteredConn {
	if c := oldest(p.idle, now, 0); c != nil {
		delete(p.idle, c)
		return c
	}
	if c := oldest(p.fresh, now, freshGrace); c != nil {
		delete(p.fresh, c)
		return c
	}
	return nil
}

// oldest returns the connection of set with the earliest time at least
// age before now, or nil.
func oldest(set map[*meteredConn]time.Time, now time.Time, age time.Duration) *meteredConn {
	var (
		best  *meteredConn
		since time.Time
	)
	for c, t := range set {
		if now.Sub(t) >= age && (best == nil || t.Before(since)) {
			best, since = c, t
		}
	}
	return best
}

// state is the http.Server's ConnState hook.
func (p *pool) state(c net.Conn, st http.ConnState) {
	mc, ok := c.(*meteredConn)
	if !ok {
		return
	}
	var victim *meteredConn
	p.mu.Lock()
	switch st {
	case http.StateActive, http.StateHijacked:
		delete(p.fresh, mc)
		delete(p.idle, mc)
	case http.StateIdle:
		p.idle[mc] = time.Now()
		if len(p.idle) > p.maxIdle {
			victim = oldest(p.idle, time.Now(), 0)
			delete(p.idle, victim)
		}
		p.cond.Broadcast() // a waiting Accept may close it
	}
	p.mu.Unlock()
	if victim != nil {
		victim.Close()
		p.evicted.Add(1)
	}
}

// release forgets a closed connection.
func (p *pool) release(mc *meteredConn) {
	p.mu.Lock()
	p.open--
	delete(p.idle, mc)
	delete(p.fresh, mc)
	p.cond.Broadcast()
	p.mu.Unlock()
}

// Close closes the listener and lets a waiting Accept return.
func (p *pool) Close() error {
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.mu.Unlock()
	return p.Listener.Close()
}

// meteredConn is a connection of a pool that counts the bytes written to
// it, so that the access log says what a client was really sent.
type meteredConn struct {
	net.Conn
	pool    *pool
	written atomic.Int64
	once    sync.Once
}

func (c *meteredConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	c.written.Add(int64(n))
	return n, err
}

func (c *meteredConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		if c.pool != nil {
			c.pool.release(c)
		}
	})
	return err
}

type connKey struct{}

// withConn is the http.Server's ConnContext: it lets the handler find
// the connection a request came on.
func withConn(ctx context.Context, c net.Conn) context.Context {
	if mc, ok := c.(*meteredConn); ok {
		return context.WithValue(ctx, connKey{}, mc)
	}
	return ctx
}

func connOf(r *http.Request) *meteredConn {
	c, _ := r.Context().Value(connKey{}).(*meteredConn)
	return c
}
