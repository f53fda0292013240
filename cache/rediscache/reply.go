package rediscache

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"syscall"
	"time"
)

// A Redis that answers wrongly (a server that is not Redis, a proxy gone
// bad, someone who took its address) must not stall or bloat the process
// that asks it: the driver allocates a bulk string's whole declared length
// before reading it, and waits for what a reply announces. Open's
// connections therefore check every reply as it arrives, before the
// driver reads it (guardConn): a bulk string longer than
// Options.MaxReply, an aggregate of more than maxElems elements, a line
// longer than maxLine, or more than MaxReply bytes in answer to one
// command is an error at once (ErrBadReply), and the connection is
// dropped. Replies of the wrong type are errors too (Get's, for one), and
// all count as the Cache's failures: it answers from its local copy and
// /healthz says "failing" (Health).

// DefaultMaxReply bounds one reply from Redis: a cached manifest of
// 500 KiB with its headers many times over (cache.DefaultMaxEntryBytes is
// 7.8 MiB).
const DefaultMaxReply = 8 << 20

// The bounds of a reply's framing: a line (a simple string, an error, a
// number, a header) and the elements of one array, map or set.
const (
	maxLine  = 64 << 10
	maxElems = 1 << 16
)

// ErrBadReply is the error of a reply a Cache refuses: too large, or not
// of the type its command answers.
var ErrBadReply = errors.New("redis: bad reply")

// guardDialer returns a dialer for the driver whose connections check
// replies (guardConn), over TLS when tlsConf is set (rediss://, Servers.TLS).
func guardDialer(timeout time.Duration, maxReply int64, tlsConf *tls.Config) func(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{Timeout: timeout, KeepAlive: 5 * time.Minute}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if tlsConf != nil {
			conf := tlsConf.Clone()
			if conf.ServerName == "" { // a cluster's node, a Sentinel: the host dialled
				conf.ServerName, _, _ = net.SplitHostPort(addr)
			}
			tc := tls.Client(c, conf)
			if err := tc.HandshakeContext(ctx); err != nil {
				c.Close()
				return nil, err
			}
			return &guardConn{Conn: tc, max: maxReply}, nil
		}
		if sc, ok := c.(syscall.Conn); ok {
			return &guardSysConn{guardConn{Conn: c, max: maxReply}, sc}, nil
		}
		return &guardConn{Conn: c, max: maxReply}, nil
	}
}

// guardSysConn is a guardConn on a plain socket that lets the driver see
// the socket (syscall.Conn). Before it hands out a pooled connection, the
// driver peeks at its socket (go-redis's connCheck) and drops it when the
// server has closed it; a connection that hides its socket passes
// unchecked. After a restart of Redis every pooled connection is closed:
// unchecked, each failed one command, and each failure started the
// Cache's backoff again, so a pool of 20 took 20 backoffs (10 s at
// 500 ms) to be used again (TestRedisBackAtOnce). Over TLS the socket
// stays hidden, as the driver wants for its own TLS connections (a
// peek there could block on a TLS record); the Cache retries a command
// that met a closed connection instead (dead).
type guardSysConn struct {
	guardConn
	sc syscall.Conn
}

// SyscallConn returns the socket's raw connection, for the driver's
// check; reading through it bypasses the reply checks, which the
// driver's peek (MSG_PEEK, nothing consumed) does not need.
func (g *guardSysConn) SyscallConn() (syscall.RawConn, error) { return g.sc.SyscallConn() }

// guardConn is a connection to Redis that follows the framing of the
// replies read from it (RESP2 and RESP3) and fails a read past the bounds.
type guardConn struct {
	net.Conn
	max int64
	// The driver uses a connection from one goroutine at a time: a
	// command is written, then its reply read.
	head    [24]byte // the start of the line being read
	lineLen int
	skip    int64 // bytes of a bulk string (and its CRLF) still to pass
	read    int64 // bytes read since the last command was written
	err     error
}

func (g *guardConn) Write(b []byte) (int, error) {
	g.read = 0
	return g.Conn.Write(b)
}

func (g *guardConn) Read(b []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.Conn.Read(b)
	if cerr := g.check(b[:n]); cerr != nil {
		g.err = cerr
		g.Conn.Close()
		return 0, cerr
	}
	return n, err
}

// check follows the framing over b, the next bytes of the stream.
func (g *guardConn) check(b []byte) error {
	if g.read += int64(len(b)); g.read > g.max+maxLine {
		return fmt.Errorf("%w: more than %d bytes in answer to one command", ErrBadReply, g.max)
	}
	for i := 0; i < len(b); {
		if g.skip > 0 {
			k := min(g.skip, int64(len(b)-i))
			g.skip -= k
			i += int(k)
			continue
		}
		c := b[i]
		i++
		if g.lineLen < len(g.head) {
			g.head[g.lineLen] = c
		}
		if g.lineLen++; g.lineLen > maxLine {
			return fmt.Errorf("%w: a line longer than %d bytes", ErrBadReply, maxLine)
		}
		if c == '\n' {
			err := g.header(g.head[:min(g.lineLen, len(g.head))])
			g.lineLen = 0
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// header reads a complete line: a bulk string's length starts skipping
// its bytes; a length or count past the bounds is an error.
func (g *guardConn) header(line []byte) error {
	if len(line) < 3 {
		return nil
	}
	num := func() (int64, bool) {
		end := len(line)
		for end > 1 && (line[end-1] == '\n' || line[end-1] == '\r') {
			end--
		}
		n, err := strconv.ParseInt(string(line[1:end]), 10, 64)
		return n, err == nil
	}
	switch line[0] {
	case '$', '=', '!': // bulk string, verbatim string, bulk error
		n, ok := num()
		if !ok {
			return fmt.Errorf("%w: a bulk string length that is not a number", ErrBadReply)
		}
		if n > g.max {
			return fmt.Errorf("%w: a bulk string of %d bytes, more than %d", ErrBadReply, n, g.max)
		}
		if n >= 0 {
			g.skip = n + 2
		}
	case '*', '%', '~', '>', '|': // array, map, set, push, attribute
		if n, ok := num(); ok && n > maxElems {
			return fmt.Errorf("%w: an aggregate of %d elements, more than %d", ErrBadReply, n, maxElems)
		}
	}
	return nil
}
