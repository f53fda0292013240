package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitetxt/sitetxt/fetch"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/input"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
)

// fetchOptions are the options of "sitetxt fetch".
type fetchOptions struct {
	IO     *IOStreams
	Output format
	Fetch  fetchFlags
	Sites  []string
}

func newFetchCmd(ios *IOStreams) *cobra.Command {
	opts := &fetchOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "fetch [-o text|json|csv] [--profile P] SITE...",
		Short: "Fetch a site's robots.txt, data.txt and Web Bot Auth key directory and say what the responses mean",
		Long: `Fetch /robots.txt, /data.txt and /.well-known/http-message-signatures-directory
(a Web Bot Auth key directory) of each SITE (a URL such as
https://example.org/, or a bare host name, taken as https) and report for
each: what the response means under the profile's access method (parse,
allow-all, disallow-all, defer; for data.txt and the key directory parse,
not-found or error: only a 200 gives keys), the
HTTP status, the final URL after redirects, the size, when the answer
expires, whether it came from the cache, and how many diagnostics parsing
the body gives.

Fetched manifests are cached under the user cache directory (see
--cache-dir and --no-cache) for as long as their headers and the standard
allow: 24 hours at most under rfc9309 and google, 7 days by default under
draft and norobots and for data.txt. docs/fetching.md has the rules.

-o json prints one object per manifest per line, in argument order, each
as soon as it is known; -o csv prints the same as rows.

Exit codes: 0 when every manifest was fetched and parses without errors, 1
when a parsed manifest has errors, 2 when a manifest could not be fetched
(a network error, a timeout, a 5xx or 429 status, too many redirects, a
data.txt error) or the usage is wrong.`,
		Example: `  sitetxt fetch https://example.org/
  sitetxt fetch --profile draft -o json example.org www.example.com
  sitetxt fetch --no-cache --timeout 5s --user-agent "ExampleBot/1.0" https://example.org/`,
		Args: minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Sites = args
			return fetchRun(opts)
		},
	}
	outputFlag(cmd, &opts.Output, rowFormats)
	profileFlag(cmd, &opts.Fetch.Profile)
	opts.Fetch.AddFlags(cmd)
	return cmd
}

// fetchReport is what "sitetxt fetch" says about one manifest.
type fetchReport struct {
	Site        string     `json:"site"`
	Manifest    string     `json:"manifest"`
	URL         string     `json:"url"`
	Mode        string     `json:"mode"`
	Status      string     `json:"meaning"`
	Reason      string     `json:"reason"`
	HTTPStatus  int        `json:"http_status"`
	FinalURL    string     `json:"final_url,omitempty"`
	Redirects   int        `json:"redirects"`
	Size        int        `json:"size"`
	Truncated   bool       `json:"truncated"`
	ContentType string     `json:"content_type,omitempty"`
	FetchedAt   *time.Time `json:"fetched_at,omitempty"`
	Expires     *time.Time `json:"expires,omitempty"`
	RetryAfter  *time.Time `json:"retry_after,omitempty"`
	FromCache   bool       `json:"from_cache"`
	Revalidated bool       `json:"revalidated"`
	Stale       bool       `json:"stale"`
	Error       string     `json:"error"`
	Errors      int        `json:"errors"`
	Warnings    int        `json:"warnings"`
	failed      bool
}

// fetchParallel is how many manifests "sitetxt fetch" fetches at a time.
const fetchParallel = 8

// siteURL turns a SITE argument into a URL: a bare host name means https
// (input.SiteURL, as a SOURCE is read), as does any other name without a
// scheme.
func siteURL(arg string) string {
	if u, ok := input.SiteURL(arg); ok {
		return u
	}
	if !strings.Contains(arg, "://") {
		return "https://" + arg + "/"
	}
	return arg
}

func fetchRun(opts *fetchOptions) error {
	if _, _, err := opts.Fetch.access(manifest.Robots); err != nil {
		return err
	}
	if err := opts.Fetch.prepare(opts.IO); err != nil {
		return err
	}
	type job struct {
		site, url string
		kind      *manifest.Kind
	}
	var jobs []job
	for _, arg := range opts.Sites {
		site := siteURL(arg)
		for _, k := range manifest.Shown("fetch") {
			u, err := fetch.ManifestURL(site, k.File)
			if err != nil {
				return usageError("%q is not a site (want a URL such as https://example.org/)", arg)
			}
			jobs = append(jobs, job{arg, u, k})
		}
	}
	// Fetch up to fetchParallel manifests at a time; report in argument
	// order, each as soon as it and those before it are done.
	reports := make([]fetchReport, len(jobs))
	done := make([]chan struct{}, len(jobs))
	sem := make(chan struct{}, fetchParallel)
	ff := &opts.Fetch
	ff.Fetcher() // made before the goroutines share it
	for i, j := range jobs {
		done[i] = make(chan struct{})
		go func() {
			defer close(done[i])
			sem <- struct{}{}
			defer func() { <-sem }()
			reports[i] = fetchOne(ff, j.site, j.url, j.kind)
		}()
	}
	out := newStream(opts.IO.Out, true)
	jl, cw, err := machineOutput(out, opts.Output, fetchCSVHeader)
	if err != nil {
		return err
	}
	code := ExitOK
	for i := range jobs {
		<-done[i]
		r := &reports[i]
		if r.failed {
			code = ExitError
			fmt.Fprintf(opts.IO.ErrOut, "sitetxt: %s: %s\n", visible(r.URL), visible(r.Error))
		} else if r.Errors > 0 && code == ExitOK {
			code = ExitFindings
		}
		var err error
		switch {
		case jl != nil:
			err = jl.write(r)
		case cw != nil:
			err = cw.write(fetchRow(r)...)
		default:
			printFetchReport(out.w, r)
			err = out.end()
		}
		if err != nil {
			return err
		}
	}
	if err := out.done(); err != nil {
		return err
	}
	if code != ExitOK {
		return &exitError{code: code}
	}
	return nil
}

// fetchCSVHeader and fetchRow are a fetch report as a CSV row.
var fetchCSVHeader = []string{"site", "manifest", "url", "mode", "meaning", "reason", "http_status", "final_url",
	"redirects", "size", "truncated", "content_type", "fetched_at", "expires", "retry_after", "from_cache",
	"revalidated", "stale", "error", "errors", "warnings"}

func fetchRow(r *fetchReport) []string {
	tm := func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.Format(time.RFC3339)
	}
	return []string{r.Site, r.Manifest, r.URL, r.Mode, r.Status, r.Reason, itoa(r.HTTPStatus), r.FinalURL,
		itoa(r.Redirects), itoa(r.Size), strconv.FormatBool(r.Truncated), r.ContentType, tm(r.FetchedAt),
		tm(r.Expires), tm(r.RetryAfter), strconv.FormatBool(r.FromCache), strconv.FormatBool(r.Revalidated),
		strconv.FormatBool(r.Stale), r.Error, itoa(r.Errors), itoa(r.Warnings)}
}

// fetchOne fetches one manifest and reports on it.
func fetchOne(ff *fetchFlags, site, url string, k *manifest.Kind) fetchReport {
	m, reader, _ := ff.access(k)
	r := ff.Fetcher().Fetch(context.Background(), url, m)
	rep := fetchReport{Site: site, Manifest: k.File, URL: url, Mode: reader, Status: r.Status.String(),
		Reason: r.Reason, HTTPStatus: r.HTTPStatus, FinalURL: r.FinalURL, Redirects: r.Redirects, Size: len(r.Body),
		Truncated: r.Truncated, ContentType: r.ContentType, FromCache: r.FromCache, Revalidated: r.Revalidated,
		Stale: r.Stale, FetchedAt: jsonview.TimeOf(r.FetchedAt), Expires: jsonview.TimeOf(r.Expires), RetryAfter: jsonview.TimeOf(r.RetryAfter)}
	if r.Err != nil {
		rep.Error = r.Err.Error()
		rep.failed = !r.Stale
	}
	if r.Status == fetch.Parse {
		src := &source{name: url, data: string(r.Body), fetched: r}
		prof, _ := robots.ParseProfile(ff.Profile)
		ds, _ := profileDiagnostics(src.parse(grammar.Options{}), k, k.InYAML(r.Body), prof, false) // as lint counts them
		c := countDiagnostics(ds)
		rep.Errors, rep.Warnings = c.bySeverity[grammar.Error], c.bySeverity[grammar.Warning]
	}
	return rep
}

func printFetchReport(out io.Writer, r *fetchReport) {
	// Everything the server sent (the reason quotes nothing of it, but
	// the error, URLs and content type may) is escaped line by line.
	var b strings.Builder
	w := &b
	defer func() { io.WriteString(out, visibleLines(strings.TrimSuffix(b.String(), "\n"))+"\n") }()
	fmt.Fprintf(w, "%s\n", r.URL)
	status := r.Status
	if r.HTTPStatus != 0 {
		status += fmt.Sprintf(" (HTTP %d)", r.HTTPStatus)
	}
	fmt.Fprintf(w, "  status:      %s\n", status)
	fmt.Fprintf(w, "  meaning:     %s\n", r.Reason)
	if r.Error != "" {
		fmt.Fprintf(w, "  error:       %s\n", r.Error)
	}
	if r.FinalURL != "" && (r.FinalURL != r.URL || r.Redirects > 0) {
		s := "s"
		if r.Redirects == 1 {
			s = ""
		}
		fmt.Fprintf(w, "  final URL:   %s (%d redirect%s)\n", r.FinalURL, r.Redirects, s)
	}
	if r.Status == fetch.Parse.String() {
		size := fmt.Sprintf("%d bytes", r.Size)
		if r.Truncated {
			size += " (cut at the size limit)"
		}
		if r.ContentType != "" {
			size += ", " + r.ContentType
		}
		fmt.Fprintf(w, "  size:        %s\n", size)
	}
	var cache string
	at := ""
	if r.FetchedAt != nil {
		at = r.FetchedAt.Format(time.RFC3339)
	}
	switch {
	case r.Stale:
		cache = "stale copy fetched " + at + ", used while the site is unreachable"
	case r.Revalidated:
		cache = "cached copy, revalidated " + at + " (304 Not Modified)"
	case r.FromCache:
		cache = "cached copy fetched " + at
	case r.failed:
		cache = "nothing to cache (the fetch failed)"
	default:
		cache = "fetched " + at
	}
	fmt.Fprintf(w, "  cache:       %s\n", cache)
	if r.Expires != nil && (r.RetryAfter == nil || !r.Expires.Equal(*r.RetryAfter)) {
		fmt.Fprintf(w, "  expires:     %s\n", r.Expires.Format(time.RFC3339))
	}
	if r.RetryAfter != nil {
		fmt.Fprintf(w, "  retry after: %s\n", r.RetryAfter.Format(time.RFC3339))
	}
	if r.Status == fetch.Parse.String() {
		fmt.Fprintf(w, "  diagnostics: %s, %s\n", plural(r.Errors, "error"), plural(r.Warnings, "warning"))
	}
}

// plural returns "1 error", "2 errors".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
