// Package cli holds sitetxt's cobra commands. Each command has an options
// struct, a RunE that only parses flags into it, and an xRun function that
// does the work against the IOStreams, so tests run commands in memory.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/sitetxt/sitetxt/robots"
	"github.com/spf13/cobra"
)

// Exit codes, the same for every command (docs/cli.md).
const (
	ExitOK       = 0 // success: every URL allowed, no errors found
	ExitFindings = 1 // the command worked and found something: a disallowed URL, a lint error, a disagreement
	ExitError    = 2 // usage error, unreadable input, or a failure to fetch
)

// Version is the version --version prints; release builds set it with
// -ldflags "-X github.com/sitetxt/sitetxt/internal/cli.Version=...".
var Version = "devel"

// IOStreams are the standard streams a command uses.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// Getenv reads the environment (NO_COLOR, ...).
	Getenv func(string) string
	// IsTerminal reports whether w is a terminal.
	IsTerminal func(w io.Writer) bool
	// Quiet silences notes on ErrOut (-q); warnings and errors still print.
	Quiet bool
	// Color is --color: "auto" (the default; "" too), "always" or "never".
	Color string
}

// System returns the process's own streams.
func System() *IOStreams {
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		Getenv:     os.Getenv,
		IsTerminal: isTerminal,
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// exitError carries an exit code out of a command. A nil err means the
// command already said what it had to.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// findings makes a command exit with ExitFindings without a message.
var findings = &exitError{code: ExitFindings}

// usageError makes a command exit with ExitError and print msg.
func usageError(format string, args ...any) error {
	return &exitError{code: ExitError, err: fmt.Errorf(format, args...)}
}

// memoryLimit is the soft limit sitetxt sets on the Go heap (unless
// GOMEMLIMIT is set): with it the collector works harder instead of letting
// the heap double past what a hostile input makes live.
const memoryLimit = 192 << 20

// Main runs the command line in os.Args and returns the exit code.
func Main(ios *IOStreams) int {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	return Run(ios, os.Args[1:])
}

// Run runs sitetxt with args and returns the exit code. Errors are printed
// as one line on ios.ErrOut starting "sitetxt: ".
func Run(ios *IOStreams, args []string) int {
	root := NewRootCmd(ios)
	root.SetArgs(args)
	err := unknownCommand(root, args)
	if err == nil {
		err = root.Execute()
	}
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			printErr(ios, ee.err)
		}
		return ee.code
	}
	fmt.Fprintf(ios.ErrOut, "sitetxt: %s\n", visible(strings.TrimSpace(err.Error())))
	return ExitError
}

// NewRootCmd returns the sitetxt command with all its subcommands.
func NewRootCmd(ios *IOStreams) *cobra.Command {
	root := &cobra.Command{
		Use:   "sitetxt",
		Short: "Read robots.txt, data.txt and Mobile-agent-server manifests",
		Long: `sitetxt reads the small text manifests a web site publishes for machines:
/robots.txt (which parts a crawler may visit), /data.txt (which datasets a
site offers) and Mobile-agent-server lines (which host accepts mobile
agents for which subtree).

Exit codes: 0 success, 1 findings (a disallowed URL, a lint error, a
disagreement between profiles), 2 usage or input errors, including a
manifest that could not be fetched or read (its cause is printed on
standard error) and a URL of a batch that could not be answered (every
other is answered). 2 wins over 1. docs/cli.md has the output contract
every command follows.

Colour: text output is coloured on a terminal unless NO_COLOR is set or
TERM is dumb; --color=always or --color=never decides instead.`,
		Version:       versionText(),
		SilenceUsage:  true,
		SilenceErrors: true,
		// Keep generated docs stable.
		DisableAutoGenTag: true,
	}
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	root.SetFlagErrorFunc(flagError)
	root.SetHelpTemplate(helpTemplate)
	root.SetVersionTemplate("sitetxt version {{.Version}}\n")
	root.PersistentFlags().BoolVarP(&ios.Quiet, "quiet", "q", false, `no notes on standard error ("sitetxt: note: ..."); warnings and errors still print`)
	ios.Color = colorModes[0]
	cf := root.PersistentFlags().VarPF(lowerValue{&ios.Color}, "color", "", "colour text output: auto (on a terminal, unless NO_COLOR is set or TERM is dumb), always or never")
	cf.DefValue = colorModes[0]
	_ = root.RegisterFlagCompletionFunc("color", cobra.FixedCompletions(colorModes, cobra.ShellCompDirectiveNoFileComp))
	root.PersistentPreRunE = func(c *cobra.Command, args []string) error {
		return checkColor(ios.Color)
	}
	// The commands, in one place: adding one is one line here.
	root.AddCommand(
		newCheckCmd(ios),
		newDiffCmd(ios),
		newMatrixCmd(ios),
		newExplainCmd(ios),
		newSummaryCmd(ios),
		newLintCmd(ios),
		newParseCmd(ios),
		newAuditCmd(ios),
		newPrefsCmd(ios),
		newDatasetsCmd(ios),
		newAgentsCmd(ios),
		newFetchCmd(ios),
		newServeCmd(ios),
		newSitemapsCmd(ios),
		newManCmd(ios),
	)
	root.SetHelpCommand(&cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		RunE: func(c *cobra.Command, args []string) error {
			cmd, _, err := root.Find(args)
			if cmd == nil || err != nil {
				return unknownTopic(root, args)
			}
			cmd.InitDefaultHelpFlag()
			return cmd.Help()
		},
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			var names []string
			for _, sub := range root.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					names = append(names, sub.Name())
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
	})
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			// An unknown shell is a usage error, not a help page and exit 0.
			c.Args = func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					return usageError("completion: unknown shell %q (want bash, fish, powershell or zsh)", args[0])
				}
				return nil
			}
			c.RunE = func(cmd *cobra.Command, args []string) error { return cmd.Help() }
		}
	}
	root.InitDefaultVersionFlag()
	return root
}

// profileNames are the robots.txt profiles, for completion and help.
var profileNames = func() []string {
	var out []string
	for _, p := range robots.Profiles {
		out = append(out, p.String())
	}
	return out
}()

// profileFlag adds --profile, the robots.txt profile a command reads with
// (and whose access method reads a fetched robots.txt), and completes it.
func profileFlag(cmd *cobra.Command, p *string) {
	choiceFlag(cmd, p, "profile", "", "robots.txt profile: "+strings.Join(profileNames, ", ")+" (docs/profiles.md)", profileNames...)
}

// exactArgs and the like return cobra argument checks whose errors exit
// with ExitError.
func minArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return usageError("%s: needs at least %s, got %d", cmd.Name(), plural(n, "argument"), len(args))
		}
		return nil
	}
}

func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usageError("%s: needs %s, got %d", cmd.Name(), plural(n, "argument"), len(args))
		}
		return nil
	}
}
