package cli

import (
	"encoding/json"
	"fmt"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newLintCmd) }

// lintOptions are the options of "sitetxt lint".
type lintOptions struct {
	IO      *IOStreams
	Output  string
	Context bool
	Sources []string
}

// linters are the checks lint runs on a parsed file besides the grammar's
// own diagnostics; the interpreters add theirs.
var linters []func(*grammar.File) grammar.Diagnostics

func newLintCmd(ios *IOStreams) *cobra.Command {
	opts := &lintOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "lint [-o text|json] SOURCE...",
		Short: "Report problems in manifests as file:line:col diagnostics",
		Long: `Check each SOURCE (a file, or "-" for standard input) and print every
problem found as "file:line:col: severity: message", sorted by position.

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
	outputFlag(cmd, &opts.Output, "text", "json")
	cmd.Flags().BoolVar(&opts.Context, "show-source", false, "under each diagnostic, show its line with a caret at the column")
	return cmd
}

// lintFile returns every diagnostic for f, sorted.
func lintFile(f *grammar.File) grammar.Diagnostics {
	ds := append(grammar.Diagnostics(nil), f.Diagnostics...)
	for _, l := range linters {
		ds = append(ds, l(f)...)
	}
	ds.Sort()
	return ds
}

func lintRun(opts *lintOptions) error {
	if err := checkOutput(opts.Output, "text", "json"); err != nil {
		return err
	}
	var all grammar.Diagnostics
	texts := map[string]string{}
	for _, name := range opts.Sources {
		src, err := readSource(opts.IO, name)
		if err != nil {
			return err
		}
		all = append(all, lintFile(src.parse(grammar.Options{}))...)
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
