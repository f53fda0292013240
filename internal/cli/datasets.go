package cli

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/fetch"
	"github.com/sitetxt/sitetxt/robots"
	"github.com/spf13/cobra"
)

func init() {
	commands = append(commands, newDatasetsCmd)
	linters["datatxt"] = append(linters["datatxt"], datatxt.Lint)
}

// datasetsOptions are the options of "sitetxt datasets".
type datasetsOptions struct {
	IO      *IOStreams
	Base    string
	Agent   string
	Profile string
	Robots  string
	Form    string
	Output  string
	Source  string
	Fetch   fetchFlags
}

// datasetsNow is the export date of catalog formats; tests fix it.
var datasetsNow = func() time.Time { return time.Now().UTC() }

func newDatasetsCmd(ios *IOStreams) *cobra.Command {
	opts := &datasetsOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "datasets [--base URL] [--agent UA] [--profile P] [--robots FILE] [--form auto|yaml|records] [-o FORMAT] SOURCE",
		Short: "List the datasets a data.txt offers, with URLs, metadata and access",
		Long: `Read a data.txt (a file, or "-" for standard input) in either of its forms,
the YAML list of datatxt.org and R pins or the draft's "Path:" records, and
list its datasets: name, paths resolved to URLs against --base (the URL the
data.txt was fetched from), metadata, and whether --agent may fetch them
under the data.txt's own User-agent/Allow/Disallow records and the site's
robots.txt (--robots), read with --profile.

Output formats (-o): text (aligned columns), json, yaml, csv, and the
catalog formats schemaorg (schema.org DataCatalog JSON-LD), dcat (W3C DCAT
JSON-LD), datajson (Project Open Data data.json v1.1) and datapackage
(Frictionless datapackage.json). docs/datatxt.md says how fields map.

Problems are printed on standard error as "file:line:col: severity: message".
Exit codes: 0 when every entry is valid (warnings are allowed), 1 when an
error was reported (the valid entries are still printed), 2 on usage errors
or an unreadable source.`,
		Example: `  sitetxt datasets --base https://example.org/data.txt testdata/datatxt/list.yaml.txt
  sitetxt datasets -o json --agent mybot testdata/datatxt/records.txt
  sitetxt datasets -o datapackage --base https://example.org/data.txt data.txt`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Source = args[0]
			return datasetsRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Base, "base", "", "URL the data.txt was fetched from; relative paths resolve against it")
	f.StringVar(&opts.Agent, "agent", globalAgent, `crawler name or User-Agent header whose access is decided ("*": only the "*" group)`)
	profileFlag(cmd, &opts.Profile)
	f.StringVar(&opts.Robots, "robots", "", "the site's robots.txt file, applied to URLs on the data.txt's host")
	f.StringVar(&opts.Form, "form", "auto", "data.txt form: auto, yaml or records")
	outputFlag(cmd, &opts.Output, append([]string{"text"}, datatxt.Formats...)...)
	opts.Fetch.AddFlags(cmd)
	return cmd
}

func datasetsRun(opts *datasetsOptions) error {
	if err := checkOutput(opts.Output, append([]string{"text"}, datatxt.Formats...)...); err != nil {
		return err
	}
	form, err := datatxt.ParseForm(opts.Form)
	if err != nil {
		return usageError("%s", err)
	}
	if opts.Base != "" {
		u, err := url.Parse(opts.Base)
		if err != nil || !u.IsAbs() || u.Host == "" {
			return usageError("--base %q is not an absolute URL", opts.Base)
		}
	}
	prof, err := robots.ParseProfile(opts.Profile)
	if err != nil {
		return usageError("%v", err)
	}
	if opts.Robots == "-" && opts.Source == "-" {
		return usageError("datasets: SOURCE and --robots cannot both be standard input")
	}
	popts := datatxt.Options{Form: form, Base: opts.Base, Agent: opts.Agent}
	popts.Rules = func(f *grammar.File) datatxt.Access { return compileAccess(f, prof) }
	if opts.Robots != "" {
		opts.Fetch.Profile = prof.String()
		rsrc, err := resolveSource(opts.IO, &opts.Fetch, opts.Robots, "robots.txt")
		if err != nil {
			return err
		}
		as, err := accessFor(&opts.Fetch, rsrc, []string{prof.String()})
		if err != nil {
			return err
		}
		popts.Robots = as[0]
	}
	src, err := resolveSource(opts.IO, &opts.Fetch, opts.Source, "data.txt")
	if err != nil {
		return err
	}
	if r := src.fetched; r != nil {
		if r.Status == fetch.NotFound {
			// Not an error: the site may offer datasets found by other means.
			fmt.Fprintf(opts.IO.ErrOut, "sitetxt: %s: %s\n", visible(src.name), visible(r.Reason))
			return printEmptyCatalog(opts)
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
	if opts.Output == "text" {
		if err := printDatasets(opts.IO, c); err != nil {
			return err
		}
	} else if err := datatxt.Export(opts.IO.Out, c, opts.Output, datatxt.ExportOptions{Now: datasetsNow()}); err != nil {
		for _, d := range c.Diagnostics {
			fmt.Fprintln(opts.IO.ErrOut, diagText(d))
		}
		return &exitError{code: ExitFindings, err: err}
	}
	for _, d := range c.Diagnostics {
		fmt.Fprintln(opts.IO.ErrOut, diagText(d))
	}
	if c.Diagnostics.HasErrors() {
		return findings
	}
	return nil
}

// printEmptyCatalog prints what a site without a data.txt offers: nothing,
// in the format asked for.
func printEmptyCatalog(opts *datasetsOptions) error {
	c := datatxt.Parse(opts.Source, nil, datatxt.Options{Form: datatxt.FormYAML, Base: opts.Base})
	c.Diagnostics = nil
	if opts.Output == "text" {
		return printDatasets(opts.IO, c)
	}
	return datatxt.Export(opts.IO.Out, c, opts.Output, datatxt.ExportOptions{Now: datasetsNow()})
}

// printDatasets writes the entries as aligned columns, one row per URL;
// on a terminal, allowed and denied are coloured.
func printDatasets(ios *IOStreams, c *datatxt.Catalog) error {
	st := newStyle(ios, ios.Out)
	var tab table
	tab.add([]string{"NAME", "LINE", "ALLOWED", "URL"}, []func(string) string{st.bold, st.bold, st.bold, st.bold})
	for _, e := range c.Entries {
		allowed, paint := "-", []func(string) string(nil)
		if e.Allowed != nil {
			allowed = "yes"
			if !*e.Allowed {
				allowed = "no (" + e.DeniedBy + ")"
			}
			paint = []func(string) string{nil, nil, func(s string) string { return st.verdict(*e.Allowed, s, s) }}
		}
		name := e.Name
		if name == "" {
			name = "(unnamed)"
		}
		urls := e.URLs
		if len(urls) == 0 {
			urls = []string{"(no valid URL) " + strings.Join(e.Paths, " ")}
		}
		for i, u := range urls {
			if i == 0 {
				tab.add([]string{name, strconv.Itoa(e.Pos.Line), allowed, u}, paint)
			} else {
				tab.add([]string{"", "", "", u}, nil)
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
	_, err := fmt.Fprintf(ios.Out, "%d datasets (%s form)\n", len(c.Entries), c.Form)
	return err
}

// compileAccess compiles robots.txt-format access records (a data.txt's
// own User-agent/Allow/Disallow records, or a site's robots.txt) under a
// profile, as datatxt's Access.
func compileAccess(f *grammar.File, prof robots.Profile) datatxt.Access {
	return robots.Compile(f, prof)
}
