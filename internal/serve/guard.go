package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"syscall"
	"time"
)

// refused are the destinations a service reachable by others must not
// fetch from unless told to: every block of the IANA IPv4 and IPv6
// Special-Purpose Address Registries that is not globally reachable (its
// own host, its networks, documentation, benchmarking, reserved and
// multicast space), plus blocks that are no single public host. Addresses
// that embed an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64's
// 64:ff9b::/96, 6to4's 2002::/16) are judged by the address they embed
// (see refusal). docs/security.md lists the sources.
var refused = []struct {
	prefix netip.Prefix
	what   string
}{
	// IPv4 (iana-ipv4-special-registry)
	{netip.MustParsePrefix("0.0.0.0/8"), "a 'this network' address"},
	{netip.MustParsePrefix("10.0.0.0/8"), "a private address"},
	{netip.MustParsePrefix("100.64.0.0/10"), "a shared (carrier-grade NAT) address"},
	{netip.MustParsePrefix("127.0.0.0/8"), "a loopback address"},
	{netip.MustParsePrefix("169.254.0.0/16"), "a link-local address"},
	{netip.MustParsePrefix("172.16.0.0/12"), "a private address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "an IETF protocol address"},
	{netip.MustParsePrefix("192.0.2.0/24"), "a documentation address (TEST-NET-1)"},
	{netip.MustParsePrefix("192.88.99.0/24"), "a deprecated 6to4 relay anycast address"},
	{netip.MustParsePrefix("192.168.0.0/16"), "a private address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking address"},
	{netip.MustParsePrefix("198.51.100.0/24"), "a documentation address (TEST-NET-2)"},
	{netip.MustParsePrefix("203.0.113.0/24"), "a documentation address (TEST-NET-3)"},
	{netip.MustParsePrefix("224.0.0.0/4"), "a multicast address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved address"},
	// IPv6 (iana-ipv6-special-registry)
	{netip.MustParsePrefix("::/128"), "the unspecified address"},
	{netip.MustParsePrefix("::1/128"), "a loopback address"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "a local-use NAT64 address"},
	{netip.MustParsePrefix("100::/64"), "a discard-only address"},
	{netip.MustParsePrefix("100:0:0:1::/64"), "a dummy IPv6 prefix address"},
	{netip.MustParsePrefix("2001::/23"), "an IETF protocol address (Teredo, benchmarking, ORCHID, ...)"},
	{netip.MustParsePrefix("2001:db8::/32"), "a documentation address"},
	{netip.MustParsePrefix("3fff::/20"), "a documentation address"},
	{netip.MustParsePrefix("5f00::/16"), "a segment routing (SRv6 SID) address"},
	{netip.MustParsePrefix("fc00::/7"), "a private (unique local) address"},
	{netip.MustParsePrefix("fe80::/10"), "a link-local address"},
	{netip.MustParsePrefix("ff00::/8"), "a multicast address"},
}

var (
	nat64         = netip.MustParsePrefix("64:ff9b::/96")
	sixTo4        = netip.MustParsePrefix("2002::/16")
	globalUnicast = netip.MustParsePrefix("2000::/3") // RFC 4291 2.4; the rest of the IPv6 space is reserved
)

// refusal says why serve does not connect to addr, or "" when it may. An
// address that embeds an IPv4 address a host can reach through it
// (IPv4-mapped ::ffff:a.b.c.d, NAT64's 64:ff9b::a.b.c.d, 6to4's
// 2002:aabb:ccdd::) is judged by the IPv4 address; every other IPv6
// address outside 2000::/3 (IPv4-compatible ::a.b.c.d, IPv4-translated,
// site-local, the unassigned space) is reserved.
func refusal(addr netip.Addr) string {
	addr = addr.Unmap()
	if addr.Is6() {
		b := addr.As16()
		switch {
		case nat64.Contains(addr):
			addr = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
		case sixTo4.Contains(addr):
			addr = netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
		}
	}
	for _, r := range refused {
		if r.prefix.Contains(addr) {
			return r.what
		}
	}
	if addr.Is6() && !globalUnicast.Contains(addr) {
		return "a reserved IPv6 address (outside 2000::/3, the global unicast space)"
	}
	return ""
}

// ErrRefused is the error of a connection serve refused to make.
type ErrRefused struct {
	Addr netip.Addr
	What string
}

func (e *ErrRefused) Error() string {
	return fmt.Sprintf("refusing to connect to %s: %s (serve --allow-private allows it)", e.Addr, e.What)
}

// guard is a net.Dialer Control function: it runs after name resolution,
// on each address about to be connected (every address a name resolves
// to, on every redirect), before the connection is attempted, so neither
// a name that resolves to a private address nor a redirect to one gets
// through. The host's own addresses are refused too, public ones
// included: a request must not make serve talk to the machine it runs
// on.
func guard(own func() map[netip.Addr]bool) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("refusing to connect to %q: not an IP address and port", address)
		}
		addr := ap.Addr().Unmap().WithZone("")
		if what := refusal(addr); what != "" {
			return &ErrRefused{Addr: addr, What: what}
		}
		if own()[addr] {
			return &ErrRefused{Addr: addr, What: "an address of this host"}
		}
		return nil
	}
}

// ownAddrs returns the addresses of this host's interfaces, read again
// at most every ownAddrsAge (interfaces gain and lose addresses).
func ownAddrs() func() map[netip.Addr]bool {
	var (
		mu   sync.Mutex
		own  map[netip.Addr]bool
		read time.Time
	)
	return func() map[netip.Addr]bool {
		mu.Lock()
		defer mu.Unlock()
		if own == nil || time.Since(read) > ownAddrsAge {
			own, read = map[netip.Addr]bool{}, time.Now()
			addrs, _ := net.InterfaceAddrs()
			for _, a := range addrs {
				if p, err := netip.ParsePrefix(a.String()); err == nil {
					own[p.Addr().Unmap()] = true
				}
			}
		}
		return own
	}
}

// ownAddrsAge is how long guard trusts its list of the host's addresses.
const ownAddrsAge = 30 * time.Second

// newTransport returns the transport robots.txt is fetched with: no proxy
// from the environment (a proxy would dial for us, past the guard), bounded
// handshakes, and the guard unless allowPrivate.
func newTransport(allowPrivate bool) *http.Transport {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		d.Control = guard(ownAddrs())
	}
	return &http.Transport{
		Proxy:             nil,
		DialContext:       d.DialContext,
		ForceAttemptHTTP2: true,
		// A robots.txt is fetched once per site per expiry: a connection
		// kept for the next fetch would only stay open to a stranger's
		// site (and count against nothing) long after the request that
		// made it.
		DisableKeepAlives:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 20 * time.Second,
		ExpectContinueTimeout: time.Second,
		// net/http's default is 10 MiB a response: 64 fetches at once,
		// or 32 URLs of one /v1/prefs, would hold 320 MiB of a site's
		// header fields before any limit of serve's could see them.
		MaxResponseHeaderBytes: maxResponseHeader,
	}
}

// counting is a RoundTripper that reports each request's outcome and
// duration.
type counting struct {
	next    http.RoundTripper
	observe func(outcome string, d time.Duration)
}

func (c counting) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := c.next.RoundTrip(req)
	outcome := "error"
	switch {
	case err != nil:
		var re *ErrRefused
		if errors.As(err, &re) {
			outcome = "refused"
		} else if req.Context().Err() != nil || isTimeout(err) {
			outcome = "timeout"
		}
	default:
		outcome = fmt.Sprintf("%dxx", resp.StatusCode/100)
		if resp.StatusCode == http.StatusNotModified {
			outcome = "304"
		}
	}
	c.observe(outcome, time.Since(start))
	return resp, err
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// capOutbound returns rt with the requests serve sends bounded: at most
// cap(slots) (Config.MaxFetches) at once, whatever the endpoint
// (robots.txt, a tester's site, a sitemap). Keep-alives are off, so a
// request is a connection: for an *http.Transport (a copy of it), each
// connection holds a slot from before it is dialled until it is closed,
// so the connections open never pass the bound; any other RoundTripper
// (tests), each request holds one until its body is closed.
func capOutbound(rt http.RoundTripper, slots chan struct{}) http.RoundTripper {
	t, ok := rt.(*http.Transport)
	if !ok {
		return &capped{next: rt, slots: slots}
	}
	t = t.Clone()
	dial := t.DialContext
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		c, err := dial(ctx, network, addr)
		if err != nil {
			<-slots
			return nil, err
		}
		return &slotConn{Conn: c, release: sync.OnceFunc(func() { <-slots })}, nil
	}
	return t
}

// slotConn gives back its slot when it is closed.
type slotConn struct {
	net.Conn
	release func()
}

func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}

// capped is a RoundTripper whose requests each hold a slot of slots (nil:
// none) and of share (nil: none) from before they are sent until their
// body is closed. The sitemap files' client has a share: sitemap streams
// hold at most a quarter of the outbound slots, so the robots.txt fetches
// that the decisions of a stream need always find one.
type capped struct {
	next  http.RoundTripper
	slots chan struct{}
	share chan struct{}
}

func (c *capped) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	var held []chan struct{}
	free := func() {
		for _, ch := range held {
			<-ch
		}
	}
	for _, ch := range []chan struct{}{c.share, c.slots} {
		if ch == nil {
			continue
		}
		select {
		case ch <- struct{}{}:
			held = append(held, ch)
		case <-ctx.Done():
			free()
			return nil, ctx.Err()
		}
	}
	resp, err := c.next.RoundTrip(req)
	if err != nil {
		free()
		return nil, err
	}
	resp.Body = &slotBody{ReadCloser: resp.Body, release: sync.OnceFunc(free)}
	return resp, nil
}

// slotBody gives back its request's slots when it is closed.
type slotBody struct {
	io.ReadCloser
	release func()
}

func (b *slotBody) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}
