package serve

import (
	"slices"
	"unicode/utf8"

	"github.com/sitetxt/sitetxt/internal/jsonview"
	"github.com/sitetxt/sitetxt/internal/prefs"
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
	maxEchoLines   = 32      // usage lines of each field; header lines of each field
	maxEchoValue   = 1 << 10 // bytes of one usage line's value; of one header value
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

// boundPrefs shortens what a /v1/prefs result echoes of the site's text
// to the limits above, and says what in "truncated": its robots.txt
// usage lines as bound does, each header value to maxEchoValue bytes,
// at most maxEchoLines Robots-Tag lines and licenses.
func boundPrefs(r *prefs.Result) {
	cut := func(v *string, name string) {
		if len(*v) > maxEchoValue {
			*v = prefix(*v, maxEchoValue)
			r.Truncated = append(r.Truncated, name)
		}
	}
	if u := r.RobotsTxt; u != nil {
		if boundLines(&u.ContentUsage.Lines) {
			r.Truncated = append(r.Truncated, "robots_txt.content_usage.lines")
		}
		if boundLines(&u.ContentSignal.Lines) {
			r.Truncated = append(r.Truncated, "robots_txt.content_signal.lines")
		}
	}
	h := r.Headers
	if h == nil {
		return
	}
	if h.ContentUsage != nil {
		cut(&h.ContentUsage.Value, "headers.content_usage.value")
		cut(&h.ContentUsage.Error, "headers.content_usage.error")
	}
	if h.ContentSignal != nil {
		cut(&h.ContentSignal.Value, "headers.content_signal.value")
		cut(&h.ContentSignal.Error, "headers.content_signal.error")
	}
	n := len(r.Truncated)
	if len(h.RobotsTag) > maxEchoLines {
		h.RobotsTag = h.RobotsTag[:maxEchoLines]
		r.Truncated = append(r.Truncated, "headers.robots_tag")
	}
	for i := range h.RobotsTag {
		t := &h.RobotsTag[i]
		cut(&t.Value, "headers.robots_tag")
		cut(&t.Agent, "headers.robots_tag")
		if len(t.Directives) > maxEchoLines {
			t.Directives = t.Directives[:maxEchoLines]
			r.Truncated = append(r.Truncated, "headers.robots_tag")
		}
		for j := range t.Directives {
			cut(&t.Directives[j], "headers.robots_tag")
		}
	}
	if len(h.Licenses) > maxEchoLines {
		h.Licenses = h.Licenses[:maxEchoLines]
		r.Truncated = append(r.Truncated, "headers.licenses")
	}
	for i := range h.Licenses {
		cut(&h.Licenses[i].URL, "headers.licenses")
		cut(&h.Licenses[i].Type, "headers.licenses")
	}
	r.Truncated = append(r.Truncated[:n], slices.Compact(r.Truncated[n:])...) // each name once
}
