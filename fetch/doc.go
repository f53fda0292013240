// Package fetch retrieves the manifests a web site publishes for machines
// (/robots.txt, /data.txt) over HTTP, and says what each response means under
// each standard.
//
// The standards disagree about failures. RFC 9309 (and Google) read a 4xx
// response as "no robots.txt: everything is allowed" and a 5xx response or
// a network error as "unreachable: everything is disallowed"; Koster's 1996
// draft reads 401 and 403 as "everything is disallowed" and a temporary
// failure as "come back later"; the data.txt draft reads 404 as "no data.txt,
// datasets may be found by other means". A Fetcher does the HTTP work once
// (redirects, size limit, decoding, timeout), caches the raw response, and
// interprets it for the access method asked for, giving a Result with a Status and a
// one-line Reason.
//
// Responses are cached by URL as long as the response's Cache-Control or
// Expires headers allow, within each standard's bounds (24 hours for RFC
// 9309, 7 days by default for the drafts). Fetch and Open share one key
// per URL, its authority in canonical form (origin.go):
// "HTTP://Example.ORG:80/x" and "http://example.org/x" are one entry,
// fetched once, whichever of the two asks first. While a site is unreachable, RFC
// 9309 lets a crawler keep using its cached copy; a Fetcher does so for at
// most MaxStale (30 days by default) past the copy's expiry. docs/fetching.md
// has the full tables and their sources.
//
// Only files and the absence of one (2xx, 404, 410) are stored in the
// Cache; every other answer, and every failure, is remembered in the
// Fetcher's memory for Retry-After or Retry. A failure's Err and Reason name
// its cause (a NetError: tls, timeout, dns, refused, reset).
//
// A Memo sits on top for the library's entry points: one flight per
// manifest fetches and compiles it for every concurrent caller, and the
// compiled value is kept, within byte and count bounds, until the response
// expires.
//
// A Cache that implements cache.Shared (Redis, for a crawler fleet) is
// also used to make one fetch per manifest per expiry across processes,
// and to share failures until their Retry-After (shared.go,
// docs/fleet.md).
//
// This package imports nothing of sitetxt but the cache interfaces, and
// may be used by every interpreter; robots.Client, datatxt.Fetcher and mobileagent.Fetcher
// build on it.
package fetch
