package serve

import (
	"unicode/utf8"

	"github.com/sitetxt/sitetxt/internal/jsonview"
)

// A result repeats a site's text (the pattern of the rule that decided,
// the User-agent lines of its group, the usage lines that apply) for
// every URL asked about that site, so a robots.txt made for it (a group
// of 40,000 User-agent lines, a 16 KB pattern) would make each result of
// a 10,000-URL request hundreds of kilobytes. bound keeps each result's
// share of the site's text within these limits, far above real files
// (the longest group of real files names about a hundred agents), and
// says what it shortened in "truncated"; the line and column of the rule
// and group still point to the whole text.
const (
	maxEchoPattern = 1 << 10 // bytes of rule.pattern
	maxEchoAgents  = 4 << 10 // bytes of group.agents
	maxEchoLines   = 32      // usage lines of each field
	maxEchoValue   = 1 << 10 // bytes of one usage line's value
)

// bound shortens the site's text in d to the limits above.
func bound(d *Result) {
	if d.Rule != nil && len(d.Rule.Pattern) > maxEchoPattern {
		d.Rule.Pattern = prefix(d.Rule.Pattern, maxEchoPattern)
		d.Truncated = append(d.Truncated, "rule.pattern")
	}
	if d.Group != nil {
		n, size := 0, 0
		for _, a := range d.Group.Agents {
			if size += len(a); size > maxEchoAgents {
				break
			}
			n++
		}
		if n < len(d.Group.Agents) {
			d.Group.Agents = d.Group.Agents[:n:n] // a new view: the policy's own slice is shared
			d.Truncated = append(d.Truncated, "group.agents")
		}
	}
	if d.Usage != nil {
		if boundLines(&d.Usage.ContentUsage.Lines) {
			d.Truncated = append(d.Truncated, "usage.content_usage.lines")
		}
		if boundLines(&d.Usage.ContentSignal.Lines) {
			d.Truncated = append(d.Truncated, "usage.content_signal.lines")
		}
	}
}

// boundLines keeps at most maxEchoLines lines of at most maxEchoValue
// bytes each, reporting whether it shortened anything.
func boundLines(lines *[]jsonview.Line) bool {
	cut := false
	if len(*lines) > maxEchoLines {
		*lines, cut = (*lines)[:maxEchoLines], true
	}
	for i := range *lines {
		if l := &(*lines)[i]; len(l.Value) > maxEchoValue {
			l.Value, cut = prefix(l.Value, maxEchoValue), true
		}
	}
	return cut
}

// prefix returns at most n bytes of s, not cutting a UTF-8 sequence.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
