// Package prefs says what AI-usage preferences apply to a URL: those of
// its site's robots.txt for that path and crawler, and those its own
// response carries in header fields (Content-Usage, Content-Signal,
// X-Robots-Tag and Robots-Tag, a Link to an RSL license). Each source's
// statement is kept as it was made; the Content-Usage statements of
// robots.txt and of the header are then combined most restrictively, as
// draft-ietf-aipref-vocab-08 section 5.1 combines statements, and the
// Content-Signal ones apart, under Content Signals' own names. A URL its
// robots.txt disallows is not fetched, and its answer says so.
//
// `sitetxt prefs` and serve's POST /v1/prefs answer with Ask; the JSON
// shape is Result (docs/schema/prefs.json, docs/ai-preferences.md).
package prefs

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/sitetxt/sitetxt/aipref"
	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/internal/audit"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/robots"
)

// Asker answers for URLs: Robots decides each with its site's robots.txt
// (under Robots.Profile), Fetcher asks the URL's own response for its
// header fields (fetch.Fetcher.Headers), and Registry (nil: the default)
// names the crawler's purpose for the derived view.
type Asker struct {
	Robots   *robots.Client
	Fetcher  *fetch.Fetcher
	Registry *audit.Registry
	// Decision and URLError, when set, say a URL's decision and a failed
	// fetch of the URL itself in the words a stranger gets (serve's, which
	// tell no network detail); nil means jsonview.DecisionOf and the
	// error's own text, as the command line says them.
	Decision func(rawURL, agent string, a *robots.Answer) jsonview.Decision
	URLError func(rawURL string, err error) string
}

// Result is the answer for one URL: the decision object of docs/cli.md
// (with "fetch", what robots.txt's response was), then what each source
// says and the combinations.
type Result struct {
	jsonview.Decision
	// Fetched says whether the URL itself was asked for; NotFetched says
	// why not (its robots.txt disallows it for the agent).
	Fetched    bool   `json:"fetched"`
	NotFetched string `json:"not_fetched,omitempty"`
	// Response is the URL's own response, null when it was not fetched.
	Response *Response `json:"response"`
	// RobotsTxt is what robots.txt's usage lines say for this path and
	// crawler (as check -o json's "usage"), null when none apply or the
	// URL is disallowed.
	RobotsTxt *jsonview.Usage `json:"robots_txt"`
	// Headers are the preferences the response carries, null when it was
	// not fetched.
	Headers *Headers `json:"headers"`
	// ContentUsage is every Content-Usage statement (robots.txt's rules
	// for the path, the header) combined most restrictively;
	// ContentSignal the Content-Signal statements, combined apart.
	ContentUsage  Combined       `json:"content_usage"`
	ContentSignal SignalCombined `json:"content_signal"`
	// Error says why the URL could not be answered or fetched, "" when
	// it was.
	Error string `json:"error,omitempty"`
	// Truncated names the values serve shortened ("headers.content_usage.value",
	// "headers.robots_tag", ...), so that no response makes an answer large.
	Truncated []string `json:"truncated,omitempty"`
}

// Response is what fetching the URL gave.
type Response struct {
	URL        string `json:"url"` // where the answer came from, after redirects
	HTTPStatus int    `json:"http_status"`
}

// Headers are the preference-carrying header fields of a response.
type Headers struct {
	ContentUsage  *HeaderUsage         `json:"content_usage"`  // null when absent
	ContentSignal *HeaderSignal        `json:"content_signal"` // null when absent
	RobotsTag     []aipref.RobotsTag   `json:"robots_tag"`     // the lines that apply to the agent
	Licenses      []aipref.LinkLicense `json:"licenses"`       // Link targets with rel="license"
}

// HeaderUsage is a Content-Usage header (draft-ietf-aipref-attach-05
// section 2), read as the vocabulary says.
type HeaderUsage struct {
	Value   string `json:"value"`
	TrainAI string `json:"train_ai"`
	AIUse   string `json:"ai_use"`
	Search  string `json:"search"`
	Error   string `json:"error,omitempty"` // not a Structured Field Dictionary: every category unknown
}

// HeaderSignal is a Content-Signal header, under its own names.
type HeaderSignal struct {
	Value   string `json:"value"`
	Search  string `json:"search"`
	AIInput string `json:"ai_input"`
	AITrain string `json:"ai_train"`
	Use     string `json:"use"`
	Error   string `json:"error,omitempty"`
}

// Combined is the Content-Usage statements combined most restrictively
// (draft-ietf-aipref-vocab-08 section 5.1); Statements names each statement
// ("robots.txt line 4", "Content-Usage header").
type Combined struct {
	TrainAI    string   `json:"train_ai"`
	AIUse      string   `json:"ai_use"`
	Search     string   `json:"search"`
	Statements []string `json:"statements"`
}

// SignalCombined is the Content-Signal statements combined most
// restrictively (aipref.Signals.Combine), under Content Signals' names.
type SignalCombined struct {
	Search     string   `json:"search"`
	AIInput    string   `json:"ai_input"`
	AITrain    string   `json:"ai_train"`
	Use        string   `json:"use"`
	Statements []string `json:"statements"`
}

// NotFetched is Result.NotFetched for a disallowed URL.
const NotFetched = "the robots.txt answer disallows it for this agent, so it was not fetched; a disallowed URL has no usage preference (draft-ietf-aipref-attach-05 section 3.1)"

// Ask answers for rawURL, an absolute http(s) URL, and agent.
func (a *Asker) Ask(ctx context.Context, agent, rawURL string) Result {
	res := Result{Decision: jsonview.Decision{URL: rawURL, Agent: agent, Profile: a.Robots.Profile.String()}}
	ans, err := a.Robots.Check(ctx, agent, rawURL)
	if err != nil {
		res.Reason, res.Error = fetch.ErrNotHTTP.Error(), err.Error()
		res.combine(nil, aipref.Signals{}, nil)
		return res
	}
	res.Allowed, res.Reason = ans.Allowed, ans.Reason
	res.Fetch = jsonview.FetchOfAnswer(ans)
	var cu []statement
	var cs aipref.Signals
	var csFrom []string
	switch d := ans.Decision; {
	case a.Decision != nil:
		res.Decision = a.Decision(rawURL, agent, ans)
	case d != nil:
		res.Decision = jsonview.DecisionOf(rawURL, agent, a.Robots.Profile, ans.RobotsURL, *d, res.Fetch)
	}
	if u := ans.Usage; u != nil && u.Applies {
		reg := a.Registry
		if reg == nil {
			reg = audit.DefaultRegistry()
		}
		res.RobotsTxt = jsonview.DecisionUsage(ans.RobotsURL, *u, reg.Find(agent)) // null when no line applies, as documented
		for _, r := range u.Rules {
			cu = append(cu, statement{r.Usage, "robots.txt line " + strconv.Itoa(r.Line.Pos.Line)})
		}
		for _, s := range u.Signals {
			cs = cs.Combine(s.Signals)
			csFrom = append(csFrom, "robots.txt line "+strconv.Itoa(s.Line.Pos.Line))
		}
	}
	if !res.Allowed {
		res.NotFetched = NotFetched
		res.combine(cu, cs, csFrom)
		return res
	}
	h, err := a.Fetcher.Headers(ctx, rawURL)
	if err != nil {
		res.Error = "fetching the URL: " + err.Error()
		if a.URLError != nil {
			res.Error = a.URLError(rawURL, err)
		}
		res.combine(cu, cs, csFrom)
		return res
	}
	res.Fetched = true
	res.Response = &Response{URL: h.FinalURL, HTTPStatus: h.HTTPStatus}
	var hu *aipref.Usage
	var hs *aipref.Signals
	res.Headers, hu, hs = readHeaders(h, agent)
	if hu != nil {
		cu = append(cu, statement{*hu, "Content-Usage header"})
	}
	if hs != nil {
		cs = cs.Combine(*hs)
		csFrom = append(csFrom, "Content-Signal header")
	}
	res.combine(cu, cs, csFrom)
	return res
}

// statement is one Content-Usage statement and where it was made.
type statement struct {
	u    aipref.Usage
	from string
}

// combine fills the combined views.
func (r *Result) combine(cu []statement, cs aipref.Signals, csFrom []string) {
	var u aipref.Usage
	from := []string{}
	for _, s := range cu {
		u = u.Combine(s.u)
		from = append(from, s.from)
	}
	r.ContentUsage = Combined{TrainAI: u.TrainAI.String(), AIUse: u.AIUse.String(), Search: u.Search.String(), Statements: from}
	if csFrom == nil {
		csFrom = []string{}
	}
	r.ContentSignal = SignalCombined{Search: cs.Search.String(), AIInput: cs.AIInput.String(), AITrain: cs.AITrain.String(),
		Use: cs.Use.String(), Statements: csFrom}
}

// readHeaders reads the preference-carrying fields of h for agent. It
// also returns the statements they make for the combinations: the
// Content-Usage header's when there is one, the Content-Signal header's
// when there is one that parses (nil otherwise).
func readHeaders(h *fetch.Head, agent string) (out *Headers, usage *aipref.Usage, signals *aipref.Signals) {
	out = &Headers{RobotsTag: []aipref.RobotsTag{}, Licenses: []aipref.LinkLicense{}}
	if vs := h.Header.Values("Content-Usage"); len(vs) > 0 {
		u, err := aipref.ParseField(vs)
		hu := &HeaderUsage{Value: strings.Join(vs, ", "), TrainAI: u.TrainAI.String(), AIUse: u.AIUse.String(), Search: u.Search.String()}
		if err != nil {
			hu.Error = "not a Structured Field Dictionary: " + err.Error()
		}
		out.ContentUsage, usage = hu, &u
	}
	if vs := h.Header.Values("Content-Signal"); len(vs) > 0 {
		v := strings.Join(vs, ", ")
		s, err := aipref.ParseSignals(v)
		hs := &HeaderSignal{Value: v, Search: s.Search.String(), AIInput: s.AIInput.String(), AITrain: s.AITrain.String(), Use: s.Use.String()}
		if err != nil {
			hs.Error = err.Error()
		} else {
			signals = &s
		}
		out.ContentSignal = hs
	}
	for _, field := range []string{"X-Robots-Tag", "Robots-Tag"} {
		out.RobotsTag = append(out.RobotsTag, aipref.RobotsTags(field, h.Header.Values(field), agent)...)
	}
	base, _ := url.Parse(h.FinalURL)
	out.Licenses = append(out.Licenses, aipref.LinkLicenses(h.Header.Values("Link"), base)...)
	return out, usage, signals
}

// Text says a Result for people, on a few lines: the decision, each
// source's statement, the combinations.
func Text(r Result) string {
	var b strings.Builder
	verdict := "disallowed"
	if r.Allowed {
		verdict = "allowed"
	}
	fmt.Fprintf(&b, "%s %s: %s", verdict, r.URL, r.Reason)
	if r.Rule != nil {
		fmt.Fprintf(&b, " (robots.txt line %d: %s: %s)", r.Rule.Line, r.Rule.Directive, r.Rule.Pattern)
	}
	b.WriteByte('\n')
	line := func(format string, args ...any) { fmt.Fprintf(&b, "  "+format+"\n", args...) }
	if r.NotFetched != "" {
		line("not fetched: %s", r.NotFetched)
	}
	if r.Error != "" {
		line("error: %s", r.Error)
	}
	if u := r.RobotsTxt; u != nil {
		var ls []string
		for _, l := range u.ContentUsage.Lines {
			ls = append(ls, fmt.Sprintf("Content-Usage: %s (line %d)", l.Value, l.Line))
		}
		for _, l := range u.ContentSignal.Lines {
			ls = append(ls, fmt.Sprintf("Content-Signal: %s (line %d)", l.Value, l.Line))
		}
		line("robots.txt: %s", strings.Join(ls, "; "))
	}
	if r.Response != nil {
		line("response: HTTP %d from %s", r.Response.HTTPStatus, r.Response.URL)
	}
	if h := r.Headers; h != nil {
		if u := h.ContentUsage; u != nil {
			line("Content-Usage header: %s%s", u.Value, paren(u.Error))
		}
		if s := h.ContentSignal; s != nil {
			line("Content-Signal header: %s%s", s.Value, paren(s.Error))
		}
		for _, t := range h.RobotsTag {
			who := "every crawler"
			if t.Agent != "" {
				who = t.Agent
			}
			line("%s: %s (for %s)", t.Field, strings.Join(t.Directives, ", "), who)
		}
		for _, l := range h.Licenses {
			line("license (Link rel=license): %s%s", l.URL, paren(l.Type))
		}
	}
	if c := r.ContentUsage; len(c.Statements) > 0 {
		line("Content-Usage combined (draft-ietf-aipref-vocab-08 section 5.1): train-ai %s, ai-use %s, search %s (from %s)",
			c.TrainAI, c.AIUse, c.Search, strings.Join(c.Statements, ", "))
	}
	if c := r.ContentSignal; len(c.Statements) > 0 {
		line("Content-Signal combined, kept apart: search %s, ai-input %s, ai-train %s, use %s (from %s)",
			c.Search, c.AIInput, c.AITrain, c.Use, strings.Join(c.Statements, ", "))
	}
	return b.String()
}

// paren is " (s)", or "" for an empty s.
func paren(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}
