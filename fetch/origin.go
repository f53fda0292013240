package fetch

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// One origin has many spellings: "http://Example.ORG.:080/",
// "http://example.org/", "http://[::ffff:127.0.0.1]/" and
// "http://127.1/", "http://bücher.example/" and
// "http://xn--bcher-kva.example/". Each would otherwise be its own cache
// key, its own single flight and its own failure record, and a client
// that spells one site a thousand ways would make a thousand fetches of
// it. canonicalAuthority writes every URL's authority one way, once,
// before anything is looked up, stored or fetched, and the request is made
// to that form, so the Host header sent is the canonical one too.

// MaxHostLen and MaxLabelLen bound a host name (RFC 1035 section 2.3.4:
// 255 octets on the wire, 253 written out; 63 a label). A longer one is
// a bad URL, refused before anything is stored or fetched: no cache key,
// failure record or Redis key grows with what a stranger sends.
const (
	MaxHostLen  = 253
	MaxLabelLen = 63
)

// maxRawHost bounds the host as written, before any work on it: an
// internationalised name of 253 ASCII bytes has at most 63 characters a
// label, each at most 4 bytes of UTF-8.
const maxRawHost = 4 * MaxHostLen

// canonicalAuthority returns the authority hostport (as url.Parse leaves
// URL.Host, user info removed) of a URL of scheme in its canonical form
// (RFC 3986 section 6.2.2 and 6.2.3, and the WHATWG URL standard's host
// parser for what RFC 3986 leaves open):
//
//   - a host name in lower case, without its final dot, internationalised
//     labels in their ASCII (Punycode) form (UTS #46, as browsers and
//     net/http's Host header write them);
//   - an IPv4 address as four decimal numbers, whichever of the forms
//     inet_aton and browsers accept it was written in (127.1, 0x7f.0.0.1,
//     2130706433, 0177.0.0.01);
//   - an IPv6 address in its RFC 5952 text form, an IPv4-mapped one
//     (::ffff:a.b.c.d) as the IPv4 address it maps, a zone ID only where
//     it means something (canonicalAddr);
//   - the port without leading zeros, left out when it is the scheme's
//     default.
//
// It fails for an authority with no host, a port above 65535, an IPv6
// address outside brackets, and a host name that is not one: longer
// than MaxHostLen or with a label longer than MaxLabelLen, an empty label
// ("a..b"), or a name ending in a number that is no IPv4 address.
func canonicalAuthority(scheme, hostport string) (string, error) {
	host, port, err := splitAuthority(hostport)
	if err != nil {
		return "", err
	}
	host, err = canonicalHost(host)
	if err != nil {
		return "", err
	}
	if port != "" {
		n, _ := strconv.Atoi(port) // splitAuthority has checked it
		port = strconv.Itoa(n)
	}
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		return net.JoinHostPort(host, port), nil
	}
	if strings.Contains(host, ":") {
		return "[" + host + "]", nil
	}
	return host, nil
}

// canonicalHost returns host (without brackets) in its canonical form; see
// canonicalAuthority.
func canonicalHost(host string) (string, error) {
	if len(host) > maxRawHost {
		return "", fmt.Errorf("the host name is %d bytes long; at most %d", len(host), MaxHostLen)
	}
	if a, err := netip.ParseAddr(host); err == nil {
		return canonicalAddr(a).String(), nil
	}
	name := strings.TrimSuffix(host, ".")
	if ascii(name) {
		name = strings.ToLower(name)
	} else {
		// UTS #46 mapping (case, width, the ideographic full stop) and
		// Punycode; a label the lookup rules refuse is still written as
		// net/http would send it.
		a, err := idna.Lookup.ToASCII(name)
		if err != nil {
			if a, err = idna.Punycode.ToASCII(strings.ToLower(name)); err != nil {
				return "", fmt.Errorf("the host name %q is not a domain name: %v", host, err)
			}
		}
		name = strings.TrimSuffix(a, ".")
	}
	if endsInNumber(name) {
		a, err := parseIPv4(name)
		if err != nil {
			return "", fmt.Errorf("the host name %q ends in a number but is no IPv4 address: %v", host, err)
		}
		return a.String(), nil
	}
	if len(name) > MaxHostLen {
		return "", fmt.Errorf("the host name is %d bytes long; at most %d", len(name), MaxHostLen)
	}
	for label := range strings.SplitSeq(name, ".") {
		if label == "" {
			return "", fmt.Errorf("the host name %q has an empty label", host)
		}
		if len(label) > MaxLabelLen {
			return "", fmt.Errorf("a label of the host name is %d bytes long; at most %d", len(label), MaxLabelLen)
		}
	}
	return name, nil
}

// canonicalAddr writes an address one way: an IPv4-mapped IPv6 address
// as the IPv4 address, and without an IPv6 zone ID ("%eth0", RFC 6874)
// unless the address is one a zone qualifies (link-local unicast, link-
// and interface-local multicast): "[::1%25z1]" and "[2001:db8::1%25x]"
// name one host whatever the zone, and a thousand zones would otherwise
// be a thousand cache keys and fetches of it.
func canonicalAddr(a netip.Addr) netip.Addr {
	a = a.Unmap()
	if a.Zone() != "" && !a.IsLinkLocalUnicast() && !a.IsLinkLocalMulticast() && !a.IsInterfaceLocalMulticast() {
		a = a.WithZone("")
	}
	return a
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// endsInNumber reports whether the last label of name is a number (the
// WHATWG URL standard's "ends in a number" checker): such a host is an
// IPv4 address or nothing.
func endsInNumber(name string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	if last == "" {
		return false
	}
	if strings.Trim(last, "0123456789") == "" {
		return true
	}
	if h, ok := strings.CutPrefix(strings.ToLower(last), "0x"); ok {
		return strings.Trim(h, "0123456789abcdef") == ""
	}
	return false
}

// parseIPv4 reads an IPv4 address in any of the forms inet_aton and the
// WHATWG URL standard accept: one to four parts, each decimal, octal
// (leading 0) or hexadecimal (0x), the last one filling the bytes the
// others leave.
func parseIPv4(name string) (netip.Addr, error) {
	parts := strings.Split(name, ".")
	if len(parts) > 4 {
		return netip.Addr{}, errors.New("more than four parts")
	}
	var v uint64
	for i, p := range parts {
		n, err := ipv4Part(p)
		if err != nil {
			return netip.Addr{}, err
		}
		bits := 8
		if i == len(parts)-1 {
			bits = 8 * (5 - len(parts))
		}
		if n >= 1<<bits {
			return netip.Addr{}, fmt.Errorf("part %q is too large", p)
		}
		v = v<<bits | n
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), nil
}

// ipv4Part reads one part of an IPv4 address: decimal, octal after a
// leading 0, hexadecimal after 0x ("0x" alone is 0).
func ipv4Part(p string) (uint64, error) {
	base, digits := 10, p
	switch {
	case len(p) >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'):
		base, digits = 16, p[2:]
		if digits == "" {
			return 0, nil
		}
	case len(p) >= 2 && p[0] == '0':
		base, digits = 8, p[1:]
	}
	n, err := strconv.ParseUint(digits, base, 32)
	if err != nil {
		return 0, fmt.Errorf("part %q is not a number", p)
	}
	return n, nil
}

// splitAuthority splits the host and port of a URL (without user info)
// as url.Parse leaves it, checking them: a host name or bracketed IPv6
// address, not empty, of a bounded length, and a port of at most 65535.
func splitAuthority(hostport string) (host, port string, err error) {
	host = hostport
	if strings.HasPrefix(host, "[") {
		i := strings.IndexByte(host, ']')
		if i < 0 {
			return "", "", fmt.Errorf("missing \"]\" after the IPv6 address")
		}
		host, port = host[1:i], strings.TrimPrefix(host[i+1:], ":")
	} else {
		if strings.Count(host, ":") > 1 {
			return "", "", fmt.Errorf("the host %q looks like an IPv6 address: write it in brackets ([%s])", host, host)
		}
		if i := strings.IndexByte(host, ':'); i >= 0 {
			host, port = host[:i], host[i+1:]
		}
	}
	if host == "" {
		return "", "", fmt.Errorf("no host name in the URL (write the site's host, e.g. http://localhost%s)", map[bool]string{true: ":" + port}[port != ""])
	}
	if len(host) > maxRawHost {
		return "", "", fmt.Errorf("the host name is %d bytes long; at most %d", len(host), MaxHostLen)
	}
	n := 0
	for _, c := range port {
		if c < '0' || c > '9' {
			return "", "", fmt.Errorf("port %q is not a number", port)
		}
		if n = n*10 + int(c-'0'); n > 65535 {
			return "", "", fmt.Errorf("port %s is larger than 65535", port)
		}
	}
	return host, port, nil
}
