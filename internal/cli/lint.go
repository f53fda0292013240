package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sitetxt/sitetxt/datatxt"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newLintCmd) }

// lintOptions are the options of "sitetxt lint".
type lintOptions struct {
	IO      *IOStreams
	Output  string
	Fetch   fetchFlags
	Context bool
	Type    string
	Sources []string
}

// linters are the checks lint runs on a parsed file besides the grammar's
// own diagnostics, by manifest type ("robots", "datatxt"); the
// interpreters' commands add theirs.
var linters = map[string][]func(*grammar.File) grammar.Diagnostics{}

// manifestTypes are the values of lint --type.
var manifestTypes = []string{"auto", "robots", "datatxt"}

// manifestType says which manifest a lint source is: the --type given,
// or for "auto" a data.txt when its name is data.txt or has a .yaml or
// .yml part, or its first line that is not blank or a comment starts a YAML
// list or document ("-", "---"); else a robots.txt (which
// Mobile-agent-server lines extend).
func manifestType(given, name, data string) string {
	if given != "auto" {
		return given
	}
	base := strings.ToLower(name)
	if i := strings.LastIndexAny(base, "/\\"); i >= 0 {
		base = base[i+1:]
	}
	if base == "data.txt" || strings.Contains(base, ".yaml") || strings.Contains(base, ".yml") {
		return "datatxt"
	}
	for len(data) > 0 {
		line := data
		if i := strings.IndexAny(data, "\r\n"); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = ""
		}
		line = strings.TrimLeft(line, " \t\ufeff")
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '-' {
			return "datatxt"
		}
		break
	}
	return "robots"
}

// yamlNoise are the grammar's diagnostics that say nothing about a data.txt
// in YAML, whose lines are not "field: value" lines.
var yamlNoise = map[string]bool{"no-colon": true, "invalid-line": true}

func newLintCmd(ios *IOStreams) *cobra.Command {
	opts := &lintOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "lint [-o text|json] SOURCE...",
		Short: "Report problems in manifests as file:line:col diagnostics",
		Long: `Check each SOURCE (a file, "-" for standard input, or an http(s) URL) and
print every problem found as "file:line:col: severity: message", sorted by
position. --type says what the source is: robots (robots.txt, with its
Mobile-agent-server lines) or datatxt; auto, the default, takes a file named
data.txt or written in YAML for a data.txt and anything else for a
robots.txt.

Exit codes: 0 when no source has an error (warnings are allowed), 1 when
any has, 2 when a source cannot be read or the usage is wrong.`,
		Example: `  sitetxt lint testdata/robots/messy.txt
  sitetxt lint --show-source testdata/robots/messy.txt
  sitetxt lint -o json testdata/robots/*.txt`,
		Args: minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Sources = args
			return lintRun(opts)
		},
	}
	opts.Fetch.AddFlags(cmd)
	outputFlag(cmd, &opts.Output, "text", "json")
	cmd.Flags().StringVar(&opts.Type, "type", "auto", "manifest type: auto, robots (robots.txt and Mobile-agent-server) or datatxt")
	_ = cmd.RegisterFlagCompletionFunc("type", cobra.FixedCompletions(manifestTypes, cobra.ShellCompDirectiveNoFileComp))
	cmd.Flags().BoolVar(&opts.Context, "show-source", false, "under each diagnostic, show its line with a caret at the column")
	return cmd
}

// lintFile returns every diagnostic for f as a manifest of type typ,
// sorted.
func lintFile(f *grammar.File, typ string) grammar.Diagnostics {
	var ds grammar.Diagnostics
	yaml := typ == "datatxt" && datatxt.Detect([]byte(f.Text())) == datatxt.FormYAML
	for _, d := range f.Diagnostics {
		if !yaml || !yamlNoise[d.Code] {
			ds = append(ds, d)
		}
	}
	for _, l := range linters[typ] {
		ds = append(ds, l(f)...)
	}
	ds.Sort()
	return ds
}

func lintRun(opts *lintOptions) error {
	if err := checkOutput(opts.Output, "text", "json"); err != nil {
		return err
	}
	if err := checkOutput(opts.Type, manifestTypes...); err != nil {
		return usageError("unknown manifest type %q (want %s)", opts.Type, strings.Join(manifestTypes, ", "))
	}
	var all grammar.Diagnostics
	texts := map[string]string{}
	for _, name := range opts.Sources {
		src, err := resolveSource(opts.IO, &opts.Fetch, name, "robots.txt")
		if err != nil {
			return err
		}
		all = append(all, lintFile(src.parse(grammar.Options{}), manifestType(opts.Type, src.name, src.data))...)
		texts[src.name] = src.data
	}
	if opts.Output == "json" {
		out := make([]diagJSON, len(all))
		for i, d := range all {
			out[i] = diagView(d)
		}
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		for _, d := range all {
			if opts.Context {
				fmt.Fprintf(opts.IO.Out, "%s\n\n", d.Format(texts[d.Filename]))
				continue
			}
			fmt.Fprintln(opts.IO.Out, d.Error())
		}
	}
	if all.HasErrors() {
		return findings
	}
	return nil
}
