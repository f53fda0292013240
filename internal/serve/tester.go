package serve

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/sitetxt/sitetxt/internal/audit"
	"github.com/sitetxt/sitetxt/internal/input"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/internal/lint"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
)

// testRequest is the body of POST /v1/test: a robots.txt given as text
// or by the site to fetch it from, the agent, the URLs (or paths) to
// decide and the profiles to decide them under (all four when none; the
// first is the reference the others are compared with). Audit asks for
// the audit table of every known crawler too.
type testRequest struct {
	Robots   *string  `json:"robots"`
	Site     string   `json:"site"`
	Agent    *string  `json:"agent"`
	URLs     []string `json:"urls"`
	Profiles []string `json:"profiles"`
	Audit    bool     `json:"audit"`
}

// testResponse is the answer of POST /v1/test.
type testResponse struct {
	// File is the name positions use: "robots.txt" for pasted text, the
	// URL fetched for a site.
	File string `json:"file"`
	// Text is the file fetched for a site, so that a page can show the
	// lines the positions point at; left out for pasted text.
	Text  *string         `json:"text,omitempty"`
	Fetch *jsonview.Fetch `json:"fetch,omitempty"`
	// Refused says why serve did not fetch the site at all (an address
	// it gave that is not public): each result is then an error, and no
	// standard's rule for an unreachable site is applied.
	Refused  string   `json:"refused,omitempty"`
	Profiles []string `json:"profiles"`
	// Results holds one comparison per URL, in order.
	Results []testResult `json:"results"`
	// Diagnostics are lint's findings that matter under any of the
	// profiles, sorted.
	Diagnostics []jsonview.Diagnostic `json:"diagnostics"`
	// Sitemaps are the file's Sitemap lines, as the reference profile
	// reads them.
	Sitemaps []jsonview.Line `json:"sitemaps"`
	// Licenses are the file's License lines (RSL), file-wide, as the
	// reference profile reads them.
	Licenses []jsonview.Line `json:"licenses"`
	// LLMPolicy are the file's LLM-Policy lines (an llms.txt or similar
	// policy), file-wide, as the reference profile reads them.
	LLMPolicy []jsonview.Line `json:"llm_policy"`
	// Audit is the table of "sitetxt audit -o json", when asked for.
	Audit *audit.Report `json:"audit,omitempty"`
	// Notes say how the question was read where it is not read as given,
	// in the words of the command line's notes: an agent string of which
	// a profile compares only the product token, or which google compares
	// whole (package input).
	Notes []string `json:"notes"`
}

// testResult is one URL under every profile: the shape of "sitetxt diff
// -o json", each verdict the result of POST /v1/check.
type testResult = jsonview.Comparison[Result]

// runTest decides a test request.
func (s *Server) runTest(ctx context.Context, req *testRequest) (*testResponse, *apiError) {
	agent, aerr := checkQuestion(req.Robots, req.Site, req.Agent)
	if aerr != nil {
		return nil, aerr
	}
	if req.Audit && len(req.URLs) > AuditMaxURLs {
		return nil, &apiError{code: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf(`"audit" with %d URLs; at most %d (each is answered for every known crawler)`, len(req.URLs), AuditMaxURLs)}
	}
	profs, aerr := profilesOf(req.Profiles)
	if aerr != nil {
		return nil, aerr
	}
	rf, aerr := s.robotsFrom(ctx, req.Robots, req.Site, profs)
	if aerr != nil {
		return nil, aerr
	}
	resp := &testResponse{File: rf.name, Fetch: rf.fetch, Refused: rf.refused, Results: make([]testResult, 0, len(req.URLs)),
		Sitemaps: []jsonview.Line{}, Licenses: []jsonview.Line{}, LLMPolicy: []jsonview.Line{}}
	if rf.fetched {
		resp.Text = &rf.text
	}
	resp.Notes = []string{}
	for _, p := range profs {
		resp.Profiles = append(resp.Profiles, p.String())
		if n := input.AgentNote(p, agent); n != "" {
			resp.Notes = append(resp.Notes, "under "+p.String()+": "+n)
		}
	}
	if rf.refused != "" {
		// Nothing was asked of the site: each URL says so, and there is
		// no file to lint or audit.
		for _, u := range req.URLs {
			resp.Results = append(resp.Results, jsonview.ComparisonError[Result](u, agent, errors.New(rf.refused)))
		}
		resp.Diagnostics = []jsonview.Diagnostic{}
		return resp, nil
	}
	for _, u := range req.URLs {
		resp.Results = append(resp.Results, s.testOne(rf, agent, u))
	}
	f := rf.lintFile()
	resp.Diagnostics = jsonview.Diagnostics(lint.ForProfiles(f, manifest.Robots, false, profs))
	for _, sm := range rf.readings[0].Policy.Sitemaps() {
		resp.Sitemaps = append(resp.Sitemaps, jsonview.LineOf(rf.name, sm.Line, sm.URL))
	}
	for _, l := range rf.readings[0].Policy.Licenses() {
		resp.Licenses = append(resp.Licenses, jsonview.LineOf(rf.name, l.Line, l.URL))
	}
	for _, l := range rf.readings[0].Policy.LLMPolicies() {
		resp.LLMPolicy = append(resp.LLMPolicy, jsonview.LineOf(rf.name, l.Line, l.URL))
	}
	if req.Audit {
		resp.Audit = audit.File(f, audit.Options{Profile: profs[0], Paths: decided(req.URLs)})
	}
	return resp, nil
}

// testOne decides u for agent under every reading of rf, u read the
// way the command line reads it (package input): a relative reference
// from the site's root, a URL of another origin than a fetched file's an
// error for that URL.
func (s *Server) testOne(rf *robotsFile, agent, u string) testResult {
	iu, err := input.ReadURL(u)
	if err == nil && rf.fetch != nil {
		err = iu.Governs(rf.fetch.URL)
	}
	if err != nil {
		return jsonview.ComparisonError[Result](u, agent, err)
	}
	c := robots.CompareReadings(rf.readings, agent, iu.Decide)
	return jsonview.ComparisonOf(c, u, agent, func(i int, v robots.Verdict) Result {
		rd := rf.readings[i]
		res := Result{Decision: jsonview.DecisionOf(u, agent, v.Profile, rf.name, v.Decision, rf.fetch)}
		if fx, ok := rd.Fixed(); ok {
			res.Reason = publicReason(fx.Reason, rd.Fetched.Err)
			return res
		}
		var usage *robots.UsageDecision
		if rd.Policy.HasUsage() {
			ud := rd.Policy.Agent(agent).Usage(iu.Decide)
			usage = &ud
		}
		res.fill(rf.name, v.Decision, usage)
		return res
	})
}

// profilesOf parses the profiles of a request: every profile, the
// default first, when none is named.
func profilesOf(names []string) ([]robots.Profile, *apiError) {
	if len(names) == 0 {
		return append([]robots.Profile(nil), robots.Profiles...), nil
	}
	var out []robots.Profile
	seen := map[robots.Profile]bool{}
	for _, n := range names {
		p, err := robots.ParseProfile(n)
		if err != nil {
			return nil, badRequest("%v", err)
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, nil
}

// decided returns what a decision reads of each URL that package input
// reads (a relative reference from the site's root), leaving out those
// it cannot read.
func decided(urls []string) []string {
	out := make([]string, 0, len(urls))
	for _, u := range urls {
		if iu, err := input.ReadURL(u); err == nil {
			out = append(out, iu.Decide)
		}
	}
	return out
}
