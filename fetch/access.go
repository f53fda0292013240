package fetch

import (
	"fmt"
	"net/http"
	"time"
)

// An Access is an access method: how one standard reads the HTTP
// response for its manifest (which status means "here are the rules",
// "everything is allowed", "everything is disallowed", "try later"), how
// long a copy may be kept, and whether an expired copy stands in while
// the site is unreachable. The access methods are values of this package,
// one row each; a robots.txt profile names its own (robots.Profile.Access),
// and a manifest kind its own.
type Access struct {
	name string
	// lifetime is the default freshness of a response without caching
	// headers; maxLifetime caps what the headers may ask for.
	lifetime, maxLifetime time.Duration
	// keepsStale: an expired copy is used while the site is unreachable
	// (RFC 9309 2.4), for at most Fetcher.MaxStale.
	keepsStale bool
	// read says what an outcome means, and why (citing the standard).
	read func(k outcomeKind, code int, cause string) (Status, string)
}

// The access methods.
var (
	// AccessRFC9309 is RFC 9309's, section 2.3.1 (the rfc9309 and google
	// profiles, and Mobile-agent-server lines).
	AccessRFC9309 = &Access{name: "rfc9309", lifetime: RFCLifetime, maxLifetime: RFCLifetime, keepsStale: true, read: readRFC9309}
	// AccessDraft is Koster's 1996 draft's, section 3.1 (the draft and
	// norobots profiles).
	AccessDraft = &Access{name: "draft", lifetime: DraftLifetime, maxLifetime: MaxLifetime, read: readDraft}
	// AccessDataTxt is the data.txt draft's, section 3.1.
	AccessDataTxt = &Access{name: "datatxt", lifetime: DraftLifetime, maxLifetime: MaxLifetime, read: readDataTxt}
	// AccessSignatures is Web Bot Auth's, for a key directory
	// (draft-ietf-webbotauth-httpsig-protocol-01, key distribution): only
	// 200 gives keys, any other answer is a discovery failure; a copy
	// lives as its caching headers say, else as long as a robots.txt.
	AccessSignatures = &Access{name: "signatures", lifetime: RFCLifetime, maxLifetime: MaxLifetime, read: readSignatures}
	// AccessDocument is that of a document a site publishes about its
	// datasets that no draft defines an access method for (a data.json, a
	// DCAT or Croissant file, a page read for its JSON-LD and links,
	// package discover): 2xx is the document, 404 and 410 say there is
	// none, anything else is an error; a copy is kept as its headers say,
	// 24 hours when they say nothing (as Open keeps sitemaps).
	AccessDocument = &Access{name: "document", lifetime: RFCLifetime, maxLifetime: MaxLifetime, read: readDocument}
)

// String returns the access method's name: the standard it follows.
func (a *Access) String() string { return a.name }

// Status is what a response means for the visitor.
type Status uint8

// The statuses.
const (
	// Parse: the body is the manifest; parse it and follow it.
	Parse Status = iota
	// AllowAll: there is no robots.txt (RFC 9309 "unavailable", or the
	// drafts' 404); everything is allowed.
	AllowAll
	// DisallowAll: everything is disallowed (RFC 9309 "unreachable", or the
	// drafts' 401 and 403).
	DisallowAll
	// Defer: a temporary failure under the drafts; do not visit the site
	// now, try again after Result.RetryAfter.
	Defer
	// NotFound: no data.txt (404); the site may still have datasets, found
	// by other means. This is not an error.
	NotFound
	// Error: the fetch failed and the mode gives the failure no meaning
	// (data.txt), or the URL is not one sitetxt fetches.
	Error
)

var statusNames = [...]string{Parse: "parse", AllowAll: "allow-all", DisallowAll: "disallow-all", Defer: "defer", NotFound: "not-found", Error: "error"}

// String returns the status's kebab-case name.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", s)
}

// MarshalText makes a Status print as its name in JSON.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// outcomeKind says how a fetch ended before any mode interprets it.
type outcomeKind uint8

const (
	gotResponse  outcomeKind = iota // an HTTP response with a status code
	networkError                    // no response: DNS, connect, TLS, timeout, a broken body
	badRedirect                     // more than MaxRedirects hops, a loop, or a redirect sitetxt cannot follow
)

// temporary reports whether an HTTP status code is a temporary failure:
// a server error, or 429 Too Many Requests (which Google treats as a
// server error).
func temporary(code int) bool {
	return code >= 500 || code == http.StatusTooManyRequests
}

// meaning returns what an outcome means under a, and why, citing the
// standard. cause says what went wrong for a network error or a bad
// redirect ("tls: ...", "timeout: no answer within 30s", "redirect 1 goes
// to ftp://..., not an http or https URL"). The access methods' read
// functions are the table in docs/fetching.md.
func meaning(a *Access, k outcomeKind, code int, cause string) (Status, string) {
	return a.read(k, code, cause)
}

func readRFC9309(k outcomeKind, code int, cause string) (Status, string) {
	switch {
	case k == networkError:
		return DisallowAll, "unreachable (" + cause + "): everything is disallowed (RFC 9309 2.3.1.4)"
	case k == badRedirect:
		return AllowAll, "unavailable (" + cause + "): everything is allowed (RFC 9309 2.3.1.2, 2.3.1.3)"
	case code >= 200 && code < 300:
		return Parse, "success: the rules apply (RFC 9309 2.3.1.1)"
	case code == http.StatusTooManyRequests:
		// RFC 9309 files 429 with every 4xx under 2.3.1.3; we follow
		// Google in reading it as a server error (docs/fetching.md).
		return DisallowAll, "unreachable (" + statusText(code) + ", read as a server error as Google does, not as a 4xx under RFC 9309 2.3.1.3): everything is disallowed (RFC 9309 2.3.1.4)"
	case temporary(code):
		return DisallowAll, "unreachable (" + statusText(code) + "): everything is disallowed (RFC 9309 2.3.1.4)"
	case code >= 400:
		return AllowAll, "unavailable (" + statusText(code) + "): everything is allowed (RFC 9309 2.3.1.3)"
	case code == http.StatusNotModified:
		return AllowAll, "unavailable (" + statusText(code) + " with no cached copy to validate): everything is allowed (RFC 9309 2.3.1.3)"
	default: // 1xx, an unfollowed 3xx
		return AllowAll, "unavailable (" + statusText(code) + " without a usable redirect): everything is allowed (RFC 9309 2.3.1.3)"
	}
}

// readFile returns the reading of a file no robots.txt standard governs
// (a data.txt, a document about datasets): 2xx is the file, 404 and 410
// say there is none, anything else is an error. The reasons name it:
// failed and missing come before the cause, success is the whole reason
// of a 2xx, and missing's is followed by then.
func readFile(failed, success, missing, then string) func(outcomeKind, int, string) (Status, string) {
	return func(k outcomeKind, code int, cause string) (Status, string) {
		switch {
		case k == networkError || k == badRedirect:
			return Error, failed + " (" + cause + ")"
		case code >= 200 && code < 300:
			return Parse, success
		case code == http.StatusNotFound || code == http.StatusGone:
			return NotFound, missing + " (" + statusText(code) + ")" + then
		default:
			return Error, failed + " (" + statusText(code) + ")"
		}
	}
}

func readSignatures(k outcomeKind, code int, cause string) (Status, string) {
	switch {
	case k == networkError || k == badRedirect:
		return Error, "the key directory could not be fetched (" + cause + "): a discovery failure (draft-ietf-webbotauth-httpsig-protocol-01)"
	case code == http.StatusOK:
		return Parse, "success: the keys are listed (draft-ietf-webbotauth-httpsig-protocol-01)"
	case code == http.StatusNotFound || code == http.StatusGone:
		return NotFound, "no key directory (" + statusText(code) + "): the site publishes no Web Bot Auth keys here"
	default:
		return Error, "the key directory could not be fetched (" + statusText(code) + "; only 200 gives keys): a discovery failure (draft-ietf-webbotauth-httpsig-protocol-01)"
	}
}

var (
	readDataTxt = readFile("data.txt could not be fetched", "success: the datasets are listed (data.txt draft 3.1)",
		"no data.txt", ": datasets may be found by other means (data.txt draft 3.1)")
	readDocument = readFile("could not be fetched", "success: the document is read", "not published", "")
)

func readDraft(k outcomeKind, code int, cause string) (Status, string) {
	switch {
	case k == networkError:
		return Defer, "temporary failure (" + cause + "): defer visits (1996 draft 3.1)"
	case k == badRedirect:
		return AllowAll, "no robots.txt found by following redirects (" + cause + "): access is unrestricted (1996 draft 3.1)"
	case code >= 200 && code < 300:
		return Parse, "success: the rules apply (1996 draft 3.1)"
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return DisallowAll, "access restricted (" + statusText(code) + "): everything is disallowed (1996 draft 3.1)"
	case temporary(code) || code == http.StatusRequestTimeout:
		return Defer, "temporary failure (" + statusText(code) + "): defer visits (1996 draft 3.1)"
	case code == http.StatusNotFound:
		return AllowAll, "no robots.txt (" + statusText(code) + "): access is unrestricted (1996 draft 3.1)"
	default: // other 4xx, 1xx, an unfollowed 3xx: no instructions available
		return AllowAll, "no instructions available (" + statusText(code) + "): access is unrestricted, as for 404 (1996 draft 3.1)"
	}
}

// statusText returns "HTTP 503 Service Unavailable".
func statusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return fmt.Sprintf("HTTP %d %s", code, t)
	}
	return fmt.Sprintf("HTTP %d", code)
}
