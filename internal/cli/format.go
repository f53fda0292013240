package cli

import (
	"slices"
	"strings"

	"github.com/sitetxt/sitetxt/datatxt"
	"github.com/spf13/cobra"
)

// format is a value of -o/--output: what a command's printer writes. The
// values and the sets each command offers are here, once; a command
// switches on its typed value, and an unknown one is refused when the
// flag is parsed, before the command runs.
type format string

// The formats every command shares; datasets adds the catalog documents
// of datatxt.Formats.
const (
	fText format = "text" // for people: aligned, escaped, coloured on a terminal
	fJSON format = "json" // JSON Lines, one object per result
	fCSV  format = "csv"  // rows, escaped and formula-safe
	fYAML format = "yaml" // parse's tree
	fHTML format = "html" // audit's self-contained page
)

// The format sets, the first of each the default.
var (
	// rowFormats: commands that print a row per result (check, diff,
	// matrix, agents, fetch, lint, sitemaps).
	rowFormats = []format{fText, fJSON, fCSV}
	// recordFormats: commands that print one record per source (explain,
	// summary, prefs).
	recordFormats = []format{fText, fJSON}
	// parseFormats: parse's tree.
	parseFormats = []format{fText, fJSON, fYAML, fCSV}
	// auditFormats: audit's report (--summary: rowFormats).
	auditFormats = []format{fText, fJSON, fCSV, fHTML}
)

// datasetsFormats are datasets' formats: text, then datatxt's exports
// (json, yaml, csv and the catalog documents).
func datasetsFormats() []format {
	out := []format{fText}
	for _, f := range datatxt.Formats {
		out = append(out, format(f))
	}
	return out
}

// formatValue is -o's flag value: case-insensitive ("-o JSON"), one of
// the command's formats.
type formatValue struct {
	p       *format
	allowed []format
}

func (v formatValue) String() string {
	if v.p == nil {
		return ""
	}
	return string(*v.p)
}

func (v formatValue) Set(s string) error {
	f := format(strings.ToLower(s))
	if !slices.Contains(v.allowed, f) {
		return unknownFormat(s, v.allowed)
	}
	*v.p = f
	return nil
}

func (v formatValue) Type() string { return "string" }

// unknownFormat is the error for an -o value a command does not offer.
func unknownFormat(v string, allowed []format) error {
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	return usageError("unknown output format %q (want %s)", strings.ToLower(v), strings.Join(names, ", "))
}

// outputFlag adds -o/--output with the command's formats, the first the
// default, and completes them in the shell.
func outputFlag(cmd *cobra.Command, p *format, formats []format) {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = string(f)
	}
	*p = formats[0]
	help := "output format: " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	fl := cmd.Flags().VarPF(formatValue{p, formats}, "output", "o", help)
	fl.DefValue = names[0]
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions(names, cobra.ShellCompDirectiveNoFileComp))
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations["output"] = strings.Join(names, ",")
}

// flagValueError returns the error a flag's own value gave (an unknown
// output format), without pflag's "invalid argument ... flag:" wrapping,
// or nil for any other error.
func flagValueError(msg string) error {
	if i := strings.Index(msg, "flag: unknown output format "); i >= 0 && strings.HasPrefix(msg, "invalid argument ") {
		return usageError("%s", msg[i+len("flag: "):])
	}
	return nil
}
