// Package input is sitetxt's one reading of what a person types where a
// URL to decide, a manifest SOURCE or a crawler's name is expected. The
// command line, the HTTP API of "sitetxt serve" and its tester page read
// them with the functions here, so the same text means the same thing at
// every surface.
//
// A URL to decide is an absolute http(s) URL, a path from the site's root
// ("/private/x"; the empty string is the root itself), or a relative
// reference ("private/x", "?q=1"), which is read from the site's root as
// RFC 3986 section 5.2 resolves it against the base "/": "/private/x".
// A URL that cannot be read is an error for that URL alone, and a batch
// answers every other: an http URL without a host, or one that does not
// parse, whose host or port no site has (a port above 65535, an empty
// label: as fetch reads an origin), or a URL of another scheme ("ftp://x/y",
// "mailto:a@b"), which no robots.txt read over http(s) governs. A host and
// port typed without a scheme ("example.org:8080/x") is decided by its
// path, as Google's parser reads it.
//
// A robots.txt governs the URLs of its own origin only (RFC 9309 section
// 2.3): Governs says when a URL is on another origin than the robots.txt
// fetched for it.
//
// A SOURCE is read once, into a Source (ReadSource): standard input, a
// file, or an http(s) URL to fetch; one that is neither a file nor a URL
// but looks like a host name ("example.org", "www.example.org/private/x")
// is read as an https URL, as "sitetxt fetch" reads a SITE (SiteURL);
// where no file can be meant (the API's "site"), anything else is an
// error (Site). A base URL (--base, the API's "base") is an absolute URL
// with a host (Base).
package input

import (
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/robots"
)

// URL is a URL to decide: as it was typed, and as a decision reads it.
type URL struct {
	// Typed is the text as given; answers name the URL by it.
	Typed string
	// Decide is what a robots.txt decision reads: Typed, or for a
	// relative reference, the path from the site's root.
	Decide string
}

// ReadURL reads a URL to decide (see the package documentation). The
// error says what is wrong with typed, in words for the person who typed
// it.
func ReadURL(typed string) (URL, error) {
	u := URL{Typed: typed, Decide: typed}
	switch {
	case typed == "" || typed[0] == '/':
		return u, nil
	case !hasScheme(typed):
		u.Decide = "/" + typed
		return u, nil
	}
	colon := strings.IndexByte(typed, ':')
	scheme := strings.ToLower(typed[:colon])
	if scheme != "http" && scheme != "https" {
		if port, ok := hostPort(typed[colon+1:]); ok {
			// "example.org:8080/x": a host and port without a scheme,
			// decided by its path as Google's parser reads any URL.
			if !portOK(port) {
				return u, fmt.Errorf("%q: port %s is larger than 65535", typed, port)
			}
			return u, nil
		}
		return u, fmt.Errorf("%q is not an http(s) URL (its scheme is %s): no robots.txt read over http or https governs it", typed, scheme)
	}
	// Only the authority must parse: a path is decided as written, odd
	// escapes ("%a%a") included, as Google's parser decides it.
	rest := typed[len(scheme)+1:]
	if !strings.HasPrefix(rest, "//") {
		return u, fmt.Errorf("%q is an %s URL without a host", typed, scheme)
	}
	auth := rest[2:]
	if i := strings.IndexAny(auth, "/?#"); i >= 0 {
		auth = auth[:i]
	}
	if plainAuthority(auth) {
		return u, nil // the common case, read without allocating
	}
	p, err := url.Parse(scheme + "://" + auth + "/")
	if err != nil {
		return u, fmt.Errorf("%q is not a URL: %v", typed, unwrapURL(err))
	}
	if p.Host == "" {
		return u, fmt.Errorf("%q is an %s URL without a host", typed, scheme)
	}
	if _, err := fetch.Origin(p); err != nil {
		// A host or port no site has (a port above 65535, an empty
		// label): the URL names no robots.txt that could decide it.
		return u, fmt.Errorf("%q: %v", typed, err)
	}
	return u, nil
}

// Relative reports whether the URL was typed as a relative reference
// and is decided as the path from the site's root.
func (u URL) Relative() bool { return u.Decide != u.Typed }

// Absolute reports whether the URL is an http(s) URL with a host, whose
// own site's robots.txt governs it.
func (u URL) Absolute() bool {
	if !hasScheme(u.Typed) || !strings.Contains(u.Typed, "://") {
		return false
	}
	s := strings.ToLower(u.Typed[:strings.IndexByte(u.Typed, ':')])
	return s == "http" || s == "https"
}

// RelativeNote says how a relative reference is read, for the one note
// a command prints about it.
func (u URL) RelativeNote() string {
	return fmt.Sprintf("%q has no scheme and no leading \"/\": it is read from the site's root, as %q (RFC 3986 5.2)", u.Typed, u.Decide)
}

// NoSite is the error for a URL decided against its own site's
// robots.txt (check without a SOURCE, POST /v1/check) that names no site.
func (u URL) NoSite() error {
	return fmt.Errorf("%q is not an absolute http(s) URL: each URL is checked against its own site's robots.txt, so give the page's whole URL (https://example.org/path)", u.Typed)
}

// Governs returns an error when robotsURL (the robots.txt a URL is
// decided by, fetched from its site) is not the robots.txt of u's origin:
// a robots.txt governs its own scheme, host and port only (RFC 9309
// section 2.3). A path, a relative reference and a URL of another scheme
// are on robotsURL's own site.
func (u URL) Governs(robotsURL string) error {
	if robotsURL == "" || !u.Absolute() {
		return nil
	}
	if dir := robotsURL[:strings.LastIndexByte(robotsURL, '/')+1]; strings.HasPrefix(u.Typed, dir) && strings.Count(dir, "/") >= 3 {
		// Under the robots.txt's own directory on its (canonical) origin:
		// the common case of a stream, decided without allocating.
		return nil
	}
	own, err := fetch.ManifestURL(u.site(), "robots.txt")
	if err != nil {
		return fmt.Errorf("%q: %v", u.Typed, err)
	}
	gov, err := fetch.ManifestURL(robotsURL, "robots.txt")
	if err != nil || own == gov {
		return nil
	}
	return fmt.Errorf("%s is on %s, not on %s: the robots.txt read (%s) governs its own origin only (RFC 9309 2.3); check it against %s",
		u.Typed, Origin(own), Origin(gov), robotsURL, own)
}

// site returns the scheme and authority of an absolute URL, with the
// path "/": its path may hold what a URL parser refuses ("%a%a") and is
// not needed to know its site.
func (u URL) site() string {
	i := strings.Index(u.Typed, "://") + 3
	j := strings.IndexAny(u.Typed[i:], "/?#")
	if j < 0 {
		return u.Typed + "/"
	}
	return u.Typed[:i+j] + "/"
}

// Origin returns the scheme and authority of an absolute URL
// ("https://example.org").
func Origin(abs string) string {
	p, err := url.Parse(abs)
	if err != nil {
		return abs
	}
	return p.Scheme + "://" + p.Host
}

// plainAuthority reports whether auth is an authority that fetch reads
// as it is (fetch.Origin accepts it): a host name of letters, digits and
// '-' in labels of 1 to 63 bytes, at most 253 in all, the last starting
// with a letter, or an IPv4 address in four decimal parts; then an
// optional port of at most 65535. It is a sufficient condition only:
// ReadURL gives anything else to fetch.Origin (FuzzReadURL holds the two
// together).
func plainAuthority(auth string) bool {
	host := auth
	if i := strings.LastIndexByte(auth, ':'); i >= 0 {
		host = auth[:i]
		if port := auth[i+1:]; port == "" || strings.Trim(port, "0123456789") != "" || !portOK(port) {
			return false
		}
	}
	if len(host) == 0 || len(host) > 253 {
		return false
	}
	return plainName(host) || plainIPv4(host)
}

// plainName reports whether host is a host name plainAuthority accepts.
func plainName(host string) bool {
	start := 0
	for i := 0; i <= len(host); i++ {
		if i < len(host) && host[i] != '.' {
			c := host[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
			continue
		}
		if n := i - start; n == 0 || n > 63 {
			return false
		}
		if i == len(host) {
			// The last label is a name, never a number: fetch reads a
			// host ending in one as an IPv4 address.
			c := host[start]
			return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		}
		start = i + 1
	}
	return false
}

// plainIPv4 reports whether host is an IPv4 address in four decimal
// parts of 0 to 255, without leading zeros.
func plainIPv4(host string) bool {
	parts := 0
	for part := range strings.SplitSeq(host, ".") {
		parts++
		if len(part) == 0 || len(part) > 3 || len(part) > 1 && part[0] == '0' {
			return false
		}
		n := 0
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return false
			}
			n = n*10 + int(part[i]-'0')
		}
		if n > 255 {
			return false
		}
	}
	return parts == 4
}

// portOK reports whether port, a run of digits, is at most 65535.
func portOK(port string) bool {
	n := 0
	for i := 0; i < len(port); i++ {
		if n = n*10 + int(port[i]-'0'); n > 65535 {
			return false
		}
	}
	return true
}

// hostPort reports whether after, what follows the first ':' of a URL
// whose "scheme" is no http(s), is a port: digits up to the end or a
// '/', '?' or '#' ("8080/x" of "example.org:8080/x"), and returns it.
func hostPort(after string) (string, bool) {
	port := after
	if i := strings.IndexAny(after, "/?#"); i >= 0 {
		port = after[:i]
	}
	return port, port != "" && strings.Trim(port, "0123456789") == ""
}

// hasScheme reports whether s starts with a URI scheme and ':' (RFC 3986
// 3.1: a letter, then letters, digits, '+', '-', '.').
func hasScheme(s string) bool {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' ||
		i > 0 && (s[i] >= '0' && s[i] <= '9' || s[i] == '+' || s[i] == '-' || s[i] == '.')) {
		i++
	}
	return i > 0 && i < len(s) && s[i] == ':'
}

// unwrapURL drops the operation and URL a *url.Error repeats.
func unwrapURL(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

// SiteURL reads a SOURCE or SITE that is not an http(s) URL: a host name
// ("example.org", "localhost:8080"), possibly followed by a path
// ("www.example.org/private/x"), is the https URL of that host; ok is
// false for anything else (a file name such as "robots.txt" or
// "./example.org"). A host name here has a dot or is "localhost", and
// only the letters, digits, '-' and '.' of one (or a bracketed IPv6
// address), with an optional port.
func SiteURL(arg string) (string, bool) {
	if strings.Contains(arg, "://") || arg == "" {
		return "", false
	}
	host, rest := arg, ""
	if i := strings.IndexAny(arg, "/?#"); i >= 0 {
		host, rest = arg[:i], arg[i:]
	}
	if !isHostPort(host) {
		return "", false
	}
	if rest == "" {
		rest = "/"
	}
	u := "https://" + host + rest
	if !fetch.IsURL(u) {
		return "", false
	}
	return u, true
}

// Source is a SOURCE as the command line reads it, once: standard input
// ("-"), a file, or an http(s) URL to fetch the manifest from.
type Source struct {
	// Typed is the argument as given; a file or standard input is read
	// by it.
	Typed string
	// URL is the http(s) URL to fetch: Typed, or for a host name the
	// https URL it is read as (FromHost); "" for a file or standard input.
	URL string
	// FromHost is set when Typed was a host name, possibly with a path,
	// read as that https site ("example.org": https://example.org/).
	FromHost bool
}

// Fetched reports whether the source is fetched over http(s), not read
// from a file or standard input.
func (s Source) Fetched() bool { return s.URL != "" }

// Stdin reports whether the source is standard input.
func (s Source) Stdin() bool { return s.Typed == "-" }

// ReadSource reads a SOURCE typed on the command line: "-" is standard
// input; an http(s) URL with a host is fetched as it is; other text with
// "://" is an error; a host name, possibly followed by a path, that names
// no file is the https URL of that host (SiteURL, as "sitetxt fetch"
// reads a SITE); anything else is a file name. A file of the name wins
// over a host name.
func ReadSource(typed string) (Source, error) {
	return readSource(typed, func(name string) bool {
		_, err := os.Stat(name)
		return err == nil
	})
}

// readSource is the one reading of a SOURCE, on the command line (exists
// says whether a file is there) and where no file can be meant (Site:
// exists is nil).
func readSource(typed string, exists func(string) bool) (Source, error) {
	s := Source{Typed: typed}
	switch {
	case fetch.IsURL(typed):
		s.URL = typed
		return s, nil
	case strings.Contains(typed, "://"):
		return s, fmt.Errorf("%q is not an http(s) URL with a host", typed)
	}
	if u, ok := SiteURL(typed); ok && (exists == nil || !exists(typed)) {
		s.URL, s.FromHost = u, true
		return s, nil
	}
	if exists == nil {
		return s, fmt.Errorf("%q is neither an http(s) URL nor a host name (https://example.org/, example.org, www.example.org/path)", typed)
	}
	return s, nil
}

// Site reads a SITE typed where no file can be meant (the "site" of the
// HTTP API and the tester) as ReadSource reads a SOURCE: an http(s) URL
// with a host as it is, or a host name, possibly followed by a path, as
// SiteURL reads it. Anything else is an error in words for the person who
// typed it; the command line reads such a SOURCE as a file name instead.
func Site(typed string) (string, error) {
	s, err := readSource(typed, nil)
	return s.URL, err
}

// Base reads a base URL typed for a manifest read from text (the
// command line's --base, the API's "base"): the URL it is published at,
// which its relative references resolve against. It must be absolute,
// with a host: a host name alone is refused, as it names no file.
func Base(typed string) error {
	if u, err := url.Parse(typed); err != nil || !u.IsAbs() || u.Host == "" {
		return fmt.Errorf("%q is not an absolute URL (https://example.org/data.txt)", typed)
	}
	return nil
}

// isHostPort reports whether s is a host name with a dot (or
// "localhost", or a bracketed IPv6 address) and an optional port.
func isHostPort(s string) bool {
	if strings.HasPrefix(s, "[") {
		return strings.Contains(s, "]")
	}
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		port := s[i+1:]
		if port == "" || strings.Trim(port, "0123456789") != "" {
			return false
		}
		s = s[:i]
	}
	if !strings.EqualFold(s, "localhost") && (!strings.Contains(s, ".") || strings.HasPrefix(s, ".") || strings.HasSuffix(s, ".")) {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	// A file name such as "robots.txt" or "list.yaml" has a dot too: the
	// last label of a host name is not one of the extensions a manifest
	// file is saved with.
	last := strings.ToLower(s[strings.LastIndexByte(s, '.')+1:])
	switch last {
	case "txt", "yaml", "yml", "json", "xml", "gz", "csv", "html", "htm", "warc", "md":
		return false
	}
	return true
}

// AgentNote says what a profile makes of an agent string that is more
// than a crawler's name, or "" when it is one: under rfc9309, draft and
// norobots its product token is compared ("FooBot" of "FooBot/2.1
// (+https://foo.example/bot)"); under google the string is compared whole
// with each User-agent line's product token, as Google's parser does, so
// an agent that is not a bare token (a whole User-Agent header, a
// version) matches no group of its own and only "*" applies.
func AgentNote(prof robots.Profile, agent string) string {
	if agent == "*" || agent == "" {
		return ""
	}
	name, cut := prof.CrawlerName(agent)
	if cut {
		return fmt.Sprintf("agent %q is read as the crawler name %q", agent, name)
	}
	if token, _ := robots.CrawlerName(agent); name == agent && token != agent {
		// The profile compares the string whole where RFC 9309 would cut it.
		tok := productToken(agent)
		return fmt.Sprintf("agent %q: under %s it is compared whole with each User-agent line's product token (letters, '-' and '_'), as Google's parser does, so it matches no group and only \"*\" applies; Google matches the product token: give it (%q here, or the crawler's own token in the header)", agent, prof, tok)
	}
	return ""
}

// productToken is the run of letters, '-' and '_' an agent starts with:
// what Google's parser takes from a User-agent line.
func productToken(agent string) string {
	i := 0
	for i < len(agent) && (agent[i] >= 'a' && agent[i] <= 'z' || agent[i] >= 'A' && agent[i] <= 'Z' || agent[i] == '-' || agent[i] == '_') {
		i++
	}
	return agent[:i]
}
