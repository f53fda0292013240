package fetch

import (
	"fmt"
	"net/url"
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
		return "", fmt.Errorf("%s: %w", page, ErrNotHTTP)
	}
	host, err := canonicalAuthority(scheme, u.Host)
	if err != nil {
		return "", fmt.Errorf("%s: %v", page, err)
	}
	return (&url.URL{Scheme: scheme, Host: host, Path: "/" + strings.TrimPrefix(name, "/")}).String(), nil
}

// Origin returns the origin of u, "scheme://host[:port]", in the form
// Fetch keys and fetches by: the scheme in lower case, the authority
// canonical (a host name in lower case without its final dot, an
// internationalised one in Punycode, an IP address in one form, no
// default port). Two spellings of one origin give one string. An IPv6
// zone ID that is kept stands as text ("[fe80::1%eth0]"), where the URL
// Fetch keys by escapes it ("%25eth0"): Origin is for comparing origins,
// not for building URLs. It fails where Fetch would: no http or https
// scheme, no host, or a host that is not one.
func Origin(u *url.URL) (string, error) {
	scheme := strings.ToLower(u.Scheme)
	if (scheme != "http" && scheme != "https") || u.Host == "" {
		return "", ErrNotHTTP
	}
	host, err := canonicalAuthority(scheme, u.Host)
	if err != nil {
		return "", err
	}
	return scheme + "://" + host, nil
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
		return "", fmt.Errorf("%s: %w", arg, ErrNotHTTP)
	}
	if (u.Path == "" || u.Path == "/") && u.RawQuery == "" {
		return ManifestURL(arg, name)
	}
	key, err := fetchKey(arg) // the URL as Fetch keys and fetches it
	if err != nil {
		return "", fmt.Errorf("%s: %v", arg, err)
	}
	return key, nil
}
