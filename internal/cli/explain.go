package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
)

// explainOptions are the options of "sitetxt explain".
type explainOptions struct {
	IO      *IOStreams
	Agent   string
	Profile string
	Output  format
	Source  string
	Fetch   fetchFlags
}

func newExplainCmd(ios *IOStreams) *cobra.Command {
	opts := &explainOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "explain [--agent UA] [--profile P] [-o text|json] SOURCE",
		Short: "Show what a robots.txt means for one crawler: groups, rules in order, delays, sitemaps",
		Long: `Show what the robots.txt SOURCE (a file, "-" for standard input, or an
http(s) URL) means for one crawler under one profile: the group(s) that
apply and why (a User-agent line names the crawler, or none does and the
"*" group applies, or no group applies), their effective rules in the
order the profile tries them (the first that matches decides), the
group's Crawl-delay, Request-rate and Visit-time, and the file-wide
Sitemap, Host and LLM-Policy lines (LLM-Policy: the URL of an llms.txt or
similar policy, as crawler-commons reads it).

-o json prints one object:
  {"file","agent","profile","reason","groups":[{"agents","file","line","column"}],
   "rules":[{"directive","pattern","file","line","column","implied"}],
   "crawl_delay","request_rate":{"requests","seconds"},
   "visit_time":{"from","to"},"sitemaps":[{"url","file","line","column"}],
   "llm_policy":[{"url","file","line","column"}],
   "host":{"value","file","line","column"}|null,
   "usage_lines":[{"field","value","file","line","column"}],"fetch":{...}}
docs/schema/explain.json has the schema.

Exit codes: 0, or 2 on usage or input errors and when SOURCE could not be
fetched.`,
		Example: `  sitetxt explain --agent unhipbot testdata/robots/fict.org.txt
  sitetxt explain --profile google --agent Googlebot -o json https://example.org/`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Source = args[0]
			return explainRun(opts)
		},
	}
	agentFlag(cmd, &opts.Agent, `crawler name or User-Agent header ("*": only the "*" group)`)
	profileFlag(cmd, &opts.Profile)
	outputFlag(cmd, &opts.Output, recordFormats)
	opts.Fetch.AddFlags(cmd)
	return cmd
}

// The JSON form of an explanation.
type (
	explainJSON struct {
		File        string                `json:"file"`
		Agent       string                `json:"agent"`
		Profile     string                `json:"profile"`
		Why         string                `json:"reason"` // why these groups apply
		Groups      []*groupJSON          `json:"groups"`
		Rules       []explainRuleJSON     `json:"rules"`
		CrawlDelay  *float64              `json:"crawl_delay"` // seconds
		RequestRate *jsonview.RequestRate `json:"request_rate"`
		VisitTime   *visitTimeJSON        `json:"visit_time"`
		Sitemaps    []sitemapJSON         `json:"sitemaps"`
		LLMPolicy   []sitemapJSON         `json:"llm_policy"` // the file's LLM-Policy lines
		Host        *hostJSON             `json:"host"`
		// Usage lists the usage lines of the groups: Content-Usage rules
		// in the order they are preferred, then Content-Signal lines.
		Usage []*usageLineRef `json:"usage_lines"`
		Fetch *fetchJSON      `json:"fetch,omitempty"`
	}
	usageLineRef struct {
		Field   string       `json:"field"` // Content-Usage or Content-Signal
		Value   string       `json:"value"`
		File    string       `json:"file"`
		Line    int          `json:"line"`
		Column  int          `json:"column"`
		Reading usageReading `json:"reading"`
	}
	// usageReading is what a usage line states, in its own terms: a
	// Content-Usage line per category of the vocabulary, a Content-Signal
	// line per signal.
	usageReading struct {
		TrainAI string `json:"train_ai,omitempty"`
		AIUse   string `json:"ai_use,omitempty"`
		Search  string `json:"search"`
		AIInput string `json:"ai_input,omitempty"`
		AITrain string `json:"ai_train,omitempty"`
		Use     string `json:"use,omitempty"`
	}
	explainRuleJSON struct {
		ruleJSON
		Implied bool `json:"implied"`
	}
	visitTimeJSON struct {
		From string `json:"from"` // "06:00" UTC
		To   string `json:"to"`
	}
	sitemapJSON struct {
		URL    string `json:"url"`
		File   string `json:"file"`
		Line   int    `json:"line"`
		Column int    `json:"column"`
	}
	hostJSON struct {
		Host   string `json:"value"`
		File   string `json:"file"`
		Line   int    `json:"line"`
		Column int    `json:"column"`
	}
)

func hhmm(min int) string { return fmt.Sprintf("%02d:%02d", min/60, min%60) }

func explainRun(opts *explainOptions) error {
	prof, err := robots.ParseProfile(opts.Profile)
	if err != nil {
		return usageError("%v", err)
	}
	opts.Fetch.Profile = prof.String()
	src, err := resolveSource(opts.IO, &opts.Fetch, opts.Source, manifest.Robots)
	if err != nil {
		return err
	}
	failure := reportFetch(opts.IO, src)
	f := parseFor(src, prof)
	readNotes(opts.IO, src, f)
	markupWarning(opts.IO, src)
	pol := robots.Compile(f, prof)
	e := pol.Explain(opts.Agent)
	v := explainJSON{File: src.name, Agent: opts.Agent, Profile: prof.String(), Why: e.Why,
		Groups: []*groupJSON{}, Rules: []explainRuleJSON{}, Sitemaps: []sitemapJSON{}, LLMPolicy: []sitemapJSON{}, Usage: []*usageLineRef{}, Fetch: fetchView(src.fetched)}
	if d, ok := src.fixed(); ok {
		v.Why = "the fetch decides every URL: " + d.Reason
	} else {
		for _, g := range e.Groups {
			v.Groups = append(v.Groups, jsonview.GroupOf(g, src.name))
		}
		for _, r := range e.Rules {
			v.Rules = append(v.Rules, explainRuleJSON{*jsonview.RuleOf(r, src.name), r.Implied})
		}
		if cd := e.CrawlDelay; cd != nil {
			s := cd.Delay.Seconds()
			v.CrawlDelay = &s
		}
		if rr := e.RequestRate; rr != nil {
			v.RequestRate = &jsonview.RequestRate{Requests: rr.Requests, Seconds: rr.Period.Seconds()}
		}
		if vt := e.VisitTime; vt != nil {
			v.VisitTime = &visitTimeJSON{hhmm(vt.From), hhmm(vt.To)}
		}
		for _, r := range e.UsageRules {
			u := r.Usage
			v.Usage = append(v.Usage, &usageLineRef{"Content-Usage", r.Line.Value, src.name, r.Line.Pos.Line, r.Line.Pos.Column,
				usageReading{TrainAI: u.TrainAI.String(), AIUse: u.AIUse.String(), Search: u.Search.String()}})
		}
		for _, sg := range e.Signals {
			s := sg.Signals
			v.Usage = append(v.Usage, &usageLineRef{"Content-Signal", sg.Line.Value, src.name, sg.Line.Pos.Line, sg.Line.Pos.Column,
				usageReading{Search: s.Search.String(), AIInput: s.AIInput.String(), AITrain: s.AITrain.String(), Use: s.Use.String()}})
		}
		for _, s := range e.Sitemaps {
			p := s.Line.ValuePos()
			v.Sitemaps = append(v.Sitemaps, sitemapJSON{s.URL, src.name, p.Line, p.Column})
		}
		for _, l := range pol.LLMPolicies() {
			p := l.Line.ValuePos()
			v.LLMPolicy = append(v.LLMPolicy, sitemapJSON{l.URL, src.name, p.Line, p.Column})
		}
		if h := e.Host; h != nil {
			p := h.Line.ValuePos()
			v.Host = &hostJSON{h.Host, src.name, p.Line, p.Column}
		}
	}
	out := newStream(opts.IO.Out, false)
	if opts.Output == fJSON {
		err = newJSONLines(out).write(v)
	} else {
		err = printExplain(out.w, &e, &v)
	}
	if ferr := out.done(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	return exitWith(failure, false)
}

// printExplain writes an explanation for people.
func printExplain(w io.Writer, e *robots.Explanation, v *explainJSON) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s for %q under %s\n", v.File, v.Agent, v.Profile)
	fmt.Fprintf(&b, "why: %s\n", v.Why)
	if len(e.Groups) > 0 && v.Fetch == nil || v.Fetch != nil && v.Fetch.Meaning == "parse" {
		b.WriteString("groups that apply:\n")
		for _, g := range e.Groups {
			fmt.Fprintf(&b, "  %s\n", g)
		}
		fmt.Fprintf(&b, "rules in the order tried (%s):\n", e.Order)
		if len(v.Rules) == 0 {
			b.WriteString("  none: every URL is allowed\n")
		}
		for i, r := range v.Rules {
			fmt.Fprintf(&b, "  %2d. line %d: %s: %s", i+1, r.Line, r.Directive, r.Pattern)
			if r.Implied {
				b.WriteString(" (implied)")
			}
			b.WriteByte('\n')
		}
		if v.CrawlDelay != nil {
			fmt.Fprintf(&b, "crawl-delay: %gs (line %d)\n", *v.CrawlDelay, e.CrawlDelay.Line.Pos.Line)
		}
		if v.RequestRate != nil {
			fmt.Fprintf(&b, "request-rate: %d per %gs (line %d)\n", v.RequestRate.Requests, v.RequestRate.Seconds, e.RequestRate.Line.Pos.Line)
		}
		if v.VisitTime != nil {
			fmt.Fprintf(&b, "visit-time: %s-%s UTC (line %d)\n", v.VisitTime.From, v.VisitTime.To, e.VisitTime.Line.Pos.Line)
		}
		if len(v.Usage) > 0 {
			b.WriteString("usage lines (Content-Usage longest path first; see docs/ai-preferences.md):\n")
			for _, u := range v.Usage {
				fmt.Fprintf(&b, "  line %d: %s: %s (%s)\n", u.Line, u.Field, u.Value, u.Reading.words(u.Field))
			}
		}
		for _, s := range v.Sitemaps {
			fmt.Fprintf(&b, "sitemap: %s (line %d)\n", s.URL, s.Line)
		}
		for _, l := range v.LLMPolicy {
			fmt.Fprintf(&b, "llm-policy: %s (line %d; an llms.txt or similar policy, file-wide; it decides nothing)\n", l.URL, l.Line)
		}
		if v.Host != nil {
			fmt.Fprintf(&b, "host: %s (line %d)\n", v.Host.Host, v.Host.Line)
		}
	}
	_, err := io.WriteString(w, visibleLines(strings.TrimSuffix(b.String(), "\n"))+"\n")
	return err
}

// summaryOptions are the options of "sitetxt summary".
type summaryOptions struct {
	IO      *IOStreams
	Profile string
	Output  format
	Sources []string
	Fetch   fetchFlags
}

func newSummaryCmd(ios *IOStreams) *cobra.Command {
	opts := &summaryOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "summary [--profile P] [-o text|json] SOURCE...",
		Short: "Summarise a robots.txt on one screen: groups, agents, rules, size, diagnostics",
		Long: `Print a one-screen summary of each robots.txt SOURCE (a file, "-" for
standard input, or an http(s) URL) as --profile reads it: its size against
the profile's limit, lines, groups, the agents named, rule counts, file-wide
Sitemap and Host lines, and diagnostics by severity (lint lists them).

-o json prints one object per source per line (docs/schema/summary.json):
  {"file","profile","bytes","limit_bytes","ignored_bytes","line_count",
   "group_count","agents","allow_rules","disallow_rules","wildcard_rules",
   "sitemap_count","host":{"value","file","line","column"}|null,"errors","warnings"}

Exit codes: 0, 1 when a source has lint errors, 2 on usage or input errors.`,
		Example: `  sitetxt summary testdata/robots/fict.org.txt testdata/robots/messy.txt`,
		Args:    minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Sources = args
			return summaryRun(opts)
		},
	}
	profileFlag(cmd, &opts.Profile)
	outputFlag(cmd, &opts.Output, recordFormats)
	opts.Fetch.AddFlags(cmd)
	return cmd
}

// fileSummaryJSON is the JSON form of a summary.
type fileSummaryJSON struct {
	File       string    `json:"file"`
	Profile    string    `json:"profile"`
	Bytes      int       `json:"bytes"`
	LimitBytes int       `json:"limit_bytes"` // what the profile reads; 0: no limit
	Ignored    int       `json:"ignored_bytes"`
	Lines      int       `json:"line_count"`
	Groups     int       `json:"group_count"`
	Agents     []string  `json:"agents"`
	Allow      int       `json:"allow_rules"`
	Disallow   int       `json:"disallow_rules"`
	Wildcard   int       `json:"wildcard_rules"`
	Sitemaps   int       `json:"sitemap_count"`
	Host       *hostJSON `json:"host"` // as explain's: null when there is no Host line
	Errors     int       `json:"errors"`
	Warnings   int       `json:"warnings"`
}

func summaryRun(opts *summaryOptions) error {
	prof, err := robots.ParseProfile(opts.Profile)
	if err != nil {
		return usageError("%v", err)
	}
	opts.Fetch.Profile = prof.String()
	out := newStream(opts.IO.Out, false)
	jl := newJSONLines(out)
	var failure error
	found := false
	for _, name := range opts.Sources {
		src, err := resolveSource(opts.IO, &opts.Fetch, name, manifest.Robots)
		if err == nil {
			err = src.needBody()
		}
		if err != nil {
			printErr(opts.IO, err)
			failure = &exitError{code: ExitError}
			continue
		}
		markupWarning(opts.IO, src)
		f := parseFor(src, prof)
		pol := robots.Compile(f, prof)
		v := fileSummaryJSON{File: src.name, Profile: prof.String(), Bytes: len(src.data), LimitBytes: max(prof.MaxSize(), 0),
			Ignored: len(f.Ignored), Lines: len(f.Lines), Groups: len(pol.Groups()), Agents: []string{}, Sitemaps: len(pol.Sitemaps())}
		seen := map[string]bool{}
		for _, g := range pol.Groups() {
			for _, a := range g.Agents {
				if !seen[a] {
					seen[a] = true
					v.Agents = append(v.Agents, a)
				}
			}
			for _, r := range g.Rules {
				if r.Allow {
					v.Allow++
				} else {
					v.Disallow++
				}
				if strings.ContainsAny(r.Pattern, "*$") {
					v.Wildcard++
				}
			}
		}
		sort.Strings(v.Agents)
		if h := pol.Host(); h != nil {
			p := h.Line.ValuePos()
			v.Host = &hostJSON{h.Host, src.name, p.Line, p.Column}
		}
		ds, _ := profileDiagnostics(f, manifest.Robots, false, prof, false) // as lint counts them
		c := countDiagnostics(ds)
		v.Errors, v.Warnings = c.bySeverity[grammar.Error], c.bySeverity[grammar.Warning]
		found = found || v.Errors > 0
		if opts.Output == fJSON {
			err = jl.write(v)
		} else {
			err = printSummary(out.w, &v)
		}
		if err != nil {
			return err
		}
	}
	if err := out.done(); err != nil {
		return err
	}
	return exitWith(failure, found)
}

func printSummary(w io.Writer, v *fileSummaryJSON) error {
	var b strings.Builder
	limit := "no size limit under google"
	if v.LimitBytes > 0 {
		limit = fmt.Sprintf("%d%% of the %d-byte limit", v.Bytes*100/v.LimitBytes, v.LimitBytes)
	}
	fmt.Fprintf(&b, "%s (%s)\n", v.File, v.Profile)
	fmt.Fprintf(&b, "  size:        %s, %s; %s\n", plural(v.Bytes, "byte"), limit, plural(v.Lines, "line"))
	if v.Ignored > 0 {
		fmt.Fprintf(&b, "  ignored:     %d bytes past the limit\n", v.Ignored)
	}
	fmt.Fprintf(&b, "  groups:      %d\n", v.Groups)
	agents := strings.Join(v.Agents, ", ")
	if len(agents) > 60 {
		agents = agents[:57] + "..."
	}
	if len(v.Agents) == 0 {
		agents = "none named"
	} else {
		agents = fmt.Sprintf("%d named: %s", len(v.Agents), agents)
	}
	fmt.Fprintf(&b, "  agents:      %s\n", agents)
	fmt.Fprintf(&b, "  rules:       %d Disallow, %d Allow, %d with wildcards\n", v.Disallow, v.Allow, v.Wildcard)
	host := "none"
	if v.Host != nil {
		host = v.Host.Host
	}
	fmt.Fprintf(&b, "  sitemaps:    %d; host: %s\n", v.Sitemaps, host)
	fmt.Fprintf(&b, "  diagnostics: %s, %s (sitetxt lint lists them)\n", plural(v.Errors, "error"), plural(v.Warnings, "warning"))
	_, err := io.WriteString(w, visibleLines(strings.TrimSuffix(b.String(), "\n"))+"\n")
	return err
}

// words says a usage line's reading with sitetxt's verdict words, the
// known parts only ("train-ai disallow, search allow"), or "states
// nothing".
func (r usageReading) words(field string) string {
	kv := [][2]string{{"train-ai", r.TrainAI}, {"ai-use", r.AIUse}, {"search", r.Search}}
	if field == "Content-Signal" {
		kv = [][2]string{{"search", r.Search}, {"ai-input", r.AIInput}, {"ai-train", r.AITrain}, {"use", r.Use}}
	}
	var ps []string
	for _, p := range kv {
		if p[1] != "unknown" && p[1] != "" {
			ps = append(ps, p[0]+" "+p[1])
		}
	}
	if len(ps) == 0 {
		return "states nothing"
	}
	return strings.Join(ps, ", ")
}
