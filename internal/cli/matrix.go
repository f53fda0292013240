package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sitetxt/sitetxt/internal/input"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
)

// matrixOptions are the options of "sitetxt matrix".
type matrixOptions struct {
	IO       *IOStreams
	Agents   []string
	Profile  string
	Output   format
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
per URL, one column per --agent, "allowed" where the crawler may fetch the
URL and "disallowed" where it may not, under one profile (--profile, rfc9309
by default). Without --agent the only column is "*", the crawlers no group
names. Text output has the agents' columns first and the URL last, so rows
line up as they stream; under a row, one "why:" line per disallowed cell
names the deciding rule (or the fetch status that decided).

-o json prints one object per URL per line:
  {"url","profile","decisions":[decision object per agent]}
-o csv prints a header row (url, then the agents) and allowed/disallowed
cells. docs/cli.md describes the decision object.

Exit codes: 0 when every cell is allowed, 1 when any is disallowed, 2 on
usage or input errors and when SOURCE could not be fetched (the cause is
printed on standard error; the cells the standard derives are still
printed).`,
		Example: `  sitetxt matrix --profile draft --agent unhipbot --agent webcrawler --agent other \
    testdata/robots/fict.org.txt / /index.html /robots.txt /server.html /org/plans.html`,
		Args: minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Source, opts.URLs = args[0], args[1:]
			return matrixRun(opts)
		},
	}
	cmd.Flags().StringArrayVar(&opts.Agents, "agent", nil, "a crawler for a column (repeat for more)")
	_ = cmd.RegisterFlagCompletionFunc("agent", crawlerNames)
	profileFlag(cmd, &opts.Profile)
	outputFlag(cmd, &opts.Output, rowFormats)
	cmd.Flags().StringVar(&opts.URLsFile, "urls", "", `read URLs one per line from FILE ("-" for standard input)`)
	opts.Fetch.AddFlags(cmd)
	return cmd
}

// matrixJSON is the JSON form of one row: the decision object of each
// cell, in the agents' order, which says why.
type matrixJSON struct {
	URL       string         `json:"url"`
	Profile   string         `json:"profile"`
	Decisions []decisionJSON `json:"decisions"`
}

// matrixAgents returns the agents of the columns: those named, or "*";
// one named twice is a usage error.
func matrixAgents(named []string) ([]string, error) {
	if len(named) == 0 {
		return []string{globalAgent}, nil
	}
	seen := map[string]bool{}
	for _, a := range named {
		if seen[a] {
			return nil, usageError("matrix: agent %q is named twice", a)
		}
		seen[a] = true
	}
	return named, nil
}

// columnWidth is the width of an agent's column: its name or the longest
// verdict word.
func columnWidth(agents []string) int {
	width := len(wordDisallowed)
	for _, a := range agents {
		width = max(width, len(visible(a)))
	}
	return width
}

// matrixHeader writes the text header: a fixed-width column per agent,
// then "URL".
func matrixHeader(out *stream, agents []string, width int) error {
	var b strings.Builder
	for _, a := range agents {
		a = visible(a)
		b.WriteString(a + strings.Repeat(" ", width-len(a)+2))
	}
	b.WriteString("URL\n")
	if _, err := io.WriteString(out.w, b.String()); err != nil {
		return err
	}
	return out.end()
}

func matrixRun(opts *matrixOptions) error {
	if err := needURLs("matrix", opts.Source, opts.URLs, opts.URLsFile); err != nil {
		return err
	}
	agents, err := matrixAgents(opts.Agents)
	if err != nil {
		return err
	}
	src, err := resolveSource(opts.IO, &opts.Fetch, opts.Source, manifest.Robots)
	if err != nil {
		return err
	}
	as, err := accessFor(&opts.Fetch, src, []string{opts.Profile})
	if err != nil {
		return err
	}
	failure := reportFetch(opts.IO, src)
	readNotes(opts.IO, src, as[0].file)
	markupWarning(opts.IO, src)
	for _, a := range agents {
		agentNote(opts.IO, as[0].prof, a)
	}
	fixed, isFixed := as[0].Fixed()
	sel := make([]*robots.Agent, len(agents))
	for i, a := range agents {
		sel[i] = as[0].Policy.Agent(a)
	}
	views := newDecisionViews(src.name, as[0].prof, as[0].Fetched)
	out := newStream(opts.IO.Out, streamsInput(opts.IO, opts.URLsFile))
	st := newStyle(opts.IO, opts.IO.Out)
	// Text: a fixed-width column per agent, then the URL, so rows line up
	// as they stream.
	width := columnWidth(agents)
	jl, cw, err := machineOutput(out, opts.Output, append([]string{"url"}, agents...))
	if err != nil {
		return err
	}
	if jl == nil && cw == nil {
		if err := matrixHeader(out, agents, width); err != nil {
			return err
		}
	}
	disallowed := false
	ds := make([]robots.Decision, len(sel))
	urls := newBatch(opts.IO, opts.URLs, opts.URLsFile)
	urls.jl = jl
	err = urls.eachOn(src.manifestURL(), func(iu input.URL) error {
		u := iu.Typed
		for i, a := range sel {
			if isFixed {
				ds[i] = fixed
			} else {
				ds[i] = a.Decide(iu.Decide)
			}
			if !ds[i].Allowed {
				disallowed = true
			}
		}
		switch {
		case jl != nil:
			row := matrixJSON{URL: u, Profile: views.Profile(), Decisions: make([]decisionJSON, len(ds))}
			for i, d := range ds {
				row.Decisions[i] = views.Of(u, agents[i], d)
			}
			return jl.write(row)
		case cw != nil:
			row := []string{u}
			for _, d := range ds {
				row = append(row, verdictWord(d.Allowed))
			}
			return cw.write(row...)
		}
		if _, err := io.WriteString(out.w, matrixRow(st, width, src.name, u, agents, ds)); err != nil {
			return err
		}
		return out.end()
	})
	if ferr := out.done(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	return exitWith(failure, disallowed, urls)
}

// matrixRow is one URL's row for people: a fixed-width verdict per agent,
// the URL, then a "why:" line per agent it is disallowed for.
func matrixRow(st style, width int, file, u string, agents []string, ds []robots.Decision) string {
	var b strings.Builder
	for _, d := range ds {
		w := verdictWord(d.Allowed)
		b.WriteString(st.verdict(d.Allowed, w, w))
		b.WriteString(strings.Repeat(" ", width-len(w)+2))
	}
	b.WriteString(shownURL(u))
	b.WriteByte('\n')
	for i, d := range ds {
		if !d.Allowed {
			fmt.Fprintf(&b, "  why: %s: %s\n", visible(agents[i]), decisionWhy(file, d))
		}
	}
	return b.String()
}
