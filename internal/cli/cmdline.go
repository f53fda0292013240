package cli

// This file is the command line as people expect it around the commands:
// a mistyped command or flag answered with what was probably meant, the
// version from the build, --color, help that starts with the usage line,
// completion of crawler names, and man pages from the command tree.

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/audit"
)

// unknownCommand returns the error for args that name no command of
// root ("sitetxt chek"), with the command probably meant, or nil when
// args start with a command, a flag or nothing.
func unknownCommand(root *cobra.Command, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return nil
	}
	for _, c := range root.Commands() {
		if c.Name() == args[0] || c.HasAlias(args[0]) {
			return nil
		}
	}
	switch args[0] {
	case "help", cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd:
		return nil // cobra adds these when it runs
	}
	return usageError("unknown command %q (%srun sitetxt help for the commands)", args[0], commandHint(root, args[0]))
}

// unknownTopic is the error of "sitetxt help chek": the command probably
// meant, as for "sitetxt chek".
func unknownTopic(root *cobra.Command, args []string) error {
	return usageError("unknown help topic %q (%srun sitetxt help for the commands)", strings.Join(args, " "), commandHint(root, args[0]))
}

// commandHint is "did you mean check? " for a word near one of root's
// commands (or help), else "".
func commandHint(root *cobra.Command, w string) string {
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	names = append(names, "help")
	if m := meant(w, names); m != "" {
		return fmt.Sprintf("did you mean %s? ", m)
	}
	return ""
}

// meant returns the word of known nearest to w (within two edits, or
// known's word that starts with w), or "".
func meant(w string, known []string) string {
	if m := grammar.Nearest(w, known, 2); m != "" {
		return m
	}
	for _, k := range known {
		if len(w) >= 2 && strings.HasPrefix(k, w) {
			return k
		}
	}
	return ""
}

// flagError is the error of a flag cobra could not parse: an unknown
// one ("--agnet") names the flag probably meant.
func flagError(c *cobra.Command, err error) error {
	msg := err.Error()
	if ve := flagValueError(msg); ve != nil {
		return ve
	}
	var name string
	switch {
	case strings.HasPrefix(msg, "unknown flag: --"):
		name = strings.TrimPrefix(msg, "unknown flag: --")
	case strings.HasPrefix(msg, "unknown shorthand flag: "):
		return &exitError{code: ExitError, err: fmt.Errorf("%s (run %s --help for its flags)", msg, c.CommandPath())}
	default:
		return &exitError{code: ExitError, err: err}
	}
	var names []string
	add := func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	}
	c.Flags().VisitAll(add)
	c.InheritedFlags().VisitAll(add)
	sort.Strings(names)
	hint := ""
	if m := meant(name, names); m != "" {
		hint = fmt.Sprintf("did you mean --%s? ", m)
	}
	who := "" // the root's own flag: printErr says "sitetxt: " already
	if c.HasParent() {
		who = c.Name() + ": "
	}
	return &exitError{code: ExitError, err: fmt.Errorf("%sunknown flag --%s (%srun %s --help for its flags)", who, name, hint, c.CommandPath())}
}

// versionText is what --version prints: the version (a release build's
// -X value, else the module version Go recorded), then the VCS revision
// and time the binary was built from, and the Go version.
func versionText() string {
	v := Version
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if v == "devel" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		v = info.Main.Version
	}
	var rev, at, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", modified"
			}
		}
	}
	if rev != "" {
		v += fmt.Sprintf(" (revision %s%s%s)", rev[:min(len(rev), 12)], prefixed(", ", at), dirty)
	}
	return v + ", " + info.GoVersion
}

func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

// checkColor checks the value of --color.
func checkColor(mode string) error {
	for _, m := range colorModes {
		if mode == m {
			return nil
		}
	}
	return usageError("--color %q: want auto, always or never", mode)
}

// colorModes are the values of --color: auto (colour on a terminal,
// unless NO_COLOR is set or TERM is dumb), always, never.
var colorModes = []string{"auto", "always", "never"}

// helpTemplate is cobra's help with the usage line first, then the
// prose, then the rest of the usage (examples, flags, commands).
const helpTemplate = `Usage:
{{- if .Runnable}}
  {{.UseLine}}{{end}}
{{- if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]{{end}}
{{with (or .Long .Short)}}
{{. | trimTrailingWhitespaces}}
{{end}}
{{- if .HasExample}}
Examples:
{{.Example}}
{{end}}
{{- if .HasAvailableSubCommands}}
Available Commands:{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}
{{end}}
{{- if .HasAvailableLocalFlags}}
Flags:
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}
{{end}}
{{- if .HasAvailableInheritedFlags}}
Global Flags:
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}
{{end}}
{{- if .HasAvailableSubCommands}}
Use "{{.CommandPath}} [command] --help" for more about a command.
{{end}}`

// crawlerNames are the tokens of the known crawlers (internal/audit's
// registry) that --agent completes.
func crawlerNames(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	var out []string
	for _, cr := range audit.DefaultRegistry().Crawlers {
		if strings.HasPrefix(strings.ToLower(cr.Token), strings.ToLower(toComplete)) {
			out = append(out, cr.Token+"\t"+cr.Operator+", "+audit.CategoryTitle(cr.Category))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// newManCmd returns "sitetxt man DIR": a man page per command, generated
// from the command tree (cobra/doc), as packagers install them.
func newManCmd(ios *IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "man DIR",
		Short: "Write a man page for every command into DIR",
		Long: `Write a man page (section 1) for sitetxt and each of its commands into DIR,
generated from the commands' own help: sitetxt.1, sitetxt-check.1, ...
Install them where man looks (for example /usr/local/share/man/man1).`,
		Example: `  sitetxt man ./man && man ./man/sitetxt-check.1`,
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return manRun(ios, cmd.Root(), args[0])
		},
	}
}

func manRun(ios *IOStreams, root *cobra.Command, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return &exitError{code: ExitError, err: fmt.Errorf("cannot write %s: %w", dir, unwrapPath(err))}
	}
	escapeStars(root)
	header := &doc.GenManHeader{Title: "SITETXT", Section: "1", Source: "sitetxt " + Version, Manual: "sitetxt manual"}
	if err := doc.GenManTree(root, header, dir); err != nil {
		return &exitError{code: ExitError, err: fmt.Errorf("cannot write the man pages: %w", unwrapPath(err))}
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "*.1"))
	note(ios, "%s written to %s", plural(len(pages), "man page"), dir)
	return nil
}

// escapeStars escapes the '*' of every command's help and flags for the
// man page generator, which reads them as Markdown: "*" (every crawler)
// would otherwise start italics. The tree is the one of this run only.
func escapeStars(c *cobra.Command) {
	esc := func(s string) string { return strings.ReplaceAll(s, "*", `\*`) }
	c.Short, c.Long = esc(c.Short), esc(c.Long)
	for _, fs := range []*pflag.FlagSet{c.LocalFlags(), c.PersistentFlags()} {
		fs.VisitAll(func(f *pflag.Flag) { f.Usage = esc(f.Usage) }) // a default is quoted (%q), no Markdown
	}
	for _, sub := range c.Commands() {
		escapeStars(sub)
	}
}
