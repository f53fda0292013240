package cli

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/spf13/cobra"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/audit"
	"github.com/sitetxt/sitetxt/internal/input"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
)

// checkOptions are the options of "sitetxt check".
type checkOptions struct {
	IO       *IOStreams
	Agent    string
	Profile  string
	Output   format
	URLsFile string
	Source   string
	URLs     []string
	Fetch    fetchFlags

	source input.Source // Source as read once (checkArgs)
}

// globalAgent is the agent name check uses without --agent: under every
// profile it selects only the "*" group(s).
const globalAgent = "*"

func newCheckCmd(ios *IOStreams) *cobra.Command {
	opts := &checkOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "check [--agent UA] [--profile P] [-o text|json|csv] [--urls FILE|-] [SOURCE] [URL...]",
		Short: "Say whether a crawler may fetch URLs, and which rule decides",
		Long: `Check each URL against the robots.txt SOURCE (a file, "-" for standard
input, or an http(s) URL) and say whether the crawler may fetch it, naming
the deciding rule as "file:line: Directive: pattern", or why no rule decided.

A SOURCE URL naming a site (https://example.org/) or a page on it
(https://example.org/index.html, with a note) means the site's
/robots.txt; only a URL whose path ends in /robots.txt is fetched as it is.
A body that is HTML, not a robots.txt, is read as the standard says (it
gives no rules) with a warning.

Without a SOURCE (the first argument is the absolute URL of a page and so
is every other, or only --urls is given), each URL is checked against its
own site's robots.txt, through robots.Client as serve and prefs decide,
fetched once per site for the run. The response is read as the profile's access
method says (docs/fetching.md): under rfc9309 and google a 4xx allows
everything and a 5xx or network error disallows everything; under draft and
norobots 401/403 disallow everything and a temporary failure disallows for
now. The answer is then given for every URL, with that reason. Fetched files
are cached (--cache-dir, --no-cache) and read up to 500 KiB.

URL is an absolute URL or a path; a relative one ("private/x") is read
from the site's root ("/private/x", with a note). --urls reads more URLs,
one per line, from FILE or standard input ("-"), as a stream; blank lines
and lines starting with "#" are skipped, and a line longer than 16 MiB is
an error for that line. Agents and URLs are otherwise used
exactly as given; an empty URL named on the command line is decided too.
A URL that cannot be answered (an http URL without a host or with a port
above 65535, a URL of another scheme such as ftp: or mailto:; with a SOURCE
fetched over HTTP, a URL on another origin, which that robots.txt does not
govern) is an error for that URL alone, numbered on standard error (in -o
json an object {"url","error"} in its place); every other URL is answered
and the exit status is then 2.

--agent is the crawler's name. Without it the agent is "*", which selects
only the "*" group(s). Under rfc9309, draft and norobots a whole User-Agent
header may be given ("FooBot/2.1 (+https://foo.example/bot)"): its product
token is used. Under google the name is compared whole, as Google's parser
does.

--profile is rfc9309 (the default), google, draft or norobots; see
docs/profiles.md. Under google the whole file is read (Google has no size
limit; sitetxt stops at 512,001 lines); the other profiles read its first
500 KiB.

-o json prints one decision object per URL per line (docs/cli.md):
  {"url","agent","profile","allowed":bool,"reason",
   "rule":{"directive","pattern","file","line","column"}|null,
   "group":{"agents","file","line","column"}|null,
   "fetch":{"url","http_status","meaning","error","from_cache","fetched_at","expires"} (fetched sources only),
   "usage":{"content_usage","content_signal","derived"} (only where a
   Content-Usage or Content-Signal line applies to an allowed URL)}
Text prints the same usage under such a URL ("  usage: ..."), nothing
under the others. -o csv prints the same as rows. Answers are flushed line by line when
--urls reads a pipe or a terminal.

Exit codes: 0 when every URL is allowed, 1 when any is disallowed, 2 on
usage or input errors, when a URL could not be answered, and when SOURCE
could not be fetched (a network or
TLS error, a timeout, HTTP 5xx or 429): the cause is printed on standard
error and the decisions the standard derives from the failure are still
printed.`,
		Example: `  sitetxt check testdata/robots/fict.org.txt /org/plans.html
  sitetxt check --agent 'WebCrawler/3.0' --profile draft testdata/robots/fict.org.txt http://www.fict.org/
  sitetxt check --profile google --agent Googlebot -o json robots.txt --urls urls.txt
  sitetxt check --agent ExampleBot https://example.org/ /some/path
  sitetxt check --agent ExampleBot https://example.org/a https://example.com/b
  sitetxt check --agent ExampleBot --urls urls.txt`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				opts.Source, opts.URLs = args[0], args[1:]
			}
			return checkRun(opts)
		},
	}
	agentFlag(cmd, &opts.Agent, `crawler name or User-Agent header ("*": only the "*" group)`)
	profileFlag(cmd, &opts.Profile)
	opts.Fetch.AddFlags(cmd)
	outputFlag(cmd, &opts.Output, rowFormats)
	cmd.Flags().StringVar(&opts.URLsFile, "urls", "", `read URLs one per line from FILE ("-" for standard input)`)
	return cmd
}

func checkRun(opts *checkOptions) error {
	prof, err := robots.ParseProfile(opts.Profile)
	if err != nil {
		return usageError("%v", err)
	}
	if err := checkArgs(opts); err != nil {
		return err
	}
	opts.Fetch.Profile = prof.String()
	agentNote(opts.IO, prof, opts.Agent)
	var (
		one     *checkSource
		sites   *siteSources
		failure error
	)
	if opts.Source != "" {
		src, err := openSource(opts.IO, &opts.Fetch, opts.source, manifest.Robots)
		if err != nil {
			return err
		}
		failure = reportFetch(opts.IO, src)
		one = newCheckSource(opts.IO, src, prof, opts.Agent)
	} else {
		if err := opts.Fetch.prepare(opts.IO); err != nil {
			return err
		}
		sites = newSiteSources(opts.IO, &opts.Fetch, opts.Fetch.robotsClient(prof), opts.Agent)
	}

	out := newStream(opts.IO.Out, streamsInput(opts.IO, opts.URLsFile))
	st := newStyle(opts.IO, opts.IO.Out)
	jl, cw, err := machineOutput(out, opts.Output, decisionCSVHeader())
	if err != nil {
		return err
	}
	header := jl == nil && cw == nil // said before the first answer, if any
	bar := newProgress(opts.IO, opts.URLsFile)
	disallowed := false
	urls := newBatch(opts.IO, opts.URLs, opts.URLsFile)
	urls.jl = jl
	err = urls.each(func(u input.URL) error {
		bar.add(len(u.Typed) + 1)
		cs := one
		if cs == nil {
			var err error
			if cs, err = sites.get(u); err != nil {
				return err
			}
		} else if err := u.Governs(one.robotsURL); err != nil {
			return &badURL{err}
		}
		d := cs.decide(u.Decide)
		if !d.Allowed {
			disallowed = true
		}
		var usage *jsonview.Usage
		if cs.hasUsage {
			usage = jsonview.DecisionUsage(cs.name, cs.agent.Usage(u.Decide), audit.DefaultRegistry().Find(opts.Agent))
		}
		switch {
		case jl != nil:
			if usage != nil || cs.llmPolicy != nil {
				// The decision object plus "usage", "llm_policy".
				return jl.write(checkLine{Decision: cs.views.Of(u.Typed, opts.Agent, d), Usage: usage, LLMPolicy: cs.llmPolicy})
			}
			return jl.write(cs.views.Of(u.Typed, opts.Agent, d))
		case cw != nil:
			return cw.write(decisionRow(cs.views.Of(u.Typed, opts.Agent, d))...)
		}
		if header {
			// Say who was asked, once: one agent answers for every URL.
			io.WriteString(out.w, answersFor(opts.Agent, prof))
			header = false
		}
		if err := writeDecision(out.w, st, cs.name, u.Typed, d); err != nil {
			return err
		}
		if usage != nil {
			if err := writeUsage(out.w, usage); err != nil {
				return err
			}
		}
		return out.end()
	})
	bar.finish()
	if ferr := out.done(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	if sites != nil {
		failure = sites.failure
	}
	return exitWith(failure, disallowed, urls)
}

// checkArgs checks that check is given URLs and reads its SOURCE once
// (sourceArg); with no SOURCE (the first argument an absolute page URL),
// it moves the first argument to the URLs, each to be checked against its
// own site's robots.txt.
func checkArgs(opts *checkOptions) error {
	if opts.Source != "" {
		src, err := sourceArg(opts.Source)
		if err != nil {
			return err
		}
		opts.source = src
		if perSite(src, opts.URLs) {
			hostNote(opts.IO, src)
			opts.URLs = append([]string{src.URL}, opts.URLs...)
			opts.Source = ""
		} else {
			return needURLs("check", opts.Source, opts.URLs, opts.URLsFile)
		}
	}
	if len(opts.URLs) == 0 && opts.URLsFile == "" {
		return usageError("check: no URL given (name a SOURCE and URLs, absolute URLs, or use --urls)")
	}
	return checkURLsFile(opts.URLsFile)
}

// perSite reports whether check's arguments name no SOURCE: the first is
// an http(s) URL of a page (not a site, not a robots.txt) and every other
// is an absolute URL too (as a batch reads it), so each is checked
// against its own site.
func perSite(first input.Source, rest []string) bool {
	if !first.Fetched() {
		return false
	}
	if _, page, err := manifest.Robots.Locate(first.URL); err != nil || !page {
		return false
	}
	for _, typed := range rest {
		if u, err := input.ReadURL(typed); err != nil || !u.Absolute() {
			return false
		}
	}
	return true
}

// checkSource is one robots.txt as check decides with it: the agent's
// rules selected once (every URL after that is one allocation-free
// decision), or the decision its fetch status makes for every URL.
type checkSource struct {
	name string
	// robotsURL is the URL a fetched robots.txt was asked for: it governs
	// its own origin only (input.URL.Governs); "" for a file.
	robotsURL string
	agent     *robots.Agent
	fixed     robots.Decision
	isFixed   bool
	views     *decisionViews
	// hasUsage is set when the file has usage-preference lines: each
	// allowed URL a line applies to then gets its preference too
	// (jsonview.DecisionUsage).
	hasUsage bool
	// llmPolicy is the file's LLM-Policy lines, nil when it has none.
	llmPolicy []jsonview.Line
}

// checkLine is a line of check's JSON with more than the decision
// object: "usage" where the file has usage lines and the URL may be
// fetched, "llm_policy" where the file has LLM-Policy lines.
type checkLine struct {
	jsonview.Decision
	Usage     *jsonview.Usage `json:"usage,omitempty"`
	LLMPolicy []jsonview.Line `json:"llm_policy,omitempty"`
}

// newCheckSource parses and compiles src (a file, or a SOURCE fetched
// by this run's fetcher) under prof for agent.
func newCheckSource(ios *IOStreams, src *source, prof robots.Profile, agent string) *checkSource {
	f := parseFor(src, prof)
	return checkSourceOf(ios, src, f, robots.Reading{Policy: robots.Compile(f, prof), Fetched: src.fetched}, prof, agent)
}

// checkSourceOf is the checkSource of rd, the reading of src under prof;
// f is src parsed as prof reads it, for the notes on how much of it was
// read (nil when none can be due).
func checkSourceOf(ios *IOStreams, src *source, f *grammar.File, rd robots.Reading, prof robots.Profile, agent string) *checkSource {
	readNotes(ios, src, f)
	markupWarning(ios, src)
	cs := &checkSource{name: src.name, robotsURL: src.manifestURL(), views: newDecisionViews(src.name, prof, src.fetched)}
	if cs.fixed, cs.isFixed = rd.Fixed(); !cs.isFixed {
		cs.agent = rd.Policy.Agent(agent)
		cs.hasUsage = rd.Policy.HasUsage()
		for _, l := range rd.Policy.LLMPolicies() {
			cs.llmPolicy = append(cs.llmPolicy, jsonview.LineOf(src.name, l.Line, l.URL))
		}
	}
	return cs
}

func (cs *checkSource) decide(u string) robots.Decision {
	if cs.isFixed {
		return cs.fixed
	}
	return cs.agent.Decide(u)
}

// siteSources decide absolute URLs, each against its own site's
// robots.txt, through a robots.Client as serve and prefs decide (fetched
// with the profile's access method and the run's fetcher and cache,
// compiled once per response, a status that decides every URL read by
// robots.Reading): the first URL of a site asks the Client for the site's
// reading (Client.Reading), kept for the run, so that a site is fetched
// once per run whatever its response's lifetime, each later URL of it is
// one allocation-free decision, and what check says about the site (a
// failed fetch, the notes) is said once.
type siteSources struct {
	ios     *IOStreams
	ff      *fetchFlags
	client  *robots.Client
	agent   string
	prof    robots.Profile
	m       map[string]*checkSource // by robots.txt URL; nil for a site that gave no answer
	failure error
	pin     *checkSource // a robots.txt given rather than fetched (sitemaps --robots)
	pinURL  string       // the robots.txt URL of pin's site; "" until the first URL names it

	mu     sync.Mutex
	parsed map[string]parsedFile // what the Client parsed, by robots.txt URL, until get says its notes
}

// parsedFile is a robots.txt the Client parsed: its text, and the file
// as parsed, for the notes on how much of it was read.
type parsedFile struct {
	data string
	file *grammar.File
}

// newSiteSources returns the sites of a run that decides for agent
// through rc (ff.robotsClient, not used yet).
func newSiteSources(ios *IOStreams, ff *fetchFlags, rc *robots.Client, agent string) *siteSources {
	ss := &siteSources{ios: ios, ff: ff, client: rc, agent: agent, prof: rc.Profile,
		m: map[string]*checkSource{}, parsed: map[string]parsedFile{}}
	rc.Parsed = func(r *fetch.Result, f *grammar.File) {
		ss.mu.Lock()
		ss.parsed[r.URL] = parsedFile{data: string(r.Body), file: f}
		ss.mu.Unlock()
	}
	return ss
}

// pinRobots reads the robots.txt arg (a file or URL), if any, as the one
// of its site: a URL's own site, a file's that of base (a URL the file
// was found at) or, without base, that of the first URL decided.
func (ss *siteSources) pinRobots(arg, base string) error {
	if arg == "" {
		return nil
	}
	s, err := sourceArg(arg)
	if err != nil {
		return err
	}
	src, err := openSource(ss.ios, ss.ff, s, manifest.Robots)
	if err == nil {
		err = src.needBody()
	}
	if err != nil {
		return err
	}
	switch {
	case s.Fetched():
		ss.pinURL, err = fetch.ManifestURL(s.URL, manifest.Robots.File)
	case base != "":
		ss.pinURL, err = fetch.ManifestURL(base, manifest.Robots.File)
	}
	if err != nil {
		return usageError("%v", err)
	}
	if f := reportFetch(ss.ios, src); f != nil {
		ss.failure = f
	}
	ss.pin = newCheckSource(ss.ios, src, ss.prof, ss.agent)
	return nil
}

// maxSites bounds how many compiled sites check keeps at once; past it
// they are dropped and, if asked for again, read from the Client (and the
// fetch cache) again.
const maxSites = 4096

// get returns the robots.txt of u's site, asking the Client the first
// time; a badURL error when u names no site or its robots.txt gave no
// answer.
func (ss *siteSources) get(u input.URL) (*checkSource, error) {
	if !u.Absolute() {
		return nil, &badURL{u.NoSite()}
	}
	robotsURL, err := fetch.ManifestURL(u.Typed, manifest.Robots.File)
	if err != nil {
		return nil, &badURL{err}
	}
	if ss.pin != nil {
		if ss.pinURL == "" {
			ss.pinURL = robotsURL
		}
		if robotsURL == ss.pinURL {
			return ss.pin, nil
		}
	}
	if cs, ok := ss.m[robotsURL]; ok {
		if cs == nil {
			return nil, notAnswered("%s: its site's robots.txt gave no answer (said above)", shownURL(u.Typed))
		}
		return cs, nil
	}
	if len(ss.m) >= maxSites {
		clear(ss.m)
	}
	rd, err := ss.client.Reading(context.Background(), u.Typed)
	if err != nil {
		return nil, &badURL{err}
	}
	r := rd.Fetched
	if r.Status == fetch.Error {
		printErr(ss.ios, r.Failure())
		ss.failure = &exitError{code: ExitError}
		ss.m[robotsURL] = nil
		return nil, notAnswered("%s: its site's robots.txt gave no answer", shownURL(u.Typed))
	}
	ss.mu.Lock()
	p := ss.parsed[r.URL] // none for a response that is no file, or was compiled before
	delete(ss.parsed, r.URL)
	ss.mu.Unlock()
	src := &source{name: r.URL, data: p.data, fetched: r, cached: ss.ff.cached(r)}
	if f := reportFetch(ss.ios, src); f != nil {
		ss.failure = f
	}
	cs := checkSourceOf(ss.ios, src, p.file, rd, ss.prof, ss.agent)
	ss.m[robotsURL] = cs
	return cs, nil
}

// writeDecision writes one decision for people: the verdict (padded, so
// the URLs of a stream line up), the URL and the deciding
// "file:line: Directive: pattern", or why nothing decided.
func writeDecision(w io.Writer, st style, file, u string, d robots.Decision) error {
	_, err := fmt.Fprintf(w, "%s %s: %s\n", st.verdict(d.Allowed, "allowed   ", "disallowed"), shownURL(u), decisionWhy(file, d))
	return err
}

// decisionWhy says for people why a decision is what it is: the deciding
// "file:line: Directive: pattern", or the reason and the group, escaped.
func decisionWhy(file string, d robots.Decision) string {
	var why string
	switch {
	case d.Rule != nil:
		why = fmt.Sprintf("%s:%d: %s", file, d.Rule.Line.Pos.Line, d.Rule)
		if d.Rule.Implied {
			why += fmt.Sprintf(" (implied by %s: %s)", d.Rule.Line.Field, d.Rule.Line.Value)
		}
	case d.Group != nil:
		why = fmt.Sprintf("%s (group at %s:%d)", d.Reason, file, d.Group.Pos().Line)
	default:
		why = d.Reason
	}
	return visible(why)
}
