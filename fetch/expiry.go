package fetch

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Cache lifetimes (docs/fetching.md).
const (
	// RFCLifetime is the default and the longest lifetime of a robots.txt
	// under RFC 9309 and Google: "crawlers SHOULD NOT use the cached version
	// for more than 24 hours, unless the robots.txt file is unreachable"
	// (RFC 9309 2.4).
	RFCLifetime = 24 * time.Hour
	// DraftLifetime is the default lifetime under the drafts and for
	// data.txt: "if no cache-control directives are present robots should
	// default to an expiry of 7 days" (1996 draft 3.4, data.txt draft 3.4).
	DraftLifetime = 7 * 24 * time.Hour
	// MaxLifetime caps what a server may ask for under the drafts.
	MaxLifetime = 365 * 24 * time.Hour
	// DefaultMaxStale is how long past its expiry a cached robots.txt is
	// still used while the site is unreachable (RFC 9309 2.3.1.4 gives 30
	// days as its example of "a reasonably long period").
	DefaultMaxStale = 30 * 24 * time.Hour
	// DefaultRetry is how long a failure (a network error, 5xx, 429) is
	// remembered when the server sends no Retry-After: within it, Fetch
	// answers from memory instead of asking the server again.
	DefaultRetry = 15 * time.Minute
	// MaxRetry caps Retry-After.
	MaxRetry = 24 * time.Hour
	// NegativeLifetime is the longest a "no such file" answer (404, 410)
	// is kept, whatever the access method's default: a site that then
	// publishes its manifest is seen within a day (a data.txt 404 was
	// kept the drafts' 7 days).
	NegativeLifetime = 24 * time.Hour
)

// cacheControl holds the directives of a Cache-Control header that matter
// here.
type cacheControl struct {
	noStore, noCache bool
	maxAge           time.Duration
	hasMaxAge        bool
}

func parseCacheControl(h http.Header) cacheControl {
	var cc cacheControl
	for _, v := range h.Values("Cache-Control") {
		for _, d := range strings.Split(v, ",") {
			name, arg, _ := strings.Cut(strings.TrimSpace(d), "=")
			switch strings.ToLower(strings.TrimSpace(name)) {
			case "no-store":
				cc.noStore = true
			case "no-cache":
				cc.noCache = true
			case "max-age":
				n, err := strconv.ParseInt(strings.Trim(strings.TrimSpace(arg), `"`), 10, 64)
				if err != nil || n < 0 {
					// An invalid max-age makes the response stale (RFC 9111 4.2.1).
					n = 0
				}
				if n > int64(MaxLifetime/time.Second) {
					n = int64(MaxLifetime / time.Second)
				}
				if !cc.hasMaxAge || time.Duration(n)*time.Second < cc.maxAge {
					cc.maxAge = time.Duration(n) * time.Second
				}
				cc.hasMaxAge = true
			}
		}
	}
	if len(h.Values("Cache-Control")) == 0 {
		for _, v := range h.Values("Pragma") {
			if strings.Contains(strings.ToLower(v), "no-cache") {
				cc.noCache = true
			}
		}
	}
	return cc
}

// lifetime returns how long after e.FetchedAt the entry is fresh under m,
// and the rule that decided it.
func (e *entry) lifetime(m *Access) (time.Duration, string) {
	def, max := m.lifetime, m.maxLifetime
	if e.StatusCode == http.StatusNotFound || e.StatusCode == http.StatusGone {
		def, max = min(def, NegativeLifetime), min(max, NegativeLifetime)
	}
	cc := parseCacheControl(e.Header)
	var d time.Duration
	var why string
	switch {
	case cc.noStore || cc.noCache:
		return 0, "Cache-Control: no-cache/no-store"
	case cc.hasMaxAge:
		d, why = cc.maxAge, "Cache-Control: max-age"
		if age, err := strconv.ParseInt(strings.TrimSpace(e.Header.Get("Age")), 10, 64); err == nil && age > 0 {
			d -= time.Duration(age) * time.Second
		}
	case e.Header.Get("Expires") != "":
		why = "Expires"
		exp, err := http.ParseTime(e.Header.Get("Expires"))
		if err != nil {
			// An invalid Expires ("0") means already expired (RFC 9111 5.3).
			return 0, why
		}
		base := e.FetchedAt
		if date, err := http.ParseTime(e.Header.Get("Date")); err == nil {
			base = date
		}
		d = exp.Sub(base)
	default:
		return def, "default for " + m.String()
	}
	if d < 0 {
		d = 0
	}
	if d > max {
		d, why = max, why+", capped"
	}
	return d, why
}

// expires returns the end of e's freshness under m.
func (e *entry) expires(m *Access) time.Time {
	d, _ := e.lifetime(m)
	return e.FetchedAt.Add(d)
}

// noStore reports whether the response forbids storing it.
func (e *entry) noStore() bool { return parseCacheControl(e.Header).noStore }

// retryAfter returns how long to wait before asking again after a failed
// response: its Retry-After header (seconds or an HTTP date, relative to
// its Date header), else def, at most MaxRetry.
func retryAfter(h http.Header, now time.Time, def time.Duration) time.Duration {
	base := now
	if date, err := http.ParseTime(h.Get("Date")); err == nil {
		base = date
	}
	if d, ok := ParseRetryAfter(h.Get("Retry-After"), base); ok {
		return d
	}
	return min(def, MaxRetry)
}

// ParseRetryAfter reads a Retry-After value (RFC 9110 10.2.3): a number
// of seconds, or an HTTP date, which is taken relative to now (a date in
// the past is 0). The result is at most MaxRetry; false when v is neither.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
		return time.Duration(min(n, int64(MaxRetry/time.Second))) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return min(max(t.Sub(now), 0), MaxRetry), true
}

// fresh reports whether e may be used without asking the server at now
// under m: it was fetched no later than now (an entry from the future, a
// clock set back or a forged file, is not fresh until its time comes) and
// has not expired.
func (e *entry) fresh(m *Access, now time.Time) bool {
	return !now.Before(e.FetchedAt) && now.Before(e.expires(m))
}

// FreshAt reports whether r may be used at now without fetching again: it
// arrived no later than now and has not expired.
func (r *Result) FreshAt(now time.Time) bool {
	return !now.Before(r.FetchedAt) && now.Before(r.Expires)
}

// storable reports whether a response with status code is a file, or the
// absence of one, that the cache stores for its lifetime: 2xx, 404 and 410
// (heuristically cacheable, RFC 9111 4.2.2, and the only "no file"
// answers all the standards agree on). Every other status is remembered
// only in memory, as failures are (docs/fetching.md).
func storable(code int) bool {
	return (code >= 200 && code < 300) || code == http.StatusNotFound || code == http.StatusGone
}
