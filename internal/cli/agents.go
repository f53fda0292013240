package cli

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/input"
	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/mobileagent"
	"github.com/sitetxt/sitetxt/robots"
)

// agentsOptions are the options of "sitetxt agents".
type agentsOptions struct {
	IO      *IOStreams
	Agent   string
	Profile string
	Output  format
	Source  string
	URLs    []string
	Fetch   fetchFlags
}

func newAgentsCmd(ios *IOStreams) *cobra.Command {
	opts := &agentsOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "agents [--agent UA] [--profile P] [-o text|json|csv] SOURCE URL...",
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

Output: text prints a table with the URL, whether robots.txt allows it
(allowed or disallowed), the server ("none" when the deciding line says
none, "-" when no line matches) and the deciding line. json prints one
object per URL per line:
  {"url","agent","profile","allowed":bool,"server":string|null,"file","line":int|null,"column":int|null}
where line and column are those of the deciding Mobile-agent-server line;
csv prints the same as rows.

Exit codes: 0 when every URL is allowed and has a server (an agent can be
dispatched for each), 1 when any URL is disallowed or has no server, or a
Mobile-agent-server line is malformed (its error is printed), 2 for
usage errors (a URL that is neither absolute nor a path, an unknown profile)
an unreadable SOURCE, or a SOURCE that could not be fetched (the cause
is printed on standard error).`,
		Example: `  sitetxt agents testdata/mobileagent/fict.org.txt http://www.fict.org/home/user1/
  sitetxt agents --agent Aglet --profile draft -o json robots.txt /dir1/ /dir1/dir2/x`,
		Args: minArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Source, opts.URLs = args[0], args[1:]
			return agentsRun(opts)
		},
	}
	agentFlag(cmd, &opts.Agent, `robot name or User-Agent header ("*": only the "*" group)`)
	profileFlag(cmd, &opts.Profile)
	outputFlag(cmd, &opts.Output, rowFormats)
	opts.Fetch.AddFlags(cmd)
	return cmd
}

func agentsRun(opts *agentsOptions) error {
	prof, err := robots.ParseProfile(opts.Profile)
	if err != nil {
		return usageError("%v", err)
	}
	opts.Fetch.Profile = prof.String()
	agentNote(opts.IO, prof, opts.Agent)
	src, err := resolveSource(opts.IO, &opts.Fetch, opts.Source, manifest.Robots)
	if err != nil {
		return err
	}
	failure := reportFetch(opts.IO, src)
	// One parse for both answers; under google the whole file is read, as
	// "sitetxt check" does.
	f := parseFor(src, prof)
	readNotes(opts.IO, src, f)
	markupWarning(opts.IO, src)
	policy := compileRobots(f, prof)
	if d, ok := src.fixed(); ok {
		policy = fixedRobots(d.Allowed) // the HTTP status decides every URL
	}
	table := mobileagent.Compile(f)
	malformed := false // an error line printed: exit 1, as datasets does
	for _, d := range table.Diagnostics() {
		if d.Severity == grammar.Error {
			malformed = true
			fmt.Fprintf(opts.IO.ErrOut, "%s (line ignored)\n", diagText(d))
		}
	}

	out := newStream(opts.IO.Out, false)
	urls := newBatch(opts.IO, opts.URLs, "")
	var (
		decisions []mobileagent.Dispatched
		cw        *csvRows
		ok        = true
	)
	switch opts.Output {
	case fJSON:
		urls.jl = newJSONLines(out)
	case fCSV:
		cw = newCSV(out)
		if err := cw.write("url", "agent", "profile", "verdict", "server", "file", "line", "column"); err != nil {
			return err
		}
	}
	err = urls.eachOn(src.manifestURL(), func(u input.URL) error {
		d := table.Dispatch(policy, opts.Agent, u.Decide)
		d.URL = u.Typed
		ok = ok && d.OK()
		switch {
		case urls.jl != nil:
			return urls.jl.write(jsonview.AgentOf(d, opts.Agent, prof, src.name))
		case cw != nil:
			server, line, col := "", "", ""
			if d.Rule != nil {
				server, line, col = d.Rule.Target(), itoa(d.Rule.Pos().Line), itoa(d.Rule.Pos().Column)
			}
			return cw.write(d.URL, opts.Agent, prof.String(), verdictWord(d.Allowed), server, src.name, line, col)
		}
		decisions = append(decisions, d)
		return nil
	})
	if err != nil {
		return err
	}
	if urls.jl == nil && cw == nil && len(decisions) > 0 {
		io.WriteString(out.w, answersFor(opts.Agent, prof))
		if err := printDecisions(out.w, decisions); err != nil {
			return err
		}
	}
	if err := out.done(); err != nil {
		return err
	}
	return exitWith(failure, !ok || malformed, urls)
}

// printDecisions writes the decisions as a table for people.
func printDecisions(w io.Writer, ds []mobileagent.Dispatched) error {
	var tab table
	tab.add([]string{"URL", "ROBOTS.TXT", "SERVER", "LINE"}, nil)
	for _, d := range ds {
		server, line := "-", "-"
		if d.Rule != nil {
			server = d.Rule.Target()
			line = strconv.Itoa(d.Rule.Pos().Line)
		}
		tab.add([]string{d.URL, verdictWord(d.Allowed), server, line}, nil)
	}
	return tab.write(w)
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
