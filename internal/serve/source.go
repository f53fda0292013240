package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/input"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
)

// pastedRobots is the name positions use in a robots.txt given as text.
var pastedRobots = manifest.Robots.File

// apiError is a request the service answers with an error: its status
// code and the message of {"error": ...}.
type apiError struct {
	code int
	msg  string
	// retryAfter, when set, is said in a Retry-After header (a 429).
	retryAfter time.Duration
}

func (e *apiError) Error() string { return e.msg }

func badRequest(format string, args ...any) *apiError {
	return &apiError{code: http.StatusBadRequest, msg: fmt.Sprintf(format, args...)}
}

// agentOr returns a request's agent, "*" when absent (the gate has
// bounded its length).
func agentOr(agent *string) string {
	if agent == nil {
		return "*"
	}
	return *agent
}

// The bounds of one tester request (POST /v1/test, /v1/agents), whose
// answer is written whole, not a window at a time as /v1/check's: its
// URLs (or Config.MaxURLs if lower; Limits.MaxURLs of their routes), and
// the URLs of an audit, which answers each for every known crawler under
// every profile.
const (
	TesterMaxURLs = 1000
	AuditMaxURLs  = 20
)

// checkQuestion checks what a question about a robots.txt gives: its
// text or its site (one of them); it returns the agent to answer for.
func checkQuestion(text *string, site string, agent *string) (string, *apiError) {
	if aerr := oneSource(manifest.Robots.Name, text, site); aerr != nil {
		return "", aerr
	}
	return agentOr(agent), nil
}

// oneSource checks that a request gives its manifest one way: as text
// (field), or as a site to fetch it from.
func oneSource(field string, text *string, site string) *apiError {
	switch {
	case text != nil && site != "":
		return badRequest(`give %q (the file's text) or "site" (where to fetch it), not both`, field)
	case text == nil && site == "":
		return badRequest(`no %q (the file's text) and no "site" (where to fetch it)`, field)
	}
	return nil
}

// siteURL returns the URL of the manifest of kind k of site, read as the
// kind reads a URL where it is expected (manifest.Kind.Locate): site
// itself when its path names the kind's file, else that file of the site
// serving it; without a query or fragment (robots.txt has none, RFC 9309
// 2.3): one origin is one URL, so one cache key and one fetch, whatever
// query a tester's link carries. A site is read as the command line reads
// a SOURCE that is not a file (input.Site): a host name without a scheme
// is https.
func siteURL(site string, k *manifest.Kind) (string, *apiError) {
	site, err := input.Site(site)
	if err != nil {
		return "", badRequest(`"site": %v`, err)
	}
	loc, _, err := k.Locate(site)
	if err != nil {
		return "", badRequest(`"site": %v`, err)
	}
	if u, err := url.Parse(loc); err == nil && (u.RawQuery != "" || u.ForceQuery || u.Fragment != "") {
		u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = "", false, "", ""
		loc = u.String()
	}
	return loc, nil
}

// robotsFile is a robots.txt given in a request and read under each
// profile asked for: pasted, or fetched from a site through the guard
// with /v1/check's size and time limits.
type robotsFile struct {
	name     string           // the name positions use: "robots.txt", or the URL fetched
	text     string           // the file; "" when a fetch gave none
	fetched  bool             // it came from a site
	profiles []robots.Profile // as asked, the first the reference
	files    []*grammar.File  // as each profile parses it
	readings []robots.Reading // one per profile
	// fetch is what fetching gave under the reference profile's access
	// method (nil for pasted text).
	fetch *jsonview.Fetch
	// refused, when set, says that serve refused to fetch the file (the
	// site gave a non-public address itself): no standard's rule for an
	// unreachable site applies, and no URL is decided.
	refused string
}

// refusedWords is the error of each URL of a site serve refused to fetch.
const refusedWords = "not decided: serve refused to fetch this site's robots.txt (its address is not a public one; serve --allow-private allows it)"

// robotsFrom reads the robots.txt a request gives: text, or fetched from
// site under each profile's access method (one request: the responses
// are cached).
func (s *Server) robotsFrom(ctx context.Context, text *string, site string, profiles []robots.Profile) (*robotsFile, *apiError) {
	rf := &robotsFile{name: pastedRobots, profiles: profiles}
	results := make([]*fetch.Result, len(profiles))
	if text != nil {
		rf.text = *text
	} else {
		u, aerr := siteURL(site, manifest.Robots)
		if aerr != nil {
			return nil, aerr
		}
		rf.name, rf.fetched = u, true
		for i, p := range profiles {
			r := s.siteFetch.Fetch(fetch.WithLimit(ctx, s.flights), u, p.Access())
			if r.Status == fetch.Parse {
				rf.text = string(r.Body)
			}
			results[i] = r
		}
		rf.fetch = s.fetchView(results[0])
		if pu, err := url.Parse(u); err == nil && refusedLiteral(pu, results[0].Err) {
			// Not asked for at all (fetch.Error), not unreachable.
			rf.refused, rf.fetch.Meaning = refusedWords, fetch.Error.String()
		}
	}
	for i, p := range profiles {
		f := grammar.ParseString(rf.name, rf.text, p.ParseOptions())
		rf.files = append(rf.files, f)
		rf.readings = append(rf.readings, robots.Reading{Policy: robots.Compile(f, p), Fetched: results[i]})
	}
	return rf, nil
}

// lintFile returns the file as "sitetxt lint" reads it, with the default
// limits: a profile's reading parsed with them (most are), else a parse of
// its own.
func (rf *robotsFile) lintFile() *grammar.File {
	for _, f := range rf.files {
		if f.SizeLimit == grammar.DefaultMaxSize && f.LineLimit == grammar.DefaultMaxLineLength {
			return f
		}
	}
	return grammar.ParseString(rf.name, rf.text, grammar.Options{})
}

// fetchView is the fetch part of a decision for r, in public words when
// the fetch failed below HTTP (publicError).
func (s *Server) fetchView(r *fetch.Result) *jsonview.Fetch {
	v := jsonview.FetchOf(r)
	v.Error = ""
	if r.Err != nil {
		if r.HTTPStatus != 0 {
			v.Error = r.Err.Error()
		} else {
			s.log.Info("fetch failed", "url", r.URL, "err", r.Err.Error())
			v.Error = publicError(r.URL, r.Err)
		}
	}
	return v
}

// writeJSON answers v as JSON, HTML characters as they are (the answer is
// data, never a page).
func (s *Server) writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		s.log.Debug("writing response", "err", err)
	}
}
