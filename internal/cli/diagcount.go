package cli

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/lint"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
)

// profileDiagnostics returns the diagnostics lint reports for f, a
// manifest of kind k (yaml for one in a YAML form), read under prof (package lint's ForProfile, shared with
// sitetxt serve): lint, summary, fetch and parse count through it, so one
// file gives one count.
func profileDiagnostics(f *grammar.File, k *manifest.Kind, yaml bool, prof robots.Profile, portability bool) (ds grammar.Diagnostics, leftOut int) {
	return lint.ForProfile(f, k, yaml, prof, portability)
}

// sourceDiagnostics is profileDiagnostics for a source whose kind is told
// by its name and content, as lint --type auto tells it.
func sourceDiagnostics(src *source, f *grammar.File, prof robots.Profile) grammar.Diagnostics {
	k := manifest.Of(src.name, src.data)
	ds, _ := profileDiagnostics(f, k, k.InYAML([]byte(src.data)), prof, false)
	return ds
}

// leftOutSummary is the summary of the diagnostic that stands for the
// others of its code a capped list left out: the words of
// grammar.Diagnostics.Limit, the grammar's own cap and sitemap.Reader
// (TestCountDiagnostics holds them to it).
var leftOutSummary = regexp.MustCompile(`^(\d+) more "[^"]*" diagnostics like this one are left out$`)

// diagCounts is how many diagnostics a report holds, by severity, the ones
// a capped list left out counted too, and how many of them are not printed.
type diagCounts struct {
	bySeverity map[grammar.Severity]int
	notShown   int
}

// add counts d: one, or for a diagnostic that stands for n left out, n.
func (c *diagCounts) add(d *grammar.Diagnostic) {
	if c.bySeverity == nil {
		c.bySeverity = map[grammar.Severity]int{}
	}
	if m := leftOutSummary.FindStringSubmatch(d.Summary); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			c.bySeverity[d.Severity] += n
			c.notShown += n
			return
		}
	}
	c.bySeverity[d.Severity]++
}

// countDiagnostics counts ds (diagCounts.add).
func countDiagnostics(ds grammar.Diagnostics) diagCounts {
	var c diagCounts
	for _, d := range ds {
		c.add(d)
	}
	return c
}

// String says the counts as the totals lines do: "3 errors, 201760
// warnings".
func (c diagCounts) String() string {
	return fmt.Sprintf("%s, %s", plural(c.bySeverity[grammar.Error], "error"), plural(c.bySeverity[grammar.Warning], "warning"))
}

// notPrinted says how many of them were left out of the report, "" when
// none were: "; 201659 of them not printed".
func (c diagCounts) notPrinted() string {
	if c.notShown == 0 {
		return ""
	}
	return fmt.Sprintf("; %d of them not printed", c.notShown)
}
