package serve

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// refused are the destinations a service reachable by others must not
// fetch from unless told to: its own host, its network, the cloud metadata
// endpoint (169.254.169.254), and addresses that are not a host at all.
var refused = []struct {
	prefix netip.Prefix
	what   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "a 'this network' address"},
	{netip.MustParsePrefix("10.0.0.0/8"), "a private address"},
	{netip.MustParsePrefix("100.64.0.0/10"), "a shared (carrier-grade NAT) address"},
	{netip.MustParsePrefix("127.0.0.0/8"), "a loopback address"},
	{netip.MustParsePrefix("169.254.0.0/16"), "a link-local address"},
	{netip.MustParsePrefix("172.16.0.0/12"), "a private address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "an IETF protocol address"},
	{netip.MustParsePrefix("192.168.0.0/16"), "a private address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking address"},
	{netip.MustParsePrefix("224.0.0.0/3"), "a multicast or reserved address"},
	{netip.MustParsePrefix("::/128"), "the unspecified address"},
	{netip.MustParsePrefix("::1/128"), "a loopback address"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "a local-use NAT64 address"},
	{netip.MustParsePrefix("fc00::/7"), "a private (unique local) address"},
	{netip.MustParsePrefix("fe80::/10"), "a link-local address"},
	{netip.MustParsePrefix("ff00::/8"), "a multicast address"},
}

// refusal says why serve does not connect to addr, or "" when it may.
func refusal(addr netip.Addr) string {
	addr = addr.Unmap()
	if addr.Is6() && netip.MustParsePrefix("64:ff9b::/96").Contains(addr) {
		// NAT64: judge the IPv4 address it embeds.
		b := addr.As16()
		addr = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	}
	for _, r := range refused {
		if r.prefix.Contains(addr) {
			return r.what
		}
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
// on the address about to be connected, so neither a name that resolves
// to a private address nor a redirect to one gets through.
func guard(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("refusing to connect to %q: not an IP address and port", address)
	}
	if what := refusal(ap.Addr()); what != "" {
		return &ErrRefused{Addr: ap.Addr().Unmap(), What: what}
	}
	return nil
}

// newTransport returns the transport robots.txt is fetched with: no proxy
// from the environment (a proxy would dial for us, past the guard), bounded
// handshakes, and the guard unless allowPrivate.
func newTransport(allowPrivate bool) *http.Transport {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		d.Control = guard
	}
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           d.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          1024,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 20 * time.Second,
		ExpectContinueTimeout: time.Second,
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
