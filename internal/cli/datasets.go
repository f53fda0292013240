package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
)

// datasetsOptions are the options of "sitetxt datasets".
type datasetsOptions struct {
	IO           *IOStreams
	Base         []string
	Agent        string
	Profile      string
	Robots       string
	Form         string
	Output       format
	Sources      []string
	List         string
	Title        string
	Publisher    string
	Contact      string
	ContactEmail string
	BureauCode   []string
	ProgramCode  []string
	NoFollow     bool
	MaxDepth     int
	MaxFetches   int
	BoardTimeout time.Duration
	Probe        bool
	ProbeConc    int
	ProbeDelay   time.Duration
	ProbeTimeout time.Duration
	Discover     []string
	MaxPages     int
	Delay        time.Duration
	Fetch        fetchFlags
}

func newDatasetsCmd(ios *IOStreams) *cobra.Command {
	opts := &datasetsOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "datasets [flags] SOURCE...",
		Short: "List the datasets data.txt files offer, with URLs, metadata and access; export catalogs",
		Long: `Read data.txt files (files, "-" for standard input, or site and data.txt
URLs) in either of their forms, the YAML list of datatxt.org and R pins or the
draft's "Path:" records, and list their datasets in one catalog: name, paths
resolved to URLs against --base (the URL the data.txt was fetched from),
metadata, and whether --agent may fetch them under the data.txt's own
User-agent/Allow/Disallow records and the site's robots.txt (--robots), read
with --profile. --list FILE (or "-") adds one SOURCE per line.

--base is the URL a SOURCE is published at (a fetched one's is its own
URL). With several SOURCEs, give one --base per SOURCE, in order, or one
ending in "/" under which each SOURCE on disk lies at the path it is named
by. --robots (a file, "-" or a URL) judges only the URLs on its own site:
a fetched robots.txt those on its URL's scheme and host; a file, which has
no URL, those on the SOURCEs' site, which must then be one.

A data.txt, fetched or on disk, is followed as R pins reads a board: a pins
0.x index entry whose path is a directory ("path: mtcars") is replaced by
the files its own mtcars/data.txt lists; a URL ending in "/" or a directory
means its data.txt, and a board without one is read through its pins 1.x
manifest _pins.yaml (each pin's latest version directory and its data.txt),
as is a _pins.yaml named as SOURCE. On disk, only files under the SOURCE's
directory are read. --max-depth, --max-fetches and --board-timeout bound
this, the same for both; --no-follow turns it off.

--discover KINDS reads sites (SOURCEs are site URLs or host names) through
every convention catalog builders meet, not only /data.txt: data.txt,
data.json (/data.json, Project Open Data), dcat (DCAT JSON-LD:
/catalog.jsonld and documents pages link to), schema.org and croissant
(JSON-LD in the front page and the pages the site's sitemaps list, and
the files they link to) and signposting (FAIR Signposting Link headers and
<link> elements), comma-separated or repeated, or all. Every request goes
behind the site's robots.txt, read once (a page it disallows for --agent is
never fetched), spaced as it asks (Crawl-delay, Request-rate) or by
--delay; at most --max-pages pages and linked documents are read. A
dataset several sources give (one identifier, file URL or landing page)
is listed once, with its sources; -o json adds "sources" (each {"kind",
"url"}) and, per field, "provenance"; where sources disagree a warning says which value was kept.
docs/datatxt.md describes each source and the merge.

Output formats (-o): text (aligned columns), json (JSON Lines, one object
per dataset), yaml, csv, and the catalog documents schemaorg (schema.org
DataCatalog JSON-LD), dcat (DCAT-AP 3 JSON-LD), datajson (Project Open Data
data.json v1.1; the federal schema when --bureau-code and --program-code are
given), datapackage (Frictionless datapackage.json) and croissant (MLCommons
Croissant 1.1, a JSON array with one document per dataset). What a data.txt
cannot say comes from --publisher, --contact and --contact-email, never from
placeholders; with --discover, the publisher, creator and contact point the
sources state, the flags overriding. docs/datatxt.md says how fields map.

Problems are printed on standard error as "file:line:col: severity: message".
Exit codes: 0 when every entry is valid (warnings are allowed); 1 when an
error was reported or an export lacks a field its format requires (the
error names it; the document is still written); 2 on usage errors or a
source that could not be read or fetched (the other sources are still
listed).`,
		Example: `  sitetxt datasets --base https://example.org/data.txt testdata/datatxt/list.yaml.txt
  sitetxt datasets -o json --agent mybot testdata/datatxt/records.txt
  sitetxt datasets -o datajson --publisher "Example Org" --contact "Data Team" \
      --contact-email data@example.org https://example.org/ https://example.net/board/
  sitetxt datasets --discover all -o json https://data.example.org/
  sitetxt datasets --discover data.json,dcat --max-pages 20 -o dcat --publisher "Example Org" data.example.org`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 && opts.List == "" {
				return usageError("datasets: needs at least one SOURCE (or --list)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Sources = args
			return datasetsRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&opts.Base, "base", nil, `URL a SOURCE is published at; its relative paths resolve against it (one per SOURCE, in order, or one ending in "/" that the SOURCE files are under)`)
	agentFlag(cmd, &opts.Agent, `crawler name or User-Agent header whose access is decided ("*": only the "*" group)`)
	profileFlag(cmd, &opts.Profile)
	f.StringVar(&opts.Robots, "robots", "", "the site's robots.txt (file or URL), applied to URLs on its own site")
	f.StringVar(&opts.Form, "form", "auto", "data.txt form: auto, yaml or records")
	f.StringVar(&opts.List, "list", "", `read more SOURCEs from this file, one per line ("-": standard input; blank and # lines skipped)`)
	f.StringVar(&opts.Title, "title", "", "the catalog's title (default: where its datasets were listed)")
	f.StringVar(&opts.Publisher, "publisher", "", "the organisation publishing the datasets (data.json, DCAT, schema.org, Croissant); with --discover, over the one the sources state")
	f.StringVar(&opts.Contact, "contact", "", "the datasets' contact point, a name (data.json, DCAT); with --discover, over the one the sources state")
	f.StringVar(&opts.ContactEmail, "contact-email", "", "the contact point's email address")
	f.StringSliceVar(&opts.BureauCode, "bureau-code", nil, "US federal bureau code(s); with --program-code, data.json follows the federal schema")
	f.StringSliceVar(&opts.ProgramCode, "program-code", nil, "US federal program code(s)")
	f.BoolVar(&opts.NoFollow, "no-follow", false, "do not follow pins boards (directory entries, _pins.yaml)")
	f.IntVar(&opts.MaxDepth, "max-depth", datatxt.DefaultBoardLimits.MaxDepth, "how many levels of data.txt below a SOURCE's are read")
	f.IntVar(&opts.MaxFetches, "max-fetches", datatxt.DefaultBoardLimits.MaxFetches, "how many files following one SOURCE's board may fetch or read")
	f.DurationVar(&opts.BoardTimeout, "board-timeout", datatxt.DefaultBoardLimits.Timeout, "how long following one source's board may take")
	f.BoolVar(&opts.Probe, "probe", false, "ask each file's server (HEAD, or a one-byte ranged GET) for its media type, size and Last-Modified, honouring robots.txt for --agent")
	f.IntVar(&opts.ProbeConc, "probe-concurrency", 4, "how many probe requests are in flight at once")
	f.DurationVar(&opts.ProbeDelay, "probe-delay", time.Second, "the least time between two probe requests to one host")
	f.DurationVar(&opts.ProbeTimeout, "probe-timeout", 2*time.Minute, "how long probing may take in all")
	discoverFlags(cmd, opts)
	outputFlag(cmd, &opts.Output, datasetsFormats())
	opts.Fetch.AddFlags(cmd)
	return cmd
}

func datasetsRun(opts *datasetsOptions) error {
	form, err := datatxt.ParseForm(opts.Form)
	if err != nil {
		return usageError("%s", err)
	}
	prof, err := robots.ParseProfile(opts.Profile)
	if err != nil {
		return usageError("%v", err)
	}
	if len(opts.Discover) > 0 {
		return discoverRun(opts, form, prof)
	}
	sources, bases, err := datasetsSources(opts)
	if err != nil {
		return err
	}
	popts := datatxt.Options{Form: form, Agent: opts.Agent,
		Rules: datatxt.CompileRules(robots.Compile, prof)}
	if err := datasetsRobots(opts, prof, sources, bases, &popts); err != nil {
		return err
	}
	c, failed, err := readCatalogs(opts, sources, bases, popts)
	if c == nil {
		return err
	}
	return datasetsOutput(opts, prof, c, failed)
}

// datasetsOutput probes (--probe) and writes a catalog read from data.txt
// files or discovered (--discover), with its diagnostics, and says how the
// run ends: failed when a SOURCE could not be read.
func datasetsOutput(opts *datasetsOptions, prof robots.Profile, c *datatxt.Catalog, failed bool) error {
	var err error
	var probeDiags grammar.Diagnostics
	if opts.Probe {
		if err := opts.Fetch.prepare(opts.IO); err != nil {
			return err
		}
		probeDiags = probeCatalog(opts, prof, c)
	}
	var probs datatxt.Problems
	switch opts.Output {
	case fText:
		if accessDecided(c) {
			io.WriteString(opts.IO.Out, answersFor(opts.Agent, prof)) // whose access the ACCESS column is
		}
		err = printDatasets(opts.IO, c)
	case fJSON:
		err = printDatasetsJSON(opts.IO.Out, c)
	default:
		probs, err = datatxt.Export(opts.IO.Out, c, string(opts.Output), datatxt.ExportOptions{
			Title: opts.Title, Publisher: opts.Publisher, ContactName: opts.Contact, ContactEmail: opts.ContactEmail,
			BureauCode: opts.BureauCode, ProgramCode: opts.ProgramCode,
		})
	}
	diags := append(append(c.Diagnostics, probeDiags...), probs.Diagnostics()...)
	diags.Sort()
	for _, d := range diags {
		fmt.Fprintln(opts.IO.ErrOut, visible(d.Error()))
	}
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	switch {
	case failed:
		return &exitError{code: ExitError}
	case diags.HasErrors():
		return findings
	}
	return nil
}

// datasetsSources returns the SOURCEs (arguments and --list) and the base
// of each, after checking the flags that bound the run.
func datasetsSources(opts *datasetsOptions) (sources, bases []string, err error) {
	sources = append([]string(nil), opts.Sources...)
	if opts.List != "" {
		more, err := readSourceList(opts.IO, opts.List)
		if err != nil {
			return nil, nil, err
		}
		sources = append(sources, more...)
	}
	if len(sources) == 0 {
		return nil, nil, usageError("datasets: --list %s names no SOURCE", opts.List)
	}
	stdin := 0
	for _, s := range append(sources, opts.List, opts.Robots) {
		if s == "-" {
			stdin++
		}
	}
	if stdin > 1 {
		return nil, nil, usageError("datasets: standard input can be read once (SOURCE, --list or --robots)")
	}
	if bases, err = sourceBases(opts.Base, sources); err != nil {
		return nil, nil, err
	}
	if (len(opts.BureauCode) > 0) != (len(opts.ProgramCode) > 0) {
		return nil, nil, usageError("--bureau-code and --program-code go together (the federal data.json schema needs both)")
	}
	if opts.MaxDepth < 0 || opts.MaxFetches < 1 || opts.BoardTimeout <= 0 {
		return nil, nil, usageError("--max-depth must be 0 or more, --max-fetches 1 or more, --board-timeout positive")
	}
	if opts.ProbeConc < 1 || opts.ProbeDelay < 0 || opts.ProbeTimeout <= 0 {
		return nil, nil, usageError("--probe-concurrency must be 1 or more, --probe-delay 0 or more, --probe-timeout positive")
	}
	return sources, bases, nil
}

// datasetsRobots reads --robots, if given, into popts: the access it
// gives, and the site it applies to.
func datasetsRobots(opts *datasetsOptions, prof robots.Profile, sources, bases []string, popts *datatxt.Options) error {
	if opts.Robots == "" {
		return nil
	}
	opts.Fetch.Profile = prof.String()
	rsrc, err := resolveSource(opts.IO, &opts.Fetch, opts.Robots, manifest.Robots)
	if err != nil {
		return err
	}
	as, err := accessFor(&opts.Fetch, rsrc, []string{prof.String()})
	if err != nil {
		return err
	}
	popts.Robots = as[0]
	popts.RobotsSite, err = robotsSiteOf(opts.Robots, rsrc, sources, bases)
	return err
}

// readCatalogs reads every SOURCE into one catalog; failed says that one
// could not be read (its error is printed). With none read, the catalog
// is nil and err the run's answer.
func readCatalogs(opts *datasetsOptions, sources, bases []string, popts datatxt.Options) (c *datatxt.Catalog, failed bool, err error) {
	var cats []*datatxt.Catalog
	for i, s := range sources {
		popts.Base = bases[i]
		c, err := datasetsSource(opts, s, popts)
		if err != nil {
			failed = true
			var ee *exitError
			if errors.As(err, &ee) && ee.code != ExitError {
				return nil, true, err
			}
			printErr(opts.IO, err)
			continue
		}
		cats = append(cats, c)
	}
	if len(cats) == 0 && failed {
		// Nothing could be read: the errors said so; no empty report.
		return nil, true, &exitError{code: ExitError}
	}
	name := "catalog"
	if len(sources) == 1 {
		name = sources[0]
	}
	c = datatxt.Join(name, cats...)
	if len(cats) == 1 {
		c.Name = cats[0].Name
	}
	return c, failed, nil
}

// probeCatalog asks each file's server about it (--probe).
func probeCatalog(opts *datasetsOptions, prof robots.Profile, c *datatxt.Catalog) grammar.Diagnostics {
	ff := opts.Fetch.Fetcher()
	pf := &datatxt.Fetcher{Fetcher: ff}
	rc := opts.Fetch.robotsClient(prof)
	delay := opts.ProbeDelay
	if delay == 0 {
		delay = -1 // ProbeOptions reads 0 as the default
	}
	return pf.Probe(context.Background(), c, datatxt.ProbeOptions{Agent: opts.Agent, Robots: rc,
		Concurrency: opts.ProbeConc, HostDelay: delay, Timeout: opts.ProbeTimeout})
}

// datasetsSource reads one SOURCE: a file or standard input is parsed; a
// URL is fetched and, unless --no-follow, followed as a pins board.
func datasetsSource(opts *datasetsOptions, typed string, popts datatxt.Options) (*datatxt.Catalog, error) {
	s, err := sourceArg(typed)
	if err != nil {
		return nil, err
	}
	if s.Fetched() && !opts.NoFollow {
		hostNote(opts.IO, s)
		arg := s.URL
		if err := opts.Fetch.prepare(opts.IO); err != nil {
			return nil, err
		}
		f := &datatxt.Fetcher{Fetcher: opts.Fetch.Fetcher()}
		c, err := f.Discover(context.Background(), arg, popts, boardLimits(opts))
		if errors.Is(err, datatxt.ErrNoDataTxt) {
			// Not an error: the site may offer datasets found by other means.
			fmt.Fprintf(opts.IO.ErrOut, "sitetxt: note: %s\n", visible(err.Error()))
			if u, uerr := fetch.ManifestURL(arg, manifest.DataTxt.File); uerr == nil {
				// The answer is in this run's cache: how long it is kept.
				r := opts.Fetch.Fetcher().Fetch(context.Background(), u, fetch.AccessDataTxt)
				freshnessNote(opts.IO, u, r, opts.Fetch.cached(r))
			}
			return &datatxt.Catalog{Name: arg, Form: datatxt.FormYAML}, nil
		}
		if err != nil {
			return nil, &exitError{code: ExitError, err: err}
		}
		return c, nil
	}
	if !s.Fetched() {
		if c, ok, err := localBoard(opts, s.Typed, popts); ok {
			return c, err
		}
	}
	src, err := openSource(opts.IO, &opts.Fetch, s, manifest.DataTxt)
	if err != nil {
		return nil, err
	}
	if r := src.fetched; r != nil {
		if r.Status == fetch.NotFound {
			fmt.Fprintf(opts.IO.ErrOut, "sitetxt: note: %s: %s\n", visible(src.name), r.Reason)
			freshnessNote(opts.IO, src.name, r, src.cached)
			return &datatxt.Catalog{Name: src.name, Form: datatxt.FormYAML}, nil
		}
		if popts.Base == "" {
			popts.Base = r.FinalURL
		}
	}
	c := datatxt.Parse(src.name, []byte(src.data), popts)
	if cut := src.cutDiagnostics(); len(cut) > 0 {
		c.Diagnostics = append(c.Diagnostics, cut...)
		c.Diagnostics.Sort()
	}
	return c, nil
}

// readSourceList reads SOURCEs one per line, skipping blank and "#" lines.
func readSourceList(ios *IOStreams, name string) ([]string, error) {
	var r io.Reader = ios.In
	if name != "-" {
		src, err := readSource(ios, name)
		if err != nil {
			return nil, err
		}
		r = strings.NewReader(src.data)
	}
	display := name
	if name == "-" {
		display = "<stdin>"
	}
	var out []string
	err := eachLine(r, display, func(_ int, line string, long error) error {
		if long != nil {
			return cannotRead(display, long)
		}
		if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
		return nil
	})
	return out, err
}

// printDatasetsJSON writes one JSON object per dataset (JSON Lines).
func printDatasetsJSON(w io.Writer, c *datatxt.Catalog) error {
	out := newStream(w, false)
	jl := newJSONLines(out)
	for _, e := range c.Entries {
		if err := jl.write(jsonview.DatasetOf(e)); err != nil {
			return err
		}
	}
	return out.done()
}

// printDatasets writes the entries as aligned columns, one row per URL;
// on a terminal, allowed and disallowed are coloured.
func printDatasets(ios *IOStreams, c *datatxt.Catalog) error {
	st := newStyle(ios, ios.Out)
	var tab table
	// Entries from several files (sources, pins boards) say which.
	many := false
	for _, e := range c.Entries {
		if e.Source != c.Entries[0].Source {
			many = true
			break
		}
	}
	head := []string{"NAME", "LINE", "ACCESS", "URL"}
	discovered := discoveredCatalog(c)
	switch {
	case discovered:
		many = true
		head = []string{"NAME", "LINE", "ACCESS", "SOURCES", "URL"}
	case many:
		head = []string{"NAME", "LINE", "ACCESS", "LISTED IN", "URL"}
	}
	tab.add(head, []func(string) string{st.bold, st.bold, st.bold, st.bold, st.bold})
	for _, e := range c.Entries {
		access, paint := "-", []func(string) string(nil)
		if e.Access != datatxt.Unknown {
			ok := e.Access == datatxt.Allowed
			access = e.Access.String()
			if !ok {
				access += " (" + e.DeniedBy + ")"
			}
			paint = []func(string) string{nil, nil, func(s string) string { return st.verdict(ok, s, s) }}
		}
		name := e.Name
		if name == "" {
			name = "(unnamed)"
		}
		urls := e.URLs
		switch {
		case len(urls) == 0 && len(e.Paths) == 0:
			urls = []string{"(no file)"}
		case len(urls) == 0:
			urls = []string{"(no valid URL) " + strings.Join(e.Paths, " ")}
		}
		for i, u := range urls {
			row := []string{"", "", "", visible(u)}
			if i == 0 {
				row = []string{visible(name), strconv.Itoa(e.Pos.Line), access, visible(u)}
			}
			if many {
				src := ""
				if i == 0 {
					src = visible(e.Source)
					if discovered {
						src = sourceKinds(e)
					}
				}
				row = []string{row[0], row[1], row[2], src, row[3]}
			}
			if i == 0 {
				tab.add(row, paint)
			} else {
				tab.add(row, nil)
			}
		}
	}
	if err := tab.write(ios.Out); err != nil {
		return err
	}
	if len(c.Entries) == 0 && len(c.Diagnostics) == 0 {
		// Nothing was read: no form to name.
		_, err := fmt.Fprintln(ios.Out, "0 datasets")
		return err
	}
	if c.Form == datatxt.FormAuto {
		_, err := fmt.Fprintf(ios.Out, "%s\n", plural(len(c.Entries), "dataset"))
		return err
	}
	_, err := fmt.Fprintf(ios.Out, "%s (%s form)\n", plural(len(c.Entries), "dataset"), c.Form)
	return err
}
