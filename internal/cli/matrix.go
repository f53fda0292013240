package cli

import (
	"bufio"
	"encoding/csv"
	"encoding/json"

	"github.com/sitetxt/sitetxt/robots"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newMatrixCmd) }

// matrixOptions are the options of "sitetxt matrix".
type matrixOptions struct {
	IO       *IOStreams
	Agents   []string
	Profile  string
	Output   string
	URLsFile string
	Source   string
	URLs     []string
	Fetch    fetchFlags
}

func newMatrixCmd(ios *IOStreams) *cobra.Command {
	opts := &matrixOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "matrix --agent A [--agent B...] [--profile P] [-o text|json|csv] [--urls FILE|-] SOURCE [URL...]",
		Short: "Print which crawlers may fetch which URLs, as the drafts' tables do",
		Long: `Print the table the robots.txt drafts print for their examples: one row
per URL, one column per --agent, Yes where the crawler may fetch the URL and
No where it may not, under one profile (--profile, rfc9309 by default).
Without --agent the only column is "*", the crawlers no group names.

-o json prints one object per URL per line: {"url","allowed":{"agent":bool,...}};
-o csv prints a header row (url, then the agents) and Yes/No cells.

Exit codes: 0 when every cell is Yes, 1 when any is No, 2 on usage or
input errors.`,
		Example: `  sitetxt matrix --profile draft --agent unhipbot --agent webcrawler --agent other \
    testdata/robots/fict.org.txt / /index.html /robots.txt /server.html /org/plans.html`,
		Args: minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Source, opts.URLs = args[0], args[1:]
			return matrixRun(opts)
		},
	}
	cmd.Flags().StringArrayVar(&opts.Agents, "agent", nil, "a crawler for a column (repeat for more)")
	profileFlag(cmd, &opts.Profile)
	outputFlag(cmd, &opts.Output, "text", "json", "csv")
	cmd.Flags().StringVar(&opts.URLsFile, "urls", "", `read URLs one per line from FILE ("-" for standard input)`)
	opts.Fetch.AddFlags(cmd)
	return cmd
}

// matrixJSON is the JSON form of one row; allowed keeps the agents' order.
type matrixJSON struct {
	URL     string       `json:"url"`
	Allowed orderedBools `json:"allowed"`
}

// orderedBools marshals agent/verdict pairs as a JSON object in order.
type orderedBools struct {
	keys []string
	vals []bool
}

func (o orderedBools) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, k := range o.keys {
		if i > 0 {
			b = append(b, ',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		b = append(b, kb...)
		if o.vals[i] {
			b = append(b, ":true"...)
		} else {
			b = append(b, ":false"...)
		}
	}
	return append(b, '}'), nil
}

func matrixRun(opts *matrixOptions) error {
	if err := checkOutput(opts.Output, "text", "json", "csv"); err != nil {
		return err
	}
	if err := needURLs("matrix", opts.Source, opts.URLs, opts.URLsFile); err != nil {
		return err
	}
	agents := opts.Agents
	if len(agents) == 0 {
		agents = []string{globalAgent}
	}
	seen := map[string]bool{}
	for _, a := range agents {
		if seen[a] {
			return usageError("matrix: agent %q is named twice", a)
		}
		seen[a] = true
	}
	src, err := resolveSource(opts.IO, &opts.Fetch, opts.Source, "robots.txt")
	if err != nil {
		return err
	}
	as, err := accessFor(&opts.Fetch, src, []string{opts.Profile})
	if err != nil {
		return err
	}
	fixed, isFixed := as[0].fixed()
	sel := make([]*robots.Agent, len(agents))
	for i, a := range agents {
		sel[i] = as[0].policy.Agent(a)
	}
	out := bufio.NewWriter(opts.IO.Out)
	st := newStyle(opts.IO, opts.IO.Out)
	var (
		enc *json.Encoder
		cw  *csv.Writer
		tab table
	)
	head := append([]string{"URL"}, agents...)
	switch opts.Output {
	case "json":
		enc = json.NewEncoder(out)
		enc.SetEscapeHTML(false)
	case "csv":
		cw = csv.NewWriter(out)
		head[0] = "url"
		if err := cw.Write(head); err != nil {
			return err
		}
	default:
		tab.add(head, nil)
	}
	any := false
	err = forEachURL(opts.IO, opts.URLs, opts.URLsFile, func(u string) error {
		cells := make([]bool, len(sel))
		for i, a := range sel {
			cells[i] = a.Allowed(u)
			if isFixed {
				cells[i] = fixed.Allowed
			}
			if !cells[i] {
				any = true
			}
		}
		switch {
		case enc != nil:
			return enc.Encode(matrixJSON{URL: u, Allowed: orderedBools{agents, cells}})
		case cw != nil:
			row := []string{u}
			for _, c := range cells {
				row = append(row, yesNo(c))
			}
			return cw.Write(row)
		}
		row := []string{u}
		paint := []func(string) string{nil}
		for _, c := range cells {
			row = append(row, yesNo(c))
			if c {
				paint = append(paint, st.green)
			} else {
				paint = append(paint, st.red)
			}
		}
		tab.add(row, paint)
		return nil
	})
	switch {
	case err != nil:
	case cw != nil:
		cw.Flush()
		err = cw.Error()
	case enc == nil:
		err = tab.write(out)
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	if any {
		return findings
	}
	return nil
}

func yesNo(b bool) string {
	if b {
		return "Yes"
	}
	return "No"
}
