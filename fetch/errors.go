package fetch

import (
	"errors"
	"fmt"
)

// The errors of this package. A Result's Err, and Open's error, is one of
// them (or wraps one), so a caller can tell the causes apart with
// errors.As and errors.Is:
//
//   - *NetError: no usable HTTP response (tls, timeout, dns, refused,
//     reset, network);
//   - *StatusError: a response whose status gives no manifest (a 5xx, a
//     429; any status but 2xx, 404 and 410 under AccessDataTxt; any
//     status but 2xx for Open);
//   - *RedirectError: a redirect that is not followed;
//   - ErrNotHTTP: a URL that is not an http or https URL with a host.
//
// A failure another process shared through a cache.Shared keeps its
// NetError kind; its other causes arrive as their messages.

// ErrNotHTTP is the error for a URL that sitetxt does not fetch: not an
// absolute http or https URL with a host. ManifestURL and SourceURL wrap
// it ("ftp://x/: not an http or https URL").
var ErrNotHTTP = errors.New("not an http or https URL")

// StatusError is a response whose status gives no manifest: Code is its
// status, URL the URL asked for. Its message is the status ("HTTP 503
// Service Unavailable").
type StatusError struct {
	URL  string
	Code int
}

func (e *StatusError) Error() string { return statusText(e.Code) }

// RedirectError is a redirect a Fetcher does not follow: redirect number
// Hop, to To, is past the limit of Max redirects (TooMany), or goes to a
// URL that is not http or https. Under RFC 9309 it makes the robots.txt
// "unavailable" (2.3.1.2).
type RedirectError struct {
	Hop     int
	To      string // the URL redirected to, its password redacted
	TooMany bool
	Max     int
}

func (e *RedirectError) Error() string {
	if e.TooMany {
		return fmt.Sprintf("more than %d redirects (redirect %d goes to %s)", e.Max, e.Hop, e.To)
	}
	return fmt.Sprintf("redirect %d goes to %s, not an http or https URL", e.Hop, e.To)
}
