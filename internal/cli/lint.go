package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
)

// lintOptions are the options of "sitetxt lint".
type lintOptions struct {
	IO      *IOStreams
	Output  format
	Fetch   fetchFlags
	Context bool
	Type    string
	Sources []string
	// Profile is the robots.txt profile whose reading matters; Portability
	// adds what matters only to the other profiles; Severity is the least
	// severity shown.
	Profile     string
	Portability bool
	Severity    string
	// Sitemaps follows a robots.txt's Sitemap lines (lint_sitemaps.go).
	Sitemaps bool
}

// manifestTypes are the values of lint --type: auto, and the kinds of
// the manifest table that lint shows.
var manifestTypes = func() []string {
	out := []string{"auto"}
	for _, k := range manifest.Shown("lint") {
		out = append(out, k.Name)
	}
	return out
}()

// manifestType says which kind of manifest a lint source is: the --type
// given, or for "auto" the kind its name and content tell
// (manifest.Of: a data.txt by its name, a YAML start or a Path field;
// else a robots.txt, which Mobile-agent-server lines extend).
func manifestType(given, name, data string) *manifest.Kind {
	if k, ok := manifest.ByName(given); ok {
		return k
	}
	return manifest.Of(name, data)
}

func newLintCmd(ios *IOStreams) *cobra.Command {
	opts := &lintOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "lint [--profile P] [--portability] [--severity warning|error] [-o text|json|csv] SOURCE...",
		Short: "Report problems in manifests as file:line:col diagnostics",
		Long: `Check each SOURCE (a file, "-" for standard input, or an http(s) URL) and
print every problem found as "file:line:col: severity: message", sorted by
position. --type says what the source is: robots (robots.txt, with its
Mobile-agent-server lines), datatxt, or signatures (a Web Bot Auth key
directory, the JSON key set at /.well-known/http-message-signatures-directory:
Ed25519 keys, thumbprint key ids, validity; package webbotauth); auto, the
default, takes a file named data.txt or written in YAML for a data.txt, one
named http-message-signatures-directory (or a site's well-known URL) for a
key directory, and anything else for a robots.txt.

Text output ends each diagnostic with its code ("[no-colon]") and the run
with a totals line (-q leaves it out). A robots.txt is judged for the
--profile in use (rfc9309 by default): what matters only to the other
profiles (a rule after a blank line under rfc9309, a misspelt field under
google, ...) is left out and counted, and --portability reports it too.
--severity error leaves warnings out. A data.txt in record form ("Path:"
records) is recognised by its content, whatever its name.

--sitemaps follows a robots.txt's Sitemap lines (and the indexes they lead
to, as "sitetxt sitemaps" does) and reports, at the Sitemap line, a sitemap
that cannot be fetched (a 404), is not a sitemap (an HTML page, not XML), or
lists URLs the robots.txt disallows for every crawler ("*"), and each
sitemap's own problems at their file:line:col.

-o json prints one object per diagnostic per line:
  {"file","line","column","end_line","end_column","severity","code","message"}
-o csv prints the same as rows.

Exit codes: 0 when no source has an error (warnings are allowed), 1 when
any has, 2 when a source cannot be read or the usage is wrong.`,
		Example: `  sitetxt lint testdata/robots/messy.txt
  sitetxt lint --type signatures https://example.org/   # its /.well-known/http-message-signatures-directory
  sitetxt lint --show-source testdata/robots/messy.txt
  sitetxt lint -o json testdata/robots/*.txt`,
		Args: minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Sources = args
			return lintRun(opts)
		},
	}
	opts.Fetch.AddFlags(cmd)
	outputFlag(cmd, &opts.Output, rowFormats)
	profileFlag(cmd, &opts.Profile)
	cmd.Flags().BoolVar(&opts.Portability, "portability", false, "also report what matters only under the other profiles (a rule after a blank line, a repeated group, a misspelt field Google accepts)")
	choiceFlag(cmd, &opts.Severity, "severity", "", "least severity shown: warning or error", "warning", "error")
	choiceFlag(cmd, &opts.Type, "type", "", "manifest type: auto, robots (robots.txt and Mobile-agent-server), datatxt or signatures (a Web Bot Auth key directory)", manifestTypes...)
	cmd.Flags().BoolVar(&opts.Sitemaps, "sitemaps", false, "follow a robots.txt's Sitemap lines: report sitemaps that cannot be fetched, are not sitemaps, or list URLs the robots.txt disallows")
	cmd.Flags().BoolVar(&opts.Context, "show-source", false, "under each diagnostic, show its line with a caret at the column")
	return cmd
}

// maxPerCode is how many diagnostics of one code lint prints per run.
const maxPerCode = 1000

// writeDiagnostics writes lint's findings in the chosen format; with
// --show-source, text output shows each finding's line with a caret.
func writeDiagnostics(out *stream, opts *lintOptions, all grammar.Diagnostics, texts map[string]string) error {
	jl, cw, err := machineOutput(out, opts.Output, diagCSVHeader)
	if err != nil {
		return err
	}
	for _, d := range all {
		var err error
		switch {
		case jl != nil:
			err = jl.write(diagView(d))
		case cw != nil:
			err = cw.write(diagRow(d)...)
		case opts.Context:
			_, err = fmt.Fprintf(out.w, "%s%s\n\n", diagText(d), visibleLines(strings.TrimPrefix(d.Format(texts[d.Filename]), d.Error())))
		default:
			_, err = fmt.Fprintln(out.w, diagText(d))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func lintRun(opts *lintOptions) error {
	if !slices.Contains(manifestTypes, opts.Type) {
		return usageError("unknown manifest type %q (want %s)", opts.Type, strings.Join(manifestTypes, ", "))
	}
	prof, err := robots.ParseProfile(opts.Profile)
	if err != nil {
		return usageError("%v", err)
	}
	if opts.Severity != "warning" && opts.Severity != "error" {
		return usageError("unknown severity %q (want warning or error)", opts.Severity)
	}
	opts.Fetch.Profile = prof.String()
	var (
		all      grammar.Diagnostics
		readErrs []error
		sources  int
		leftOut  int // portability notes
		below    int // under --severity
	)
	texts := map[string]string{}
	for _, name := range opts.Sources {
		kind, given := manifest.ByName(opts.Type)
		if !given {
			kind = manifest.Default // a site URL means its robots.txt
		}
		src, err := resolveSource(opts.IO, &opts.Fetch, name, kind)
		if err == nil {
			err = src.needBody()
		}
		if err != nil {
			// Report what can be read; the run still exits 2.
			readErrs = append(readErrs, err)
			continue
		}
		markupWarning(opts.IO, src)
		mt := manifestType(opts.Type, src.name, src.data)
		yaml := mt.InYAML([]byte(src.data))
		sources++
		var ds grammar.Diagnostics
		shown, left := profileDiagnostics(src.parse(grammar.Options{}), mt, yaml, prof, opts.Portability)
		leftOut += left
		if opts.Sitemaps && mt == manifest.Robots {
			shown = append(shown, lintSitemaps(opts.IO, &opts.Fetch, src, prof)...)
		}
		for _, d := range shown {
			if opts.Severity == "error" && d.Severity < grammar.Error {
				below++
			} else {
				ds = append(ds, d)
			}
		}
		all = append(all, ds.Limit(maxPerCode)...)
		texts[src.name] = src.data
	}
	out := newStream(opts.IO.Out, false)
	if sources == 0 {
		// Nothing was read: the errors alone, no header or totals of zeros.
		return reportReadErrors(opts.IO, readErrs)
	}
	if err := writeDiagnostics(out, opts, all, texts); err != nil {
		return err
	}
	if opts.Output == fText && !opts.IO.Quiet {
		counts := countDiagnostics(all)
		total := fmt.Sprintf("%s in %s%s", counts, plural(sources, "source"), counts.notPrinted())
		if leftOut > 0 {
			total += fmt.Sprintf("; %s that matter only under other profiles than %s left out (--portability shows them)", plural(leftOut, "portability note"), prof)
		}
		if below > 0 {
			total += fmt.Sprintf("; %s below --severity error left out", plural(below, "warning"))
		}
		fmt.Fprintln(out.w, total)
	}
	if err := out.done(); err != nil {
		return err
	}
	if err := reportReadErrors(opts.IO, readErrs); err != nil {
		return err
	}
	if all.HasErrors() {
		return findings
	}
	return nil
}
