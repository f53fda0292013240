package fetch

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// IsURL reports whether s is an absolute http or https URL, as opposed to a
// file name.
func IsURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (strings.EqualFold(u.Scheme, "http") || strings.EqualFold(u.Scheme, "https")) && u.Host != ""
}

// ManifestURL returns the URL of the manifest called name ("robots.txt",
// "data.txt") of the site serving page: the same scheme and authority (host
// lower-cased, a default port dropped) and the path "/"+name. The manifest
// of a site applies to that authority only (RFC 9309 2.3).
//
// page must name a host: "http://:8080/x" is an error (it does not mean
// localhost), as is an IPv6 address outside brackets ("http://::1/") or a
// port above 65535. The result always parses back to the same URL.
func ManifestURL(page, name string) (string, error) {
	u, err := url.Parse(page)
	if err != nil {
		return "", err
	}
	scheme := strings.ToLower(u.Scheme)
	if (scheme != "http" && scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%s: not an http or https URL", page)
	}
	if err := checkAuthority(u.Host); err != nil {
		return "", fmt.Errorf("%s: %v", page, err)
	}
	host := canonicalHostPort(scheme, u.Hostname(), u.Port())
	return (&url.URL{Scheme: scheme, Host: host, Path: "/" + strings.TrimPrefix(name, "/")}).String(), nil
}

// canonicalHostPort writes one origin one way (RFC 3986 section 6.2.2 and
// 6.2.3), so that every spelling of it shares one cache key, one flight
// and one failure record: the host in lower case without a final dot, an
// IPv6 address in its canonical text form (an IPv4-mapped one as the IPv4
// address), the port without leading zeros
// and left out when it is the scheme's default.
func canonicalHostPort(scheme, host, port string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if a, err := netip.ParseAddr(host); err == nil {
		host = a.Unmap().String() // ::ffff:a.b.c.d is the IPv4 host a.b.c.d
	}
	if port != "" {
		n, _ := strconv.Atoi(port) // checkAuthority has checked it
		port = strconv.Itoa(n)
	}
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		return net.JoinHostPort(host, port)
	}
	if strings.Contains(host, ":") {
		return "[" + host + "]"
	}
	return host
}

// MaxHostLen and MaxLabelLen bound a host name (RFC 1035 section 2.3.4:
// 255 octets on the wire, 253 written out; 63 a label).
const (
	MaxHostLen  = 253
	MaxLabelLen = 63
)

// checkAuthority checks the host and port of a URL (without user info)
// as url.Parse leaves it: a host name or bracketed IPv6 address, not
// empty, and a port of at most 65535.
func checkAuthority(hostport string) error {
	host, port := hostport, ""
	if strings.HasPrefix(host, "[") {
		i := strings.IndexByte(host, ']')
		if i < 0 {
			return fmt.Errorf("missing \"]\" after the IPv6 address")
		}
		host, port = host[1:i], strings.TrimPrefix(host[i+1:], ":")
	} else {
		if strings.Count(host, ":") > 1 {
			return fmt.Errorf("the host %q looks like an IPv6 address: write it in brackets ([%s])", host, host)
		}
		if i := strings.IndexByte(host, ':'); i >= 0 {
			host, port = host[:i], host[i+1:]
		}
	}
	if host == "" {
		return fmt.Errorf("no host name in the URL (write the site's host, e.g. http://localhost%s)", map[bool]string{true: ":" + port}[port != ""])
	}
	if name := strings.TrimSuffix(host, "."); len(name) > MaxHostLen {
		return fmt.Errorf("the host name is %d bytes long; at most %d", len(name), MaxHostLen)
	} else if !strings.Contains(name, ":") {
		for label := range strings.SplitSeq(name, ".") {
			if len(label) > MaxLabelLen {
				return fmt.Errorf("a label of the host name is %d bytes long; at most %d", len(label), MaxLabelLen)
			}
		}
	}
	n := 0
	for _, c := range port {
		if c < '0' || c > '9' {
			return fmt.Errorf("port %q is not a number", port)
		}
		if n = n*10 + int(c-'0'); n > 65535 {
			return fmt.Errorf("port %s is larger than 65535", port)
		}
	}
	return nil
}

// SourceURL resolves a URL given where a manifest is expected: a site
// ("https://example.org" or "https://example.org/") means its manifest called
// name; any other URL is taken to be the manifest itself.
func SourceURL(arg, name string) (string, error) {
	u, err := url.Parse(arg)
	if err != nil {
		return "", err
	}
	if !IsURL(arg) {
		return "", fmt.Errorf("%s: not an http or https URL", arg)
	}
	if err := checkAuthority(u.Host); err != nil {
		return "", fmt.Errorf("%s: %v", arg, err)
	}
	if (u.Path == "" || u.Path == "/") && u.RawQuery == "" {
		return ManifestURL(arg, name)
	}
	u.Fragment = ""
	return u.String(), nil
}
