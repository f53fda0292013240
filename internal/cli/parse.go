package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"
)

func init() { commands = append(commands, newParseCmd) }

// parseOptions are the options of "sitetxt parse".
type parseOptions struct {
	IO     *IOStreams
	Output string
	Source string
	Fetch  fetchFlags
}

func newParseCmd(ios *IOStreams) *cobra.Command {
	opts := &parseOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "parse [-o text|json|yaml] SOURCE",
		Short: "Print the syntax tree of a manifest, with positions",
		Long: `Parse a robots.txt, data.txt or any file in the drafts' line format and
print its syntax tree: every line with its position, kind, field, value and
comment, the lines before the first record, the records, and the
diagnostics. SOURCE is a file or "-" for standard input.

Parsing never fails: every byte of the input is in the tree. The exit code
is 0 unless SOURCE cannot be read (2).`,
		Example: `  sitetxt parse testdata/robots/fict.org.txt
  sitetxt parse -o json testdata/robots/messy.txt`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Source = args[0]
			return parseRun(opts)
		},
	}
	opts.Fetch.AddFlags(cmd)
	outputFlag(cmd, &opts.Output, "text", "json", "yaml")
	return cmd
}

func parseRun(opts *parseOptions) error {
	if err := checkOutput(opts.Output, "text", "json", "yaml"); err != nil {
		return err
	}
	src, err := resolveSource(opts.IO, &opts.Fetch, opts.Source, "robots.txt")
	if err == nil {
		err = src.needBody()
	}
	if err != nil {
		return err
	}
	f := src.parse(grammar.Options{})
	switch opts.Output {
	case "json":
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(astView(f))
	case "yaml":
		enc := yaml.NewEncoder(opts.IO.Out)
		enc.SetIndent(2)
		defer enc.Close()
		return enc.Encode(astView(f))
	}
	printTree(opts.IO.Out, f)
	return nil
}

// The JSON and YAML form of a parsed file.
type (
	fileJSON struct {
		Name        string       `json:"name" yaml:"name"`
		BOM         bool         `json:"bom" yaml:"bom"`
		Lines       []lineJSON   `json:"lines" yaml:"lines"`
		Preamble    []int        `json:"preamble" yaml:"preamble"`
		Records     []recordJSON `json:"records" yaml:"records"`
		Ignored     int          `json:"ignored_bytes" yaml:"ignored_bytes"`
		Diagnostics []diagJSON   `json:"diagnostics" yaml:"diagnostics"`
	}
	posJSON struct {
		Line   int `json:"line" yaml:"line"`
		Column int `json:"column" yaml:"column"`
		Offset int `json:"offset" yaml:"offset"`
	}
	lineJSON struct {
		Pos     posJSON `json:"pos" yaml:"pos"`
		Kind    string  `json:"kind" yaml:"kind"`
		Raw     string  `json:"raw" yaml:"raw"`
		EOL     string  `json:"eol" yaml:"eol"` // LF, CRLF, CR or ""
		Field   string  `json:"field,omitempty" yaml:"field,omitempty"`
		Value   string  `json:"value,omitempty" yaml:"value,omitempty"`
		Comment string  `json:"comment,omitempty" yaml:"comment,omitempty"`
		Typo    bool    `json:"typo,omitempty" yaml:"typo,omitempty"`
		NoColon bool    `json:"no_colon,omitempty" yaml:"no_colon,omitempty"`
		TooLong bool    `json:"too_long,omitempty" yaml:"too_long,omitempty"`
		// Usage is the typed reading of a usage-preference line.
		Usage *usageLineJSON `json:"usage,omitempty" yaml:"usage,omitempty"`
	}
	recordJSON struct {
		Pos    posJSON `json:"pos" yaml:"pos"`
		Lines  []int   `json:"lines" yaml:"lines,flow"`
		Agents []int   `json:"agents" yaml:"agents,flow"`
	}
	diagJSON struct {
		File     string  `json:"file" yaml:"file"`
		Pos      posJSON `json:"pos" yaml:"pos"`
		End      posJSON `json:"end" yaml:"end"`
		Severity string  `json:"severity" yaml:"severity"`
		Code     string  `json:"code" yaml:"code"`
		Message  string  `json:"message" yaml:"message"`
	}
)

// eolName names line ends in JSON and YAML, where the bytes themselves read
// badly.
var eolName = map[string]string{"\n": "LF", "\r\n": "CRLF", "\r": "CR", "": ""}

func posView(p grammar.Pos) posJSON { return posJSON{p.Line, p.Column, p.Offset} }

func lineNumbers(ls []*grammar.Line) []int {
	out := make([]int, len(ls))
	for i, l := range ls {
		out[i] = l.Pos.Line
	}
	return out
}

func diagView(d *grammar.Diagnostic) diagJSON {
	return diagJSON{d.Filename, posView(d.Range.Start), posView(d.Range.End), d.Severity.String(), d.Code, d.Summary}
}

func astView(f *grammar.File) fileJSON {
	v := fileJSON{Name: f.Name, BOM: f.BOM != "", Ignored: len(f.Ignored),
		Lines: make([]lineJSON, len(f.Lines)), Preamble: lineNumbers(f.Preamble),
		Records: make([]recordJSON, len(f.Records)), Diagnostics: make([]diagJSON, len(f.Diagnostics))}
	for i, l := range f.Lines {
		v.Lines[i] = lineJSON{posView(l.Pos), l.Kind.String(), l.Raw, eolName[l.EOL], l.Field, l.Value, l.Comment, l.Typo, l.NoColon, l.TooLong, usageLineView(l)}
	}
	for i, r := range f.Records {
		v.Records[i] = recordJSON{posView(r.Pos), lineNumbers(r.Lines), lineNumbers(r.Agents)}
	}
	for i, d := range f.Diagnostics {
		v.Diagnostics[i] = diagView(d)
	}
	return v
}

// printTree writes the syntax tree for people.
func printTree(w io.Writer, f *grammar.File) {
	fmt.Fprintf(w, "%s: %d lines, %d records, %d diagnostics\n", f.Name, len(f.Lines), len(f.Records), len(f.Diagnostics))
	if f.BOM != "" {
		fmt.Fprintf(w, "byte-order mark: % X\n", f.BOM)
	}
	line := func(l *grammar.Line) {
		var b strings.Builder
		fmt.Fprintf(&b, "  %-7s %-14s", l.Pos, l.Kind)
		if l.IsField() {
			fmt.Fprintf(&b, " %s: %q", l.Field, l.Value)
		} else if l.Kind == grammar.Invalid {
			fmt.Fprintf(&b, " %q", l.Raw)
		}
		if l.Comment != "" {
			fmt.Fprintf(&b, " %s", l.Comment)
		}
		var flags []string
		if l.Typo {
			flags = append(flags, "typo")
		}
		if l.NoColon {
			flags = append(flags, "no colon")
		}
		if l.TooLong {
			flags = append(flags, "too long")
		}
		if len(flags) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(flags, ", "))
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	if len(f.Preamble) > 0 {
		fmt.Fprintln(w, "preamble:")
		for _, l := range f.Preamble {
			line(l)
		}
	}
	for _, r := range f.Records {
		agents := make([]string, len(r.Agents))
		for i, a := range r.Agents {
			agents[i] = a.Value
		}
		fmt.Fprintf(w, "record %s (User-agent: %s):\n", r.Pos, strings.Join(agents, ", "))
		for _, l := range r.Lines {
			line(l)
		}
	}
	if f.Ignored != "" {
		fmt.Fprintf(w, "ignored: %d bytes past the size limit\n", len(f.Ignored))
	}
	for _, d := range f.Diagnostics {
		fmt.Fprintln(w, d.Error())
	}
}
