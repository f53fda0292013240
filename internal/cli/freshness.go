package cli

import (
	"fmt"
	"net/http"
	"time"

	"github.com/sitetxt/sitetxt/fetch"
)

// freshnessNote says on standard error how fresh a fetched manifest is,
// in the words docs/cli.md gives: an answer from a cache written before
// this run (cached) says so, with its age and expiry ("from the cache: a
// copy fetched 2 h 5 min ago, expires in 21 h 55 min; --refresh fetches
// it anew"), and a "no such file" answer (404, 410) says how long it is
// kept. A file just fetched says nothing; a stale copy used while the
// site is unreachable says so in its reason.
func freshnessNote(ios *IOStreams, name string, r *fetch.Result, cached bool) {
	if r == nil || r.Stale || r.Err != nil {
		return
	}
	now := time.Now()
	negative := r.HTTPStatus == http.StatusNotFound || r.HTTPStatus == http.StatusGone
	switch {
	case cached:
		what := "a copy"
		if negative {
			what = fmt.Sprintf("the answer HTTP %d", r.HTTPStatus)
		}
		note(ios, "%s: from the cache: %s fetched %s ago (%s), expires in %s; --refresh fetches it anew",
			name, what, span(now.Sub(r.FetchedAt)), r.FetchedAt.UTC().Format(time.RFC3339), span(r.Expires.Sub(now)))
	case negative && !r.Expires.IsZero():
		note(ios, "%s: HTTP %d (%s); this answer is kept until %s (%s), unless --refresh or --no-cache",
			name, r.HTTPStatus, r.Status, r.Expires.UTC().Format(time.RFC3339), span(r.Expires.Sub(r.FetchedAt)))
	}
}

// span writes a duration for people: "40 s", "12 min", "3 h 5 min",
// "6 days".
func span(d time.Duration) string {
	d = max(d, 0)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()))
	case d < 72*time.Hour:
		if m := int(d.Minutes()) % 60; m != 0 {
			return fmt.Sprintf("%d h %d min", int(d.Hours()), m)
		}
		return fmt.Sprintf("%d h", int(d.Hours()))
	}
	return fmt.Sprintf("%d days", int(d.Hours()/24))
}
