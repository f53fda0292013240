package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
)

// parseOptions are the options of "sitetxt parse".
type parseOptions struct {
	IO     *IOStreams
	Output format
	Source string
	Fetch  fetchFlags
}

func newParseCmd(ios *IOStreams) *cobra.Command {
	opts := &parseOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "parse [-o text|json|yaml|csv] SOURCE",
		Short: "Print the syntax tree of a manifest, with positions",
		Long: `Parse a robots.txt, data.txt or any file in the drafts' line format and
print its syntax tree: every line with its position, kind, field, value and
comment, the lines before the first User-agent line, the records (the
drafts' records: a blank line ends one) and the lines outside them, and the
diagnostics. SOURCE is a file, "-" for standard input, or an http(s) URL.

-o json prints the tree as one object on one line (yaml: one document);
positions are flat fields (line, column, offset). -o csv prints one row
per line of the file.

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
	outputFlag(cmd, &opts.Output, parseFormats)
	return cmd
}

func parseRun(opts *parseOptions) error {
	src, err := resolveSource(opts.IO, &opts.Fetch, opts.Source, manifest.Robots)
	if err == nil {
		err = src.needBody()
	}
	if err != nil {
		return err
	}
	markupWarning(opts.IO, src)
	f := src.parse(grammar.Options{})
	switch opts.Output {
	case fJSON:
		out := newStream(opts.IO.Out, false)
		if err := newJSONLines(out).write(astView(f)); err != nil {
			return err
		}
		return out.done()
	case fCSV:
		out := newStream(opts.IO.Out, false)
		if err := writeParseCSV(newCSV(out), f); err != nil {
			return err
		}
		return out.done()
	case fYAML:
		enc := yaml.NewEncoder(opts.IO.Out)
		enc.SetIndent(2)
		defer enc.Close()
		return enc.Encode(astView(f))
	}
	printTree(opts.IO.Out, f, len(sourceDiagnostics(src, f, robots.RFC9309)))
	return nil
}

// The JSON and YAML form of a parsed file: positions are flat fields
// (line, column, and the byte offset where it helps).
type (
	fileJSON struct {
		File        string       `json:"file" yaml:"file"`
		BOM         bool         `json:"bom" yaml:"bom"`
		Lines       []lineJSON   `json:"lines" yaml:"lines"`
		Preamble    []int        `json:"preamble" yaml:"preamble"`
		Records     []recordJSON `json:"records" yaml:"records"`
		Ignored     int          `json:"ignored_bytes" yaml:"ignored_bytes"`
		Diagnostics []diagJSON   `json:"diagnostics" yaml:"diagnostics"`
	}
	lineJSON struct {
		Line    int    `json:"line" yaml:"line"`
		Column  int    `json:"column" yaml:"column"`
		Offset  int    `json:"offset" yaml:"offset"`
		Kind    string `json:"kind" yaml:"kind"`
		Raw     string `json:"raw" yaml:"raw"`
		EOL     string `json:"eol" yaml:"eol"` // LF, CRLF, CR or ""
		Field   string `json:"field,omitempty" yaml:"field,omitempty"`
		Value   string `json:"value,omitempty" yaml:"value,omitempty"`
		Comment string `json:"comment,omitempty" yaml:"comment,omitempty"`
		Typo    bool   `json:"typo,omitempty" yaml:"typo,omitempty"`
		NoColon bool   `json:"no_colon,omitempty" yaml:"no_colon,omitempty"`
		TooLong bool   `json:"too_long,omitempty" yaml:"too_long,omitempty"`
		// Usage is the typed reading of a usage-preference line
		// (docs/ai-preferences.md).
		Usage *usageLineJSON `json:"usage,omitempty" yaml:"usage,omitempty"`
	}
	recordJSON struct {
		Line   int   `json:"line" yaml:"line"`
		Column int   `json:"column" yaml:"column"`
		Offset int   `json:"offset" yaml:"offset"`
		Lines  []int `json:"line_numbers" yaml:"line_numbers,flow"`
		Agents []int `json:"agent_lines" yaml:"agent_lines,flow"`
	}
)

// eolName names line ends in JSON and YAML, where the bytes themselves read
// badly.
var eolName = map[string]string{"\n": "LF", "\r\n": "CRLF", "\r": "CR", "": ""}

func lineNumbers(ls []*grammar.Line) []int {
	out := make([]int, len(ls))
	for i, l := range ls {
		out[i] = l.Pos.Line
	}
	return out
}

func astView(f *grammar.File) fileJSON {
	v := fileJSON{File: f.Name, BOM: f.BOM != "", Ignored: len(f.Ignored),
		Lines: make([]lineJSON, len(f.Lines)), Preamble: lineNumbers(f.Preamble),
		Records: make([]recordJSON, len(f.Records)), Diagnostics: make([]diagJSON, len(f.Diagnostics))}
	dataTxt := looksLikeDataTxt(f)
	for i, l := range f.Lines {
		v.Lines[i] = lineJSON{l.Pos.Line, l.Pos.Column, l.Pos.Offset, l.Kind.String(), l.Raw, eolName[l.EOL()], l.Field, l.Value, l.Comment(), l.Typo, l.NoColon, l.TooLong, usageLineView(l, dataTxt)}
	}
	for i, r := range f.Records {
		v.Records[i] = recordJSON{r.Pos.Line, r.Pos.Column, r.Pos.Offset, lineNumbers(r.Lines), lineNumbers(r.Agents)}
	}
	for i, d := range f.Diagnostics {
		v.Diagnostics[i] = diagView(d)
	}
	return v
}

// parseCSVHeader and the rows after it are the lines of a parsed file.
var parseCSVHeader = []string{"file", "line", "column", "offset", "kind", "field", "value", "comment", "raw", "eol"}

func writeParseCSV(cw *csvRows, f *grammar.File) error {
	if err := cw.write(parseCSVHeader...); err != nil {
		return err
	}
	for _, l := range f.Lines {
		if err := cw.write(f.Name, itoa(l.Pos.Line), itoa(l.Pos.Column), itoa(l.Pos.Offset), l.Kind.String(),
			l.Field, l.Value, l.Comment(), l.Raw, eolName[l.EOL()]); err != nil {
			return err
		}
	}
	return nil
}

// printTree writes the syntax tree for people.
func printTree(w io.Writer, f *grammar.File, linted int) {
	fmt.Fprintf(w, "%s: %s, %s, %s of the grammar (sitetxt lint, which adds the interpreters', reports %d)\n",
		visible(f.Name), plural(len(f.Lines), "line"), plural(len(f.Records), "record"), plural(len(f.Diagnostics), "diagnostic"), linted)
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
		if l.Comment() != "" {
			fmt.Fprintf(&b, " %s", l.Comment())
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
		fmt.Fprintln(w, visible(strings.TrimRight(b.String(), " ")))
	}
	// The tree's nodes in order: the preamble, the records, and the gaps
	// between them (a blank line ends a record), each under its heading.
	for _, n := range f.Nodes {
		switch r := n.Record; {
		case n.IsPreamble():
			fmt.Fprintln(w, "preamble:")
		case r != nil:
			agents := make([]string, len(r.Agents))
			for i, a := range r.Agents {
				agents[i] = a.Value
			}
			fmt.Fprintf(w, "record %s (User-agent: %s):\n", r.Pos, visible(strings.Join(agents, ", ")))
		default:
			fmt.Fprintln(w, "outside any record:")
		}
		for _, l := range n.Lines() {
			line(l)
		}
	}
	if f.Ignored != "" {
		fmt.Fprintf(w, "ignored: %d bytes past the size limit\n", len(f.Ignored))
	}
	for _, d := range f.Diagnostics {
		fmt.Fprintln(w, diagText(d))
	}
}
