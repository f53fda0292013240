package cli

import (
	"bufio"
	"encoding/json"
	"fmt"

	"github.com/sitetxt/sitetxt/robots"
	"github.com/spf13/cobra"
)

func init() { commands = append(commands, newDiffCmd) }

// diffOptions are the options of "sitetxt diff".
type diffOptions struct {
	IO       *IOStreams
	Agent    string
	Profiles []string
	Output   string
	URLsFile string
	Source   string
	URLs     []string
	Fetch    fetchFlags
}

func newDiffCmd(ios *IOStreams) *cobra.Command {
	opts := &diffOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "diff [--agent UA] [--profiles P,P...] [-o text|json] [--urls FILE|-] SOURCE [URL...]",
		Short: "Compare the robots.txt profiles' verdicts for URLs, and say why they differ",
		Long: `Decide each URL under several robots.txt profiles (all four by default:
rfc9309, google, draft, norobots) and print each profile's verdict with its
deciding line. Where the profiles disagree, one line per differing profile
says why: first vs longest match, percent-encoding, group choice, implicit
/robots.txt, misspelt fields, wildcards, Allow lines under norobots.

The first profile listed is the reference the others are compared with.

-o json prints one object per URL per line:
  {"url","agent","agree":bool,"verdicts":[{"profile","allowed","rule"}],"why":[...]}

Exit codes: 0 when every profile agrees on every URL, 1 when any disagree,
2 on usage or input errors.`,
		Example: `  sitetxt diff testdata/robots/fict.org.txt /org/plans.html /%7Ejim/jim.html /robots.txt
  sitetxt diff --agent excite --profiles rfc9309,draft testdata/robots/fict.org.txt /`,
		Args: minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Source, opts.URLs = args[0], args[1:]
			return diffRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Agent, "agent", globalAgent, `crawler name or User-Agent header ("*": only the "*" group)`)
	cmd.Flags().StringSliceVar(&opts.Profiles, "profiles", profileNames, "profiles to compare, the first being the reference")
	_ = cmd.RegisterFlagCompletionFunc("profiles", cobra.FixedCompletions(profileNames, cobra.ShellCompDirectiveNoFileComp))
	outputFlag(cmd, &opts.Output, "text", "json")
	cmd.Flags().StringVar(&opts.URLsFile, "urls", "", `read URLs one per line from FILE ("-" for standard input)`)
	opts.Fetch.AddFlags(cmd)
	return cmd
}

// The JSON form of one comparison.
type (
	verdictJSON struct {
		Profile string         `json:"profile"`
		Allowed bool           `json:"allowed"`
		Rule    *checkRuleJSON `json:"rule"`
	}
	diffJSON struct {
		URL      string        `json:"url"`
		Agent    string        `json:"agent"`
		Agree    bool          `json:"agree"`
		Verdicts []verdictJSON `json:"verdicts"`
		Why      []string      `json:"why"`
	}
)

// ruleView is the JSON form of a decision's rule, or nil.
func ruleView(r *robots.Rule) *checkRuleJSON {
	if r == nil {
		return nil
	}
	p := r.Line.FieldPos()
	return &checkRuleJSON{Line: p.Line, Column: p.Column, Directive: r.Directive(), Pattern: r.Pattern}
}

func diffRun(opts *diffOptions) error {
	if err := checkOutput(opts.Output, "text", "json"); err != nil {
		return err
	}
	if err := needURLs("diff", opts.Source, opts.URLs, opts.URLsFile); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, p := range opts.Profiles {
		if seen[p] {
			return usageError("diff: profile %q is named twice", p)
		}
		seen[p] = true
	}
	if len(opts.Profiles) < 2 {
		return usageError("diff: needs at least two profiles to compare, got %d", len(opts.Profiles))
	}
	src, err := resolveSource(opts.IO, &opts.Fetch, opts.Source, "robots.txt")
	if err != nil {
		return err
	}
	pols, err := accessFor(&opts.Fetch, src, opts.Profiles)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(opts.IO.Out)
	st := newStyle(opts.IO, opts.IO.Out)
	var enc *json.Encoder
	var tab table
	if opts.Output == "json" {
		enc = json.NewEncoder(out)
		enc.SetEscapeHTML(false)
	} else {
		head := []string{"URL"}
		for _, p := range pols {
			head = append(head, p.prof.String())
		}
		tab.add(head, nil)
	}
	disagree := false
	err = forEachURL(opts.IO, opts.URLs, opts.URLsFile, func(u string) error {
		c := compareAccess(pols, opts.Agent, u)
		if !c.Agree {
			disagree = true
		}
		if enc != nil {
			v := diffJSON{URL: u, Agent: opts.Agent, Agree: c.Agree, Why: c.Why}
			if v.Why == nil {
				v.Why = []string{}
			}
			for _, vd := range c.Verdicts {
				v.Verdicts = append(v.Verdicts, verdictJSON{vd.Profile.String(), vd.Decision.Allowed, ruleView(vd.Decision.Rule)})
			}
			return enc.Encode(v)
		}
		row := []string{u}
		var paint []func(string) string
		paint = append(paint, nil)
		for _, vd := range c.Verdicts {
			d := vd.Decision
			cell := "disallowed"
			if d.Allowed {
				cell = "allowed"
			}
			if d.Rule != nil {
				cell += fmt.Sprintf(" :%d", d.Rule.Line.Pos.Line)
			}
			row = append(row, cell)
			if d.Allowed {
				paint = append(paint, st.green)
			} else {
				paint = append(paint, st.red)
			}
		}
		if !c.Agree {
			row = append(row, "differ")
			paint = append(paint, st.yellow)
		}
		tab.add(row, paint)
		for _, w := range c.Why {
			tab.note("  why: " + w)
		}
		return nil
	})
	if err == nil && enc == nil {
		tab.write(out)
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	if disagree {
		return findings
	}
	return nil
}
