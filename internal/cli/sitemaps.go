package cli

import (
	"context"
	"errors"
	"fmt"
	neturl "net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/input"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
	"github.com/sitetxt/sitetxt/sitemap"
)

// sitemapsOptions are the options of "sitetxt sitemaps".
type sitemapsOptions struct {
	IO       *IOStreams
	Agent    string
	Profile  string
	Output   format
	Base     string
	Robots   string
	Lenient  bool
	MaxFiles int
	MaxDepth int
	MaxTime  time.Duration
	Sources  []string
	Fetch    fetchFlags
}

func newSitemapsCmd(ios *IOStreams) *cobra.Command {
	opts := &sitemapsOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "sitemaps [--agent NAME] [-o text|json|csv] SOURCE...",
		Short: "List the URLs a site's sitemaps give, checked against its robots.txt",
		Long: `List every URL the sitemaps of SOURCE give, one line per URL.

SOURCE is a site (https://example.org/, or a bare host name, taken as
https): its robots.txt's Sitemap lines, or /sitemap.xml when it has none;
a sitemap URL; or a sitemap file ("-" for standard input). Sitemap indexes are followed, each file read once (an
index that lists itself, two that list each other); a URL listed by an
earlier file is not printed again. Every format of the sitemaps.org
protocol is read: XML urlset and sitemapindex, text (one URL a line), RSS
2.0 and Atom 1.0 feeds, any of them gzip-compressed. A file stops at the
protocol's limits (50,000 URLs, 50 MB uncompressed), a discovery at
--max-files, --max-depth and --max-time; each says so.

The protocol's rules are checked and each problem printed on standard error
as "file:line:col: severity: message [code]": a URL must be absolute, on
the sitemap's own scheme and host and under its directory unless a
robots.txt names the sitemap (cross-submission); such URLs are dropped, and
--lenient keeps them. docs/sitemaps.md has every rule.

--agent NAME decides each URL against its site's robots.txt (--profile,
as check does) and ends with how many URLs each sitemap lists that
robots.txt disallows ("submitted URL blocked by robots.txt"). --robots
FILE|URL decides them by that robots.txt instead of fetching it: a URL's
for its own site, a file's for the site of --base (or of the first URL).

-o json prints one object per URL per line (docs/schema/sitemaps.json):
  {"url","lastmod","changefreq","priority","sitemap"}
where lastmod is normalised (W3C datetime in UTC, or the date as precise as
written), changefreq and priority null when absent or invalid, and sitemap
the URL of the file that listed it; extensions add "images", "videos",
"news", "alternates". With --agent each object is also the decision object
of "check -o json": "agent", "profile", "allowed", "reason", "rule",
"group", "fetch". -o csv prints the same as rows.

Exit codes: 0 when every sitemap was read without an error and (with
--agent) every URL is allowed; 1 when a sitemap has an error (a URL
dropped, a limit reached, not XML) or a URL is disallowed; 2 on usage
errors and when a robots.txt or sitemap could not be fetched or read.`,
		Example: `  sitetxt sitemaps https://example.org/
  sitetxt sitemaps --agent Googlebot -o json https://example.org/
  sitetxt sitemaps --base https://www.example.org/sitemap.xml testdata/sitemap/urlset.xml
  sitetxt sitemaps --agent Googlebot --robots robots.txt sitemap.xml`,
		Args: minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Sources = args
			return sitemapsRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Agent, "agent", "", "decide each URL for this crawler against its site's robots.txt")
	profileFlag(cmd, &opts.Profile)
	opts.Fetch.AddFlags(cmd)
	outputFlag(cmd, &opts.Output, rowFormats)
	cmd.Flags().StringVar(&opts.Base, "base", "", "URL a sitemap FILE was found at: its URLs must lie under it, relative feed links resolve against it")
	cmd.Flags().StringVar(&opts.Robots, "robots", "", "with --agent: the robots.txt (file or URL) to decide the URLs of its site by, instead of fetching it (a file's site: --base's, else the first URL's)")
	cmd.Flags().BoolVar(&opts.Lenient, "lenient", false, "keep URLs the protocol drops for where they are (another host, outside the sitemap's directory)")
	cmd.Flags().IntVar(&opts.MaxFiles, "max-files", sitemap.DefaultMaxFiles, "how many sitemap files one SOURCE may fetch")
	cmd.Flags().IntVar(&opts.MaxDepth, "max-depth", sitemap.DefaultMaxDepth, "how many sitemap indexes deep to follow")
	cmd.Flags().DurationVar(&opts.MaxTime, "max-time", sitemap.DefaultMaxTime, "how long reading one SOURCE's sitemaps may take")
	return cmd
}

// sitemapsRun is one run of "sitetxt sitemaps".
type sitemapsRunState struct {
	opts    *sitemapsOptions
	prof    robots.Profile
	fetcher *sitemap.Fetcher
	lister  *robotsLister
	sites   *siteSources // with --agent
	out     *stream
	st      style
	jl      *jsonLines
	cw      *csvRows

	failure  error
	found    bool // an error diagnostic or a disallowed URL
	urls     int
	files    int
	repeated int
	diags    diagCounts
	blocked  []sitemapCount
}

// sitemapCount counts, for one sitemap file, the URLs decided and those
// robots.txt disallows.
type sitemapCount struct {
	url                string
	listed, disallowed int
}

func sitemapsRun(opts *sitemapsOptions) error {
	prof, err := robots.ParseProfile(opts.Profile)
	if err != nil {
		return usageError("%v", err)
	}
	if opts.MaxFiles < 1 || opts.MaxDepth < 1 || opts.MaxTime <= 0 {
		return usageError("--max-files and --max-depth must be at least 1, --max-time more than 0")
	}
	if opts.Base != "" && !fetch.IsURL(opts.Base) {
		return usageError("--base %q is not an absolute http(s) URL", opts.Base)
	}
	opts.Fetch.Profile = prof.String()
	if err := opts.Fetch.prepare(opts.IO); err != nil {
		return err
	}
	ff := &opts.Fetch
	r := &sitemapsRunState{opts: opts, prof: prof,
		lister: newRobotsLister(ff.robotsClient(prof)),
		fetcher: &sitemap.Fetcher{Fetcher: ff.Fetcher(), MaxFiles: opts.MaxFiles, MaxDepth: opts.MaxDepth, MaxTime: opts.MaxTime,
			Options: sitemap.Options{Lenient: opts.Lenient}}}
	if opts.Agent != "" {
		agentNote(opts.IO, prof, opts.Agent)
		r.sites = newSiteSources(opts.IO, ff, r.lister.client, opts.Agent) // one fetch and compile per site for both
		if err := r.sites.pinRobots(opts.Robots, opts.Base); err != nil {
			return err
		}
	} else if opts.Robots != "" {
		return usageError("--robots needs --agent: it decides the URLs for that crawler")
	}
	r.out = newStream(opts.IO.Out, false)
	r.st = newStyle(opts.IO, opts.IO.Out)
	if r.jl, r.cw, err = machineOutput(r.out, opts.Output, sitemapCSVHeader(opts.Agent != "")); err != nil {
		return err
	}
	for _, src := range opts.Sources {
		if err := r.source(src); err != nil {
			return err
		}
	}
	r.summary()
	if err := r.out.done(); err != nil {
		return err
	}
	if r.sites != nil && r.sites.failure != nil && r.failure == nil {
		r.failure = r.sites.failure
	}
	return exitWith(r.failure, r.found)
}

// source lists the URLs of one SOURCE: a file, or a URL or host name
// (sourceArg, as every command reads a SOURCE).
func (r *sitemapsRunState) source(arg string) error {
	ctx := context.Background()
	src, err := sourceArg(arg)
	if err != nil {
		return err
	}
	if !src.Fetched() {
		return r.file(ctx, src.Typed)
	}
	hostNote(r.opts.IO, src)
	return r.walk(manifest.SitemapsOf(ctx, r.fetcher, r.lister, src.URL))
}

// file reads a sitemap file, or standard input, and walks the sitemaps an
// index there lists.
func (r *sitemapsRunState) file(ctx context.Context, name string) error {
	in, display, err := openNamed(r.opts.IO, name)
	if err != nil {
		return err
	}
	defer in.Close()
	if name != "-" {
		if abs, err := filepath.Abs(name); err == nil {
			display = (&neturl.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
		}
	}
	o := r.fetcher.Options
	o.URL, o.Name = r.opts.Base, name
	if name == "-" {
		o.Name = display
	}
	rd := sitemap.NewReader(in, o)
	var children []string
	file := &sitemap.File{URL: display}
	for e, err := range rd.Entries() {
		if err != nil {
			file.Err = err
			break
		}
		if rd.Format() == sitemap.Index {
			if !e.OutOfScope {
				children = append(children, e.URL)
			}
			continue
		}
		if err := r.url(&sitemap.Found{Entry: e, Sitemap: display}); err != nil {
			return err
		}
	}
	file.Format, file.URLs, file.Diagnostics = rd.Format(), rd.Count(), rd.Diagnostics()
	r.fileDone(file)
	if len(children) > 0 {
		return r.walk(r.fetcher.Walk(ctx, r.lister, children...))
	}
	return nil
}

// walk prints what a discovery finds.
func (r *sitemapsRunState) walk(d *sitemap.Discovery) error {
	for found, file := range d.All() {
		if found != nil {
			if err := r.url(found); err != nil {
				return err
			}
		}
		if file != nil {
			r.fileDone(file)
		}
	}
	if err := d.Err(); err != nil {
		printErr(r.opts.IO, err)
		r.failure = &exitError{code: ExitError}
	}
	if s := d.Stopped(); s != "" {
		warn(r.opts.IO, "stopped: %s", s)
	}
	return nil
}

// fileDone reports a sitemap file once it has been read: its problems on
// standard error, a fetch failure as exit 2.
func (r *sitemapsRunState) fileDone(f *sitemap.File) {
	ios := r.opts.IO
	r.files++
	r.repeated += f.Repeated
	for _, d := range f.Diagnostics {
		r.diags.add(d)
		if d.Severity == grammar.Error {
			r.found = true
		}
		fmt.Fprintf(ios.ErrOut, "%s\n", diagText(d))
	}
	if f.Err == nil {
		return
	}
	var se *fetch.StatusError
	if f.Guessed && errors.As(f.Err, &se) && se.Code/100 == 4 {
		note(ios, "robots.txt names no sitemap, and %s answers %v: the site lists no sitemap", f.URL, f.Err)
		return
	}
	fmt.Fprintf(ios.ErrOut, "sitetxt: cannot fetch %s: %s\n", visible(f.URL), visible(f.Err.Error()))
	r.failure = &exitError{code: ExitError}
}

// url prints one URL, decided when --agent is given.
func (r *sitemapsRunState) url(f *sitemap.Found) error {
	r.urls++
	v := sitemapURLJSON{SitemapURL: jsonview.SitemapURLOf(f)}
	var d robots.Decision
	var cs *checkSource
	if r.sites != nil {
		var err error
		if cs, err = r.sites.get(input.URL{Typed: f.URL, Decide: f.URL}); err != nil {
			printErr(r.opts.IO, err)
			r.sites.failure = &exitError{code: ExitError}
		} else {
			d = cs.decide(f.URL)
			v.decided = &decided{cs.views.Of(f.URL, r.opts.Agent, d)}
			r.count(f.Sitemap, d.Allowed)
		}
	}
	switch {
	case r.jl != nil:
		return r.jl.write(v)
	case r.cw != nil:
		return r.cw.write(sitemapRow(v, r.sites != nil)...)
	}
	var err error
	if cs != nil {
		err = writeDecision(r.out.w, r.st, cs.name, f.URL, d)
	} else {
		_, err = fmt.Fprintf(r.out.w, "%s%s\n", shownURL(f.URL), sitemapFields(v))
	}
	if err != nil {
		return err
	}
	return r.out.end()
}

// count adds a decided URL to its sitemap's counts.
func (r *sitemapsRunState) count(sm string, allowed bool) {
	if n := len(r.blocked); n == 0 || r.blocked[n-1].url != sm {
		r.blocked = append(r.blocked, sitemapCount{url: sm})
	}
	c := &r.blocked[len(r.blocked)-1]
	c.listed++
	if !allowed {
		c.disallowed++
		r.found = true
	}
}

// summary says what was read and, with --agent, how many URLs each
// sitemap lists that robots.txt disallows: on standard output after the
// text, on standard error (as notes) after JSON or CSV.
func (r *sitemapsRunState) summary() {
	ios := r.opts.IO
	if ios.Quiet {
		return
	}
	lines := []string{fmt.Sprintf("%s from %s (%s%s)", plural(r.urls, "URL"), plural(r.files, "sitemap file"), r.diags, r.diags.notPrinted())}
	if r.repeated > 0 {
		lines[0] += fmt.Sprintf("; %s listed again, printed once", plural(r.repeated, "URL"))
	}
	if r.sites != nil {
		total, dis := 0, 0
		for _, c := range r.blocked {
			total, dis = total+c.listed, dis+c.disallowed
		}
		lines = append(lines, fmt.Sprintf("%d of %d listed URLs are disallowed for %s by robots.txt (%s)", dis, total, r.opts.Agent, r.prof))
		for _, c := range r.blocked {
			if c.disallowed > 0 {
				lines = append(lines, fmt.Sprintf("  %s: %d of %d disallowed", c.url, c.disallowed, c.listed))
			}
		}
	}
	for _, l := range lines {
		if r.opts.Output == fText {
			fmt.Fprintln(r.out.w, visible(l))
		} else {
			note(ios, "%s", l)
		}
	}
}

// robotsLister gives the Sitemap lines of a site's robots.txt, read
// under --profile through the run's robots.Client (the command's fetcher
// and cache; with --agent, the copy the URLs are decided by), each site's
// once per run.
type robotsLister struct {
	client *robots.Client
	m      map[string][]string
	errs   map[string]error
}

func newRobotsLister(rc *robots.Client) *robotsLister {
	return &robotsLister{client: rc, m: map[string][]string{}, errs: map[string]error{}}
}

// Sitemaps implements sitemap.Lister.
func (l *robotsLister) Sitemaps(ctx context.Context, site string) ([]string, error) {
	robotsURL, err := fetch.ManifestURL(site, manifest.Robots.File)
	if err != nil {
		return nil, err
	}
	if maps, ok := l.m[robotsURL]; ok {
		return maps, l.errs[robotsURL]
	}
	rd, err := l.client.Reading(ctx, site)
	var maps []string
	switch {
	case err != nil:
	case rd.Fetched.Status == fetch.Parse:
		for _, s := range rd.Policy.Sitemaps() {
			maps = append(maps, s.URL)
		}
	case rd.Fetched.Err != nil:
		err = rd.Fetched.Failure()
	}
	l.m[robotsURL], l.errs[robotsURL] = maps, err
	return maps, err
}

// sitemapURLJSON is one URL of -o json: the URL as a sitemap lists it,
// and with --agent the decision object of check -o json.
type sitemapURLJSON struct {
	jsonview.SitemapURL
	*decided
}

// decided holds the decision one level below URL, so that URL's "url"
// is the one that shows (jsonview.SitemapURL).
type decided struct{ jsonview.Decision }

// sitemapFields is what text output shows after a URL: the optional
// fields it has.
func sitemapFields(v sitemapURLJSON) string {
	var b strings.Builder
	row := v.Row()
	for i, name := range jsonview.SitemapHeader[1:4] {
		if row[i+1] != "" {
			b.WriteString("  " + name + "=" + row[i+1])
		}
	}
	return b.String()
}

// sitemapCSVHeader and sitemapRow are a URL as a CSV row: the JSON's
// columns, then with --agent the decision's (as check -o csv, without its
// url).
func sitemapCSVHeader(agent bool) []string {
	h := append([]string(nil), jsonview.SitemapHeader...)
	if agent {
		h = append(h, decisionCSVHeader()[1:]...)
	}
	return h
}

func sitemapRow(v sitemapURLJSON, agent bool) []string {
	row := v.Row()
	if agent {
		if v.decided != nil {
			row = append(row, decisionRow(v.Decision)[1:]...)
		} else {
			row = append(row, make([]string, len(decisionCSVHeader())-1)...)
		}
	}
	return row
}
