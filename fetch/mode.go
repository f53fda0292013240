package fetch

import (
	"fmt"
	"net/http"
)

// Mode is an access method: how a standard reads the HTTP response for
// its manifest (which status means "allowed", "disallowed", "try later",
// and how long a copy may be kept). A robots.txt profile names its own
// (robots.Profile.Access); data.txt has its own.
type Mode uint8

// The access methods.
const (
	AccessRFC9309 Mode = iota // RFC 9309, section 2.3.1 (the rfc9309 and google profiles)
	AccessDraft               // Koster's 1996 draft, section 3.1 (the draft and norobots profiles)
	AccessDataTxt             // the data.txt draft, section 3.1
)

var modeNames = [...]string{AccessRFC9309: "rfc9309", AccessDraft: "draft", AccessDataTxt: "datatxt"}

// String returns the access method's name: the standard it follows.
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", m)
}

// isRFC reports whether m follows RFC 9309's access method.
func (m Mode) isRFC() bool { return m == AccessRFC9309 }

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

// meaning returns what an outcome means under mode m, and why, citing the
// standard. cause says what went wrong for a network error or a bad
// redirect ("tls: ...", "timeout: no answer within 30s", "redirect 1 goes
// to ftp://..., not an http or https URL"). It is the table in
// docs/fetching.md.
func meaning(m Mode, k outcomeKind, code int, cause string) (Status, string) {
	if m.isRFC() {
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
	if m == AccessDataTxt {
		switch {
		case k == networkError || k == badRedirect:
			return Error, "data.txt could not be fetched (" + cause + ")"
		case code >= 200 && code < 300:
			return Parse, "success: the datasets are listed (data.txt draft 3.1)"
		case code == http.StatusNotFound || code == http.StatusGone:
			return NotFound, "no data.txt (" + statusText(code) + "): datasets may be found by other means (data.txt draft 3.1)"
		default:
			return Error, "data.txt could not be fetched (" + statusText(code) + ")"
		}
	}
	// AccessDraft.
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
