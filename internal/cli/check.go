package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sitetxt/sitetxt/internal/audit"
	"github.com/sitetxt/sitetxt/robots"
	"github.com/spf13/cobra"
)

func init() {
	commands = append(commands, newCheckCmd)
	linters["robots"] = append(linters["robots"], robots.Lint)
}

// checkOptions are the options of "sitetxt check".
type checkOptions struct {
	IO       *IOStreams
	Agent    string
	Profile  string
	Output   string
	URLsFile string
	Source   string
	URLs     []string
	Fetch    fetchFlags
}

// globalAgent is the agent name check uses without --agent: under every
// profile it selects only the "*" group(s).
const globalAgent = "*"

func newCheckCmd(ios *IOStreams) *cobra.Command {
	opts := &checkOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "check [--agent UA] [--profile P] [-o text|json] [--urls FILE|-] SOURCE [URL...]",
		Short: "Say whether a crawler may fetch URLs, and which rule decides",
		Long: `Check each URL against the robots.txt SOURCE (a file, "-" for standard
input, or an http(s) URL) and say whether the crawler may fetch it, naming
the deciding rule as "file:line: Directive: pattern", or why no rule decided.

A SOURCE URL naming a site (https://example.org/) means its /robots.txt; any
other URL is fetched as it is. The response is read as the profile's access
method says (docs/fetching.md): under rfc9309 and google a 4xx allows
everything and a 5xx or network error disallows everything; under draft and
norobots 401/403 disallow everything and a temporary failure disallows for
now. The answer is then given for every URL, with that reason. Fetched files
are cached (--cache-dir, --no-cache) and read up to 500 KiB.

URL is an absolute URL or a path. --urls reads more URLs, one per line, from
FILE or standard input ("-"), as a stream. Agents and URLs are used exactly
as given, empty ones included.

--agent is the crawler's name. Without it the agent is "*", which selects
only the "*" group(s). Under rfc9309, draft and norobots a whole User-Agent
header may be given ("FooBot/2.1 (+https://foo.example/bot)"): its product
token is used. Under google the name is compared whole, as Google's parser
does.

--profile is rfc9309 (the default), google, draft or norobots; see
docs/profiles.md. Under google the whole file is read (Google has no size
limit; sitetxt stops at 512,001 lines); the other profiles read its first
500 KiB.

-o json prints one object per URL per line:
  {"url","agent","profile","allowed":bool,"rule":{"line","column","directive","pattern"}|null}

Exit codes: 0 when every URL is allowed, 1 when any is disallowed, 2 on
usage or input errors.`,
		Example: `  sitetxt check testdata/robots/fict.org.txt /org/plans.html
  sitetxt check --agent 'WebCrawler/3.0' --profile draft testdata/robots/fict.org.txt http://www.fict.org/
  sitetxt check --profile google --agent Googlebot -o json robots.txt --urls urls.txt
  sitetxt check --agent ExampleBot https://example.org/ /some/path`,
		Args: minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Source, opts.URLs = args[0], args[1:]
			return checkRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Agent, "agent", globalAgent, `crawler name or User-Agent header ("*": only the "*" group)`)
	profileFlag(cmd, &opts.Profile)
	opts.Fetch.AddFlags(cmd)
	outputFlag(cmd, &opts.Output, "text", "json")
	cmd.Flags().StringVar(&opts.URLsFile, "urls", "", `read URLs one per line from FILE ("-" for standard input)`)
	return cmd
}

// checkRuleJSON and checkJSON are the JSON form of one decision.
type (
	checkRuleJSON struct {
		Line      int    `json:"line"`
		Column    int    `json:"column"`
		Directive string `json:"directive"`
		Pattern   string `json:"pattern"`
	}
	checkJSON struct {
		URL     string         `json:"url"`
		Agent   string         `json:"agent"`
		Profile string         `json:"profile"`
		Allowed bool           `json:"allowed"`
		Rule    *checkRuleJSON `json:"rule"`
		// Usage is the usage preference (docs/ai-preferences.md), present
		// when the file has Content-Usage or Content-Signal lines and the
		// URL is allowed.
		Usage *audit.UsageView `json:"usage,omitempty"`
	}
)

func checkRun(opts *checkOptions) error {
	if err := checkOutput(opts.Output, "text", "json"); err != nil {
		return err
	}
	prof, err := robots.ParseProfile(opts.Profile)
	if err != nil {
		return usageError("%v", err)
	}
	if err := needURLs("check", opts.Source, opts.URLs, opts.URLsFile); err != nil {
		return err
	}
	opts.Fetch.Profile = opts.Profile
	src, err := resolveSource(opts.IO, &opts.Fetch, opts.Source, "robots.txt")
	if err != nil {
		return err
	}
	// Parsed and compiled once; the agent's rules are selected once, and
	// every URL after that is one allocation-free decision.
	acc := &access{prof: prof, policy: robots.Compile(parseFor(src, prof), prof), fetched: src.fetched}
	fixed, isFixed := acc.fixed()
	agent := acc.policy.Agent(opts.Agent)
	hasUsage := !isFixed && acc.policy.HasUsage()

	out := bufio.NewWriterSize(opts.IO.Out, 64<<10)
	st := newStyle(opts.IO, opts.IO.Out)
	var enc *json.Encoder
	if opts.Output == "json" {
		enc = json.NewEncoder(out)
		enc.SetEscapeHTML(false)
	}
	bar := newProgress(opts.IO, opts.URLsFile)
	disallowed := false
	err = forEachURL(opts.IO, opts.URLs, opts.URLsFile, func(u string) error {
		bar.add(len(u) + 1)
		d := fixed
		if !isFixed {
			d = agent.Decide(u)
		}
		if !d.Allowed {
			disallowed = true
		}
		var usage *audit.UsageView
		if hasUsage {
			usage = audit.UsageOf(src.name, agent.Usage(u))
		}
		if enc != nil {
			return enc.Encode(checkJSON{URL: u, Agent: opts.Agent, Profile: prof.String(), Allowed: d.Allowed, Rule: ruleView(d.Rule), Usage: usage})
		}
		if err := writeDecision(out, st, src.name, u, d); err != nil || usage == nil {
			return err
		}
		_, err := fmt.Fprintf(out, "  usage: train-ai %s, ai-use %s, search %s%s\n", usage.TrainAI, usage.AIUse, usage.Search, usageLines(usage))
		return err
	})
	bar.finish()
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	if disallowed {
		return findings
	}
	return nil
}

// writeDecision writes one decision for people: the verdict (padded, so
// the URLs of a stream line up), the URL and the deciding
// "file:line: Directive: pattern", or why nothing decided.
func writeDecision(w io.Writer, st style, file, u string, d robots.Decision) error {
	var why string
	switch {
	case d.Rule != nil:
		why = fmt.Sprintf("%s:%d: %s", file, d.Rule.Line.Pos.Line, d.Rule)
		if d.Rule.Implied {
			why += fmt.Sprintf(" (implied by %s: %s)", d.Rule.Line.Field, d.Rule.Line.Value)
		}
	case d.Group != nil:
		why = fmt.Sprintf("%s (group at %s:%d)", d.Reason, file, d.Group.Pos().Line)
	default:
		why = d.Reason
	}
	shown := u
	if u == "" || strings.ContainsAny(u, " \t\"") {
		shown = strconv.Quote(u) // an empty URL stays visible
	}
	_, err := fmt.Fprintf(w, "%s %s: %s\n", st.verdict(d.Allowed, "allowed   ", "disallowed"), shown, why)
	return err
}
