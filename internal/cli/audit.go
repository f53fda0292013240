package cli

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitetxt/sitetxt/internal/audit"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
)

// auditOptions are the options of "sitetxt audit".
type auditOptions struct {
	IO      *IOStreams
	Output  format
	Profile string
	Paths   []string
	Summary bool
	Stats   bool
	// Merge sums the audit --summary -o json results named by Sources.
	Merge bool
	// All names every crawler in text (else a group shows its count and
	// the names that fit a line).
	All     bool
	Sources []string
	Fetch   fetchFlags
}

func newAuditCmd(ios *IOStreams) *cobra.Command {
	opts := &auditOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "audit [-o text|json|csv|html] [--path P]... [--all] SOURCE... | audit --summary [-o text|json|csv] SOURCE... | audit --merge [-o text|json|csv] RESULT...",
		Short: "Say which known crawlers, AI crawlers among them, may fetch and use a site",
		Long: `Audit robots.txt files for every crawler of sitetxt's registry of known
crawlers (search engines, AI training, AI search, AI assistants, SEO,
archives; docs/ai-preferences.md): may it fetch the site root and each
--path, which line decides, which usage preferences apply (Content-Usage,
Content-Signal), and where the four profiles disagree. Each category gets a
one-line verdict ("AI training crawlers: 14 of 19 blocked from /"); in
text, the crawlers of a category that read the same lines are grouped: one
row of verdicts and the deciding line, how many they are and the names that
fit a line (--all names every one), the usage they read (in full once, then
"as above") and where the profiles differ, said once for the group, in lines
of at most 120 columns.

SOURCE is a file, "-" for standard input, or an http(s) URL (a site URL means
its /robots.txt).

-o json prints one object per source:
  {"file","profile","paths","crawlers":[{"token","operator","category",
   "valid_token", the decision object's fields,"usage","by_path":[...],
   "disagree"}],"categories","licenses","disagreements"}
(docs/schema/audit.json; --summary: docs/schema/audit-summary.json).
-o csv prints one row per source, crawler and path. -o html prints one
self-contained page (no network needed to view it).

--summary audits many files and prints only counts: per crawler and per
category, how many files block it fully (not even "/"), partly (some
Disallow rule applies) or not at all, under each profile, and how many files
the profiles disagree on. Each SOURCE is then a file, a directory (every
file under it), a WARC file (*.warc, *.warc.gz: every 2xx response record,
as in Common Crawl's robots.txt captures) or "-": a list of such names on
standard input, one per line. Files are read as a stream on every core, in
bounded memory. --stats adds the time taken on standard error.

--merge adds up the results of separate "audit --summary -o json" runs
(each RESULT a file, or "-" for standard input) and prints the counts one
run over all their files would: map audit --summary over parts of a corpus
(WARC files, lists) with any batch engine and reduce with --merge. Every
part must come from this version's registry; a part cut short, or counted
with another registry, is an error at its line.

Exit codes: 0 when the profiles agree, 1 when they disagree about some
crawler (not with --summary), 2 on usage or input errors.`,
		Example: `  sitetxt audit testdata/robots/aipref.txt
  sitetxt audit --path /news/ -o html https://example.org/ > report.html
  sitetxt audit --summary ../shared/corpus/robots/
  find . -name robots.txt | sitetxt audit --summary -o csv -
  ls crawl/*.warc.gz | xargs -P 8 -I{} sh -c 'sitetxt audit --summary -o json {} > {}.json'
  sitetxt audit --merge crawl/*.warc.gz.json`,
		Args: minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Sources = args
			return auditRun(opts)
		},
	}
	outputFlag(cmd, &opts.Output, auditFormats)
	profileFlag(cmd, &opts.Profile)
	opts.Fetch.AddFlags(cmd)
	cmd.Flags().StringArrayVar(&opts.Paths, "path", nil, `a path to check besides "/" (repeatable)`)
	cmd.Flags().BoolVar(&opts.Summary, "summary", false, "count over many files instead of reporting each")
	cmd.Flags().BoolVar(&opts.Merge, "merge", false, "sum the results of separate audit --summary -o json runs (each SOURCE one, \"-\" standard input) into the counts one run over all their files gives")
	cmd.Flags().BoolVar(&opts.All, "all", false, "in text, name every crawler of each group (else its count and the names that fit a line)")
	cmd.Flags().BoolVar(&opts.Stats, "stats", false, "with --summary: print files, bytes, time and files per second on standard error")
	return cmd
}

func auditRun(opts *auditOptions) error {
	if opts.Merge {
		if opts.Output == fHTML {
			return unknownFormat(string(opts.Output), rowFormats)
		}
		return auditMergeRun(opts)
	}
	if opts.Summary {
		if opts.Output == fHTML {
			return unknownFormat(string(opts.Output), rowFormats)
		}
		return auditSummaryRun(opts)
	}
	prof, err := robots.ParseProfile(opts.Profile)
	if err != nil {
		return usageError("%v", err)
	}
	if opts.Paths, err = readPaths(opts.IO, "--path", opts.Paths); err != nil {
		return err
	}
	opts.Fetch.Profile = prof.String()
	// One result per source, flushed as each is decided.
	out := newStream(opts.IO.Out, true)
	w := newAuditWriter(opts.Output, out, newStyle(opts.IO, opts.IO.Out))
	w.all = opts.All
	var failure error
	disagree := false
	for _, name := range opts.Sources {
		src, err := resolveSource(opts.IO, &opts.Fetch, name, manifest.Robots)
		if err != nil && isDir(name) {
			err = usageError("%s is a directory: audit --summary %s counts over the files in it; audit FILE reports one file", name, name)
		}
		if err != nil {
			printErr(opts.IO, err)
			failure = &exitError{code: ExitError}
			continue
		}
		if f := reportFetch(opts.IO, src); f != nil {
			failure = f // the cause is on standard error; the answers still print
		}
		markupWarning(opts.IO, src)
		// Parsed as rfc9309 reads it; robots.Compile parses again for a
		// profile that reads more (google reads the whole file).
		f := parseFor(src, robots.RFC9309)
		rep := audit.File(f, audit.Options{Paths: opts.Paths, Profile: prof})
		if d, ok := src.fixed(); ok {
			fixReport(rep, d)
		}
		if rep.Disagree > 0 {
			disagree = true
		}
		if err := w.report(rep); err != nil {
			return err
		}
		if err := out.end(); err != nil {
			return err
		}
	}
	if err := w.finish(); err != nil {
		return err
	}
	if err := out.done(); err != nil {
		return err
	}
	return exitWith(failure, disagree)
}

// fixReport sets every answer of a report to the decision a fetch status
// made for the whole site (a 404 allows all, a 5xx disallows all): no line
// decided, and no usage preference was read.
func fixReport(rep *audit.Report, d robots.Decision) {
	for _, c := range rep.Crawlers {
		for _, p := range c.Paths {
			p.Verdict = audit.Verdict{Decision: jsonview.Decision{URL: p.URL, Agent: p.Agent, Profile: p.Profile, Allowed: d.Allowed, Reason: d.Reason}}
			p.Disagree = false
			for i := range p.Profiles {
				p.Profiles[i].Allowed, p.Profiles[i].Usage = d.Allowed, ""
			}
		}
		c.Verdict, c.Disagree = c.Paths[0].Verdict, false
	}
	rep.Disagree = 0
	for _, cat := range rep.Categories {
		cat.Blocked = 0
		if !d.Allowed {
			cat.Blocked = cat.Crawlers
		}
		cat.Verdict = fmt.Sprintf("%s: %d of %d blocked from /", audit.CategoryTitle(cat.Category), cat.Blocked, cat.Crawlers)
	}
}

// auditWriter writes reports in one output format.
type auditWriter struct {
	format format
	w      io.Writer
	st     style
	jl     *jsonLines
	csv    *csvRows
	html   []*audit.Report
	n      int
	all    bool // text: every name (--all)
	cut    bool // text: a list of names was cut in the report being written
}

func newAuditWriter(f format, s *stream, st style) *auditWriter {
	aw := &auditWriter{format: f, w: s.w, st: st}
	switch f {
	case fJSON:
		aw.jl = newJSONLines(s)
	case fCSV:
		aw.csv = newCSV(s)
	}
	return aw
}

func (aw *auditWriter) report(rep *audit.Report) error {
	defer func() { aw.n++ }()
	switch aw.format {
	case fJSON:
		return aw.jl.write(rep)
	case fCSV:
		return aw.csvReport(rep)
	case fHTML:
		aw.html = append(aw.html, rep) // one page for all sources
		return nil
	}
	return aw.textReport(rep)
}

func (aw *auditWriter) finish() error {
	if aw.format == fHTML && len(aw.html) > 0 { // no page when no source could be read
		return writeAuditHTML(aw.w, aw.html)
	}
	return nil
}

// csvHeader is the header row of audit -o csv.
var csvHeader = []string{"file", "token", "operator", "category", "path", "profile", "verdict", "reason",
	"directive", "pattern", "line", "column", "train_ai", "search", "signal_search", "signal_ai_input", "signal_ai_train", "derived_train_ai", "derived_search", "disagree",
	"ai_use", "signal_use", "derived_ai_use", "purpose", "answer"} // the last five added for vocab-08 and use=, after the columns readers know

func (aw *auditWriter) csvReport(rep *audit.Report) error {
	if aw.n == 0 {
		if err := aw.csv.write(csvHeader...); err != nil {
			return err
		}
	}
	for _, c := range rep.Crawlers {
		for _, p := range c.Paths {
			row := []string{rep.Source, c.Token, c.Operator, c.Category, p.Path, rep.Profile, verdictWord(p.Allowed), p.Reason,
				"", "", "", "", "", "", "", "", "", "", "", strconv.FormatBool(p.Disagree), "", "", "", "", ""}
			if r := p.Rule; r != nil {
				row[8], row[9], row[10], row[11] = r.Directive, r.Pattern, strconv.Itoa(r.Line), strconv.Itoa(r.Column)
			}
			if u := p.Usage; u != nil {
				row[12], row[13] = u.ContentUsage.TrainAI, u.ContentUsage.Search
				row[14], row[15], row[16] = u.ContentSignal.Search, u.ContentSignal.AIInput, u.ContentSignal.AITrain
				row[17], row[18] = u.Derived.TrainAI, u.Derived.Search
				row[20], row[21], row[22] = u.ContentUsage.AIUse, u.ContentSignal.Use, u.Derived.AIUse
				row[23], row[24] = u.Derived.Purpose, u.Derived.Answer
			}
			if err := aw.csv.write(row...); err != nil {
				return err
			}
		}
	}
	return nil
}

// auditSummaryRun is audit --summary.
func auditSummaryRun(opts *auditOptions) error {
	start := time.Now()
	in := make(chan audit.Input, 2*runtime.GOMAXPROCS(0))
	srcErr := make(chan error, 1)
	go func() {
		defer close(in)
		srcErr <- feedSources(opts.IO, opts.Sources, in)
	}()
	sum := audit.Summarize(in, nil, 0)
	if err := <-srcErr; err != nil {
		return err
	}
	elapsed := time.Since(start)
	if sum.Files == 0 && sum.Errors > 0 && sum.NotOK == 0 {
		// Nothing could be read: the errors said so; no report of zeros.
		fmt.Fprintf(opts.IO.ErrOut, "sitetxt: %s could not be read; nothing audited\n", plural(sum.Errors, "source"))
		return &exitError{code: ExitError}
	}
	if sum.Files == 0 && sum.NotOK == 0 {
		// An empty directory or an empty list: no report of zeros either.
		names := strings.Join(opts.Sources, " ")
		if names == "-" {
			names = "the list on standard input"
		}
		return usageError("audit --summary: no file to audit (%s names none)", names)
	}
	if err := writeSummary(opts.IO.Out, opts.Output, sum); err != nil {
		return err
	}
	if opts.Stats {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		// Asked for: printed even under -q, which silences notes only.
		fmt.Fprintf(opts.IO.ErrOut, "sitetxt: stats: audited %s (%d bytes, %d unreadable) in %.2fs: %.0f files/s on %d cores; heap in use at the end %d MiB, total allocated %d MiB\n",
			plural(sum.Files, "file"), sum.Bytes, sum.Errors, elapsed.Seconds(), float64(sum.Files+sum.Errors)/elapsed.Seconds(), runtime.GOMAXPROCS(0),
			ms.HeapInuse>>20, ms.TotalAlloc>>20)
	}
	if sum.Errors > 0 {
		fmt.Fprintf(opts.IO.ErrOut, "sitetxt: %s could not be read\n", plural(sum.Errors, "source"))
		return &exitError{code: ExitError}
	}
	return nil
}

// feedSources sends every file named by the sources to in: files,
// directories (walked), WARC files (their response records) and "-" (a
// list of names on standard input). A file that cannot be read is sent
// with Err set and reported on standard error; only a failure to go on
// (an unreadable list, a broken WARC file) is returned.
func feedSources(ios *IOStreams, sources []string, in chan<- audit.Input) error {
	var one func(name string) error
	var report func(name string, err error)
	fail := func(name string, err error) {
		report(name, err)
		in <- audit.Input{Name: name, Err: err}
	}
	var mu sync.Mutex
	report = func(name string, err error) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(ios.ErrOut, "sitetxt: %s: %v\n", visible(name), unwrapPath(err))
	}
	readFile := func(name string) {
		in <- audit.Input{Name: name, Read: func() ([]byte, error) { return readLimited(name) }, OnError: report}
	}
	one = func(name string) error {
		if name == "-" {
			return eachLine(ios.In, "<stdin>", func(_ int, line string, long error) error {
				if long != nil {
					fail("<stdin>", long) // the error names the line
					return nil
				}
				if l := strings.TrimSpace(line); l != "" && l != "-" {
					return one(l)
				}
				return nil
			})
		}
		st, err := os.Stat(name)
		if err != nil {
			fail(name, err)
			return nil
		}
		switch {
		case st.IsDir():
			return filepath.WalkDir(name, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					fail(p, err)
					return nil
				}
				if d.Type().IsRegular() {
					if isWARC(p) {
						return readWARCFile(p, in, fail)
					}
					readFile(p)
				}
				return nil
			})
		case isWARC(name):
			return readWARCFile(name, in, fail)
		}
		readFile(name)
		return nil
	}
	for _, s := range sources {
		if err := one(s); err != nil {
			return err
		}
	}
	return nil
}

func isWARC(name string) bool {
	return strings.HasSuffix(name, ".warc") || strings.HasSuffix(name, ".warc.gz")
}

func readWARCFile(name string, in chan<- audit.Input, fail func(string, error)) error {
	f, err := os.Open(name)
	if err != nil {
		fail(name, err)
		return nil
	}
	defer f.Close()
	err = audit.ReadWARC(f, func(r audit.Input) error {
		if r.Err != nil {
			fail(r.Name, r.Err)
			return nil
		}
		in <- r
		return nil
	})
	if err != nil {
		return &exitError{code: ExitError, err: fmt.Errorf("%s: %w", name, err)}
	}
	return nil
}

// readLimited reads a file, at most maxRead bytes.
func readLimited(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxRead))
}

// writeSummary writes the counts in the chosen format.
func writeSummary(w io.Writer, f format, sum *audit.Summary) error {
	out := bufio.NewWriterSize(w, 64<<10)
	var err error
	switch f {
	case fJSON:
		err = summaryJSON(out, sum)
	case fCSV:
		err = summaryCSV(out, sum)
	default:
		err = summaryText(out, sum)
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	return err
}

func summaryText(w io.Writer, s *audit.Summary) error {
	fmt.Fprintf(w, "%s audited, %d unreadable, %s without a file (HTTP status not 2xx); the profiles disagree on %d\n", plural(s.Files, "file"), s.Errors, plural(s.NotOK, "capture"), s.Disagree)
	fmt.Fprintf(w, "usage-preference lines: %s with Content-Usage, %d with Content-Signal, %d with License\n", plural(s.ContentUsage, "file"), s.ContentSignal, s.License)
	fmt.Fprintf(w, "\nfiles blocking each crawler fully / partly / not at all:\n")
	head := []string{"crawler", "category"}
	for _, p := range robots.Profiles {
		head = append(head, p.String())
	}
	t := &table{}
	t.add(head, nil)
	cell := func(c [3]int) string {
		return fmt.Sprintf("%d / %d / %d", c[audit.Fully], c[audit.Partly], c[audit.None])
	}
	for _, cat := range audit.Categories {
		for i, c := range s.Registry.Crawlers {
			if c.Category != cat {
				continue
			}
			row := []string{visible(c.Token), c.Category}
			for p := range robots.Profiles {
				row = append(row, cell(s.Crawlers[i][p]))
			}
			t.add(row, nil)
		}
	}
	if err := t.write(w); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nfiles blocking all crawlers of a category fully / some of them / none at all:\n")
	t = &table{}
	t.add(append([]string{"category"}, head[2:]...), nil)
	for j, cat := range audit.Categories {
		row := []string{audit.CategoryTitle(cat)}
		for p := range robots.Profiles {
			row = append(row, cell(s.Categories[j][p]))
		}
		t.add(row, nil)
	}
	return t.write(w)
}

// summaryCounts is the JSON form of Counts: per profile.
type summaryCounts struct {
	Profile string `json:"profile"`
	Fully   int    `json:"fully"`
	Partly  int    `json:"partly"`
	None    int    `json:"none"`
}

func countsView(c audit.Counts) []summaryCounts {
	out := make([]summaryCounts, len(robots.Profiles))
	for p, prof := range robots.Profiles {
		out[p] = summaryCounts{prof.String(), c[p][audit.Fully], c[p][audit.Partly], c[p][audit.None]}
	}
	return out
}

// summaryJSON writes JSON Lines: one object per crawler, one per
// category, then the totals.
func summaryJSON(w io.Writer, s *audit.Summary) error {
	out := newStream(w, false)
	enc := newJSONLines(out)
	defer out.done()
	for i, c := range s.Registry.Crawlers {
		if err := enc.write(struct {
			Crawler  string          `json:"crawler"`
			Category string          `json:"category"`
			Files    []summaryCounts `json:"files"`
		}{c.Token, c.Category, countsView(s.Crawlers[i])}); err != nil {
			return err
		}
	}
	for j, cat := range audit.Categories {
		if err := enc.write(struct {
			Category string          `json:"category"`
			Files    []summaryCounts `json:"files"`
		}{cat, countsView(s.Categories[j])}); err != nil {
			return err
		}
	}
	r := s.Registry
	return enc.write(summaryTotals{&s.Files, s.Errors, s.NotOK, s.Disagree, s.ContentUsage, s.ContentSignal, s.License, s.Bytes,
		&audit.RegistryRef{Source: r.Source, Date: r.Date, Crawlers: len(r.Crawlers), List: r.List}})
}

// summaryTotals is the last line of audit --summary -o json: the totals,
// the bytes audited and the registry counted with (which audit --merge
// holds every part to). Read back (audit --merge), Audited is nil on the
// lines that are not the totals.
type summaryTotals struct {
	Audited       *int               `json:"audited"`
	Unreadable    int                `json:"unreadable"`
	NotOK         int                `json:"not_ok"`
	Disagree      int                `json:"disagreements"`
	ContentUsage  int                `json:"with_content_usage"`
	ContentSignal int                `json:"with_content_signal"`
	License       int                `json:"with_license"`
	Bytes         int64              `json:"bytes"`
	Registry      *audit.RegistryRef `json:"registry"`
}

func summaryCSV(w io.Writer, s *audit.Summary) error {
	out := newStream(w, false)
	cw := newCSV(out)
	// count is the files a row counts: fully+partly+none for a crawler or
	// category, the number itself for a total.
	cw.write("kind", "name", "category", "profile", "fully", "partly", "none", "count")
	row := func(kind, name, cat string, c audit.Counts) {
		for p, prof := range robots.Profiles {
			n := c[p]
			cw.write(kind, name, cat, prof.String(), strconv.Itoa(n[audit.Fully]), strconv.Itoa(n[audit.Partly]),
				strconv.Itoa(n[audit.None]), strconv.Itoa(n[0]+n[1]+n[2]))
		}
	}
	for i, c := range s.Registry.Crawlers {
		row("crawler", c.Token, c.Category, s.Crawlers[i])
	}
	for j, cat := range audit.Categories {
		row("category", cat, cat, s.Categories[j])
	}
	cw.write("total", "audited", "", "", "", "", "", strconv.Itoa(s.Files))
	cw.write("total", "unreadable", "", "", "", "", "", strconv.Itoa(s.Errors))
	cw.write("total", "not_ok", "", "", "", "", "", strconv.Itoa(s.NotOK))
	cw.write("total", "disagreements", "", "", "", "", "", strconv.Itoa(s.Disagree))
	cw.write("total", "with_content_usage", "", "", "", "", "", strconv.Itoa(s.ContentUsage))
	cw.write("total", "with_content_signal", "", "", "", "", "", strconv.Itoa(s.ContentSignal))
	cw.write("total", "with_license", "", "", "", "", "", strconv.Itoa(s.License))
	return out.done()
}
