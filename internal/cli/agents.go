package cli

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/mobileagent"
	"github.com/sitetxt/sitetxt/robots"
	"github.com/spf13/cobra"
)

func init() {
	commands = append(commands, newAgentsCmd)
	linters["robots"] = append(linters["robots"], mobileagent.Lint)
}

// agentsOptions are the options of "sitetxt agents".
type agentsOptions struct {
	IO      *IOStreams
	Agent   string
	Profile string
	Output  string
	Source  string
	URLs    []string
	Fetch   fetchFlags
}

func newAgentsCmd(ios *IOStreams) *cobra.Command {
	opts := &agentsOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "agents [--agent UA] [--profile P] [-o text|json] SOURCE URL...",
		Short: "Say which Mobile-agent-server host takes an agent for each URL",
		Long: `Read the Mobile-agent-server lines of SOURCE (a robots.txt file, or "-"
for standard input) and, for each URL, say whether robots.txt allows the
agent to fetch it and which server accepts mobile agents for it.

The line whose path is the longest prefix of the URL's path decides (octet
by octet, as robots.txt rules match); of two lines with the same path the
later one wins; "none", or no matching line, means no server. Lines count
wherever they stand in the file. Malformed lines are ignored and reported on
standard error; "sitetxt lint" reports them all. docs/mobileagent.md has the
details.

A URL is an absolute URL ("http://www.fict.org/home/") or a path ("/home/").
The robots.txt decision is "sitetxt check"'s, from the same parse: --profile
is rfc9309 (the default), google, draft or norobots (docs/profiles.md), and
--agent the robot's name or User-Agent header, as for check; without it the
agent is "*", which selects only the "*" group(s).

Output: text prints a table with the URL, whether robots.txt allows it,
the server ("none" when the deciding line says none, "-" when no line
matches) and the deciding line. json prints one object per URL per line:
{"url":...,"server":string|null,"line":int|null,"allowed":bool}.

Exit codes: 0 when every URL is allowed and has a server (an agent can be
dispatched for each), 1 when any URL is disallowed or has no server, 2 for
usage errors (a URL that is neither absolute nor a path, an unknown profile)
or an unreadable SOURCE.`,
		Example: `  sitetxt agents testdata/mobileagent/fict.org.txt http://www.fict.org/home/user1/
  sitetxt agents --agent Aglet --profile draft -o json robots.txt /dir1/ /dir1/dir2/x`,
		Args: minArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Source, opts.URLs = args[0], args[1:]
			return agentsRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Agent, "agent", globalAgent, `robot name or User-Agent header ("*": only the "*" group)`)
	profileFlag(cmd, &opts.Profile)
	outputFlag(cmd, &opts.Output, "text", "json")
	opts.Fetch.AddFlags(cmd)
	return cmd
}

// agentJSON is one line of "agents -o json".
type agentJSON struct {
	URL     string  `json:"url"`
	Server  *string `json:"server"`
	Line    *int    `json:"line"`
	Allowed bool    `json:"allowed"`
}

func agentsRun(opts *agentsOptions) error {
	if err := checkOutput(opts.Output, "text", "json"); err != nil {
		return err
	}
	for _, u := range opts.URLs {
		if !isURLOrPath(u) {
			return usageError("%q is neither an absolute URL nor a path starting with \"/\"", u)
		}
	}
	prof, err := robots.ParseProfile(opts.Profile)
	if err != nil {
		return usageError("%v", err)
	}
	opts.Fetch.Profile = prof.String()
	src, err := resolveSource(opts.IO, &opts.Fetch, opts.Source, "robots.txt")
	if err != nil {
		return err
	}
	// One parse for both answers; under google the whole file is read, as
	// "sitetxt check" does.
	f := parseFor(src, prof)
	policy := compileRobots(f, prof)
	if d, ok := fixedDecision(src.fetched); ok {
		policy = fixedRobots(d.Allowed) // the HTTP status decides every URL
	}
	table := mobileagent.Compile(f)
	for _, d := range table.Diagnostics() {
		if d.Severity == grammar.Error {
			fmt.Fprintf(opts.IO.ErrOut, "%s (line ignored)\n", d.Error())
		}
	}

	decisions := make([]mobileagent.Decision, len(opts.URLs))
	ok := true
	for i, u := range opts.URLs {
		decisions[i] = table.Dispatch(policy, opts.Agent, u)
		ok = ok && decisions[i].OK()
	}
	if opts.Output == "json" {
		enc := json.NewEncoder(opts.IO.Out)
		for _, d := range decisions {
			v := agentJSON{URL: d.URL, Allowed: d.Allowed}
			if d.Server != nil {
				s := d.Server.URL
				v.Server = &s
			}
			if d.Rule != nil {
				n := d.Rule.Pos().Line
				v.Line = &n
			}
			if err := enc.Encode(v); err != nil {
				return err
			}
		}
	} else {
		printDecisions(opts.IO, decisions)
	}
	if !ok {
		return findings
	}
	return nil
}

// printDecisions writes the decisions as a table for people.
func printDecisions(ios *IOStreams, ds []mobileagent.Decision) {
	tw := tabwriter.NewWriter(ios.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "URL\tALLOWED\tSERVER\tLINE")
	for _, d := range ds {
		allowed := "yes"
		if !d.Allowed {
			allowed = "no"
		}
		server, line := "-", "-"
		if d.Rule != nil {
			server = d.Rule.Target()
			line = strconv.Itoa(d.Rule.Pos().Line)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", d.URL, allowed, server, line)
	}
	tw.Flush()
}

// isURLOrPath reports whether u is an absolute URL (scheme ":") or a path.
func isURLOrPath(u string) bool {
	if strings.HasPrefix(u, "/") {
		return true
	}
	i := 0
	for i < len(u) && (u[i] >= 'a' && u[i] <= 'z' || u[i] >= 'A' && u[i] <= 'Z' ||
		i > 0 && (u[i] >= '0' && u[i] <= '9' || u[i] == '+' || u[i] == '-' || u[i] == '.')) {
		i++
	}
	return i > 0 && i < len(u) && u[i] == ':'
}

// compileRobots is the robots.txt side of the dispatch decision: the policy
// of the same parsed file under the chosen profile. It is a variable so
// tests can put a fake policy in.
var compileRobots = func(f *grammar.File, p robots.Profile) mobileagent.Robots {
	return robots.Compile(f, p)
}

// fixedRobots allows or disallows every URL: a fetched robots.txt whose
// status, not its content, decides.
type fixedRobots bool

func (r fixedRobots) Allowed(string, string) bool { return bool(r) }
