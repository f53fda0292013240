package cli

import (
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sitetxt/sitetxt/internal/input"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
)

// diffOptions are the options of "sitetxt diff".
type diffOptions struct {
	IO       *IOStreams
	Agent    string
	Profiles []string
	Output   format
	URLsFile string
	Source   string
	URLs     []string
	Fetch    fetchFlags
}

func newDiffCmd(ios *IOStreams) *cobra.Command {
	opts := &diffOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "diff [--agent UA] [--profiles P,P...] [-o text|json|csv] [--urls FILE|-] SOURCE [URL...]",
		Short: "Compare the robots.txt profiles' verdicts for URLs, and say why they differ",
		Long: `Decide each URL under several robots.txt profiles (all four by default:
rfc9309, google, draft, norobots) and print each profile's verdict with its
deciding line. Where the profiles disagree, one line per differing profile
says why: first vs longest match, percent-encoding, group choice, implicit
/robots.txt, misspelt fields, wildcards, Allow lines under norobots.

The first profile listed is the reference the others are compared with.

Text output has a column per profile ("disallowed :12": the verdict and the
deciding line), then the URL, then "differ" where the profiles disagree; it
streams, so a million URLs take no more memory than one.

-o json prints one object per URL per line:
  {"url","agent","agree":bool,"verdicts":[decision object per profile],"why":[...]}
-o csv prints url, agent, one verdict column per profile, agree|differ, why.

Exit codes: 0 when every profile agrees on every URL, 1 when any disagree,
2 on usage or input errors and when SOURCE could not be fetched (the cause
is printed on standard error).`,
		Example: `  sitetxt diff testdata/robots/fict.org.txt /org/plans.html /%7Ejim/jim.html /robots.txt
  sitetxt diff --agent excite --profiles rfc9309,draft testdata/robots/fict.org.txt /`,
		Args: minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Source, opts.URLs = args[0], args[1:]
			return diffRun(opts)
		},
	}
	agentFlag(cmd, &opts.Agent, `crawler name or User-Agent header ("*": only the "*" group)`)
	cmd.Flags().StringSliceVar(&opts.Profiles, "profiles", profileNames, "profiles to compare, the first being the reference")
	_ = cmd.RegisterFlagCompletionFunc("profiles", cobra.FixedCompletions(profileNames, cobra.ShellCompDirectiveNoFileComp))
	outputFlag(cmd, &opts.Output, rowFormats)
	cmd.Flags().StringVar(&opts.URLsFile, "urls", "", `read URLs one per line from FILE ("-" for standard input)`)
	opts.Fetch.AddFlags(cmd)
	return cmd
}

func diffRun(opts *diffOptions) error {
	if err := needURLs("diff", opts.Source, opts.URLs, opts.URLsFile); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, p := range opts.Profiles {
		p = strings.ToLower(p)
		opts.Profiles[i] = p
		if seen[p] {
			return usageError("diff: profile %q is named twice", p)
		}
		seen[p] = true
	}
	if len(opts.Profiles) < 2 {
		return usageError("diff: needs at least two profiles to compare, got %d", len(opts.Profiles))
	}
	src, err := resolveSource(opts.IO, &opts.Fetch, opts.Source, manifest.Robots)
	if err != nil {
		return err
	}
	pols, err := accessFor(&opts.Fetch, src, opts.Profiles)
	if err != nil {
		return err
	}
	failure := reportFetch(opts.IO, src)
	readNotes(opts.IO, src, pols[0].file)
	markupWarning(opts.IO, src)
	views := make([]*decisionViews, len(pols))
	for i, p := range pols {
		views[i] = newDecisionViews(src.name, p.prof, p.Fetched)
	}
	out := newStream(opts.IO.Out, streamsInput(opts.IO, opts.URLsFile))
	st := newStyle(opts.IO, opts.IO.Out)
	head := []string{"url", "agent"}
	for _, p := range pols {
		head = append(head, p.prof.String())
	}
	jl, cw, err := machineOutput(out, opts.Output, append(head, "agree", "why"))
	if err != nil {
		return err
	}
	var dt *diffText
	if jl == nil && cw == nil {
		dt = newDiffText(out.w, st, pols, src.data)
		if err := dt.header(); err != nil {
			return err
		}
		if err := out.end(); err != nil {
			return err
		}
	}
	disagree := false
	urls := newBatch(opts.IO, opts.URLs, opts.URLsFile)
	urls.jl = jl
	err = urls.eachOn(src.manifestURL(), func(iu input.URL) error {
		u := iu.Typed
		c := compareAccess(pols, opts.Agent, iu.Decide)
		if !c.Agree {
			disagree = true
		}
		switch {
		case jl != nil:
			return jl.write(jsonview.ComparisonOf(c, u, opts.Agent, func(i int, vd robots.Verdict) decisionJSON {
				return views[i].Of(u, opts.Agent, vd.Decision)
			}))
		case cw != nil:
			row := []string{u, opts.Agent}
			for _, vd := range c.Verdicts {
				row = append(row, verdictWord(vd.Decision.Allowed))
			}
			agree := "agree"
			if !c.Agree {
				agree = "differ"
			}
			return cw.write(append(row, agree, strings.Join(c.Why, "; "))...)
		}
		if err := dt.row(u, c); err != nil {
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
	return exitWith(failure, disagree, urls)
}

// diffText writes comparisons for people as they are decided, one row per
// URL: a fixed-width column per profile ("disallowed :12", the verdict and
// the deciding line), then the URL, then "differ" where the profiles
// disagree, and under such a row one "why:" line per difference. The
// columns are as wide as the longest verdict the file can produce, so rows
// line up without holding them back.
type diffText struct {
	w     io.Writer
	st    style
	names []string
	width int
}

func newDiffText(w io.Writer, st style, pols []*access, data string) *diffText {
	lines := strings.Count(data, "\n") + 1
	width := len("disallowed :") + len(strconv.Itoa(lines))
	names := make([]string, len(pols))
	for i, p := range pols {
		names[i] = p.prof.String()
		width = max(width, len(names[i]))
	}
	return &diffText{w: w, st: st, names: names, width: width}
}

func (t *diffText) header() error {
	var b strings.Builder
	for _, n := range t.names {
		b.WriteString(n)
		b.WriteString(strings.Repeat(" ", t.width-len(n)+2))
	}
	b.WriteString("URL\n")
	_, err := io.WriteString(t.w, b.String())
	return err
}

func (t *diffText) row(u string, c robots.Comparison) error {
	var b strings.Builder
	for _, vd := range c.Verdicts {
		d := vd.Decision
		cell := verdictWord(d.Allowed)
		if d.Rule != nil {
			cell += " :" + strconv.Itoa(d.Rule.Line.Pos.Line)
		}
		pad := strings.Repeat(" ", max(t.width-len(cell), 0)+2)
		if d.Allowed {
			b.WriteString(t.st.green(cell))
		} else {
			b.WriteString(t.st.red(cell))
		}
		b.WriteString(pad)
	}
	b.WriteString(shownURL(u))
	if !c.Agree {
		b.WriteString("  ")
		b.WriteString(t.st.yellow("differ"))
	}
	b.WriteByte('\n')
	for _, w := range c.Why {
		b.WriteString("  why: ")
		b.WriteString(visible(w))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(t.w, b.String())
	return err
}
