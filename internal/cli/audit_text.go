package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/sitetxt/sitetxt/internal/audit"
	"github.com/sitetxt/sitetxt/robots"
)

// auditWidth is the widest line audit's text writes where it chooses the
// breaks: names, notes, usage and the profiles' differences are wrapped
// to it (a verdict row is as long as its deciding line).
const auditWidth = 120

// textReport writes one report for people: per category its verdict
// line, then the crawlers that read the same lines grouped: one row of
// verdicts and the deciding line, how many they are and the first names
// (every name with --all), the usage they read (said in full once per
// report, then "as above"), and how the profiles differ, said once for
// the group. A file a few lines long reads on one screen or two.
func (aw *auditWriter) textReport(rep *audit.Report) error {
	var b strings.Builder
	if aw.n > 0 {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%s (profile %s)\n", visible(rep.Source), rep.Profile)
	for _, l := range rep.Licenses {
		fmt.Fprintf(&b, "License (RSL): %s (line %d)\n", visible(l.Value), l.Line)
	}
	if len(rep.Unknown) > 0 {
		var us []string
		for _, u := range rep.Unknown {
			us = append(us, fmt.Sprintf("%s (line %d)", visible(u.Value), u.Line))
		}
		for _, l := range aw.list("Crawlers the registry does not know: ", "  ", us) {
			b.WriteString(l + "\n")
		}
	}
	if _, err := io.WriteString(aw.w, b.String()); err != nil {
		return err
	}
	said := map[string]bool{} // usage statements written in full
	for _, cat := range rep.Categories {
		if _, err := fmt.Fprintf(aw.w, "\n%s\n", aw.st.bold(cat.Verdict)); err != nil {
			return err
		}
		t := &table{}
		for _, g := range auditGroups(rep, cat.Category) {
			cells := []string{""} // the rows' indent
			paint := []func(string) string{nil}
			for _, p := range g.first.Paths {
				cells = append(cells, p.Path+" "+verdictWord(p.Allowed))
				if p.Allowed {
					paint = append(paint, aw.st.green)
				} else {
					paint = append(paint, aw.st.red)
				}
			}
			cells = append(cells, why(rep.Source, g.first.Verdict))
			t.add(cells, paint)
			for _, l := range aw.list("    "+plural(len(g.names), "crawler")+": ", "      ", g.names) {
				t.note(l)
			}
			for _, n := range aw.groupNotes(g.first, said) {
				for _, l := range wrapText(n, "    ", "      ", auditWidth) {
					t.note(l)
				}
			}
			if len(g.invalid) > 0 {
				verb := map[bool]string{true: "breaks", false: "break"}[len(g.invalid) == 1]
				for _, l := range aw.list(fmt.Sprintf("    note: %d %s RFC 9309's product-token grammar: ", len(g.invalid), verb), "      ", g.invalid) {
					t.note(l)
				}
			}
		}
		if err := t.write(aw.w); err != nil {
			return err
		}
	}
	var tail []string
	if aw.cut {
		tail = append(tail, "", "(a list cut to one line says how many more it has: --all names every crawler)")
		aw.cut = false
	}
	if rep.Disagree > 0 {
		tail = append(tail, "", "profiles disagree about "+plural(rep.Disagree, "crawler"))
	}
	tail = append(tail, "")
	tail = append(tail, wrapText(fmt.Sprintf("registry: %d crawlers from %s, read %s", rep.Registry.Crawlers, rep.Registry.Source, rep.Registry.Date), "", "  ", auditWidth)...)
	_, err := io.WriteString(aw.w, strings.Join(tail, "\n")+"\n")
	return err
}

// list writes items after head, joined by ", ": with --all every item,
// wrapped to auditWidth (the lines after the first indented by indent);
// otherwise one line with as many as fit and how many more there are
// (and the report ends saying --all names them).
func (aw *auditWriter) list(head, indent string, items []string) []string {
	if aw.all {
		var lines []string
		line := head
		for i, it := range items {
			if i < len(items)-1 {
				it += ","
			}
			switch {
			case i == 0:
				line += it
			case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(it) > auditWidth:
				lines = append(lines, line)
				line = indent + it
			default:
				line += " " + it
			}
		}
		return append(lines, line)
	}
	line := head
	for i, it := range items {
		sep := ""
		if i > 0 {
			sep = ", "
		}
		more := ""
		if rest := len(items) - i - 1; rest > 0 {
			more = fmt.Sprintf(" and %d more", rest)
		}
		if i > 0 && utf8.RuneCountInString(line+sep+it+more) > auditWidth {
			aw.cut = true
			return []string{line + fmt.Sprintf(" and %d more", len(items)-i)}
		}
		line += sep + it
	}
	return []string{line}
}

// groupNotes says what a group's crawlers read besides the deciding
// line: the usage at each path where it changes (the statements in full
// the first time a report says them, "as above" after), the fallback or
// fetching crawler, and where the profiles differ.
func (aw *auditWriter) groupNotes(c *audit.CrawlerReport, said map[string]bool) []string {
	var notes []string
	shown := ""
	for _, p := range c.Paths {
		u := p.Usage
		if u == nil || u.IsZero() {
			continue
		}
		text := usageText(u)
		if text == shown {
			continue
		}
		shown = text
		st := usageStatements(u)
		if said[st] && !aw.all {
			var ls []string
			if l := lineList(u.ContentUsage.Lines); l != "" {
				ls = append(ls, "Content-Usage "+strings.TrimSuffix(strings.TrimPrefix(l, " ("), ")"))
			}
			if l := lineList(u.ContentSignal.Lines); l != "" {
				ls = append(ls, "Content-Signal "+strings.TrimSuffix(strings.TrimPrefix(l, " ("), ")"))
			}
			st = "usage as above (" + strings.Join(ls, ", ") + ")"
		}
		said[usageStatements(u)] = true
		if d := usageDerived(u); len(d) > 0 {
			st += "; derived by sitetxt: " + strings.Join(d, ", ")
		}
		notes = append(notes, p.Path+": "+st)
	}
	if c.FellBackTo != "" {
		notes = append(notes, "it obeys "+c.FellBackTo+"'s groups, since none names it (its operator documents the fallback)")
	}
	if c.FetcherAllowed != nil {
		notes = append(notes, "it fetches nothing itself: its group governs what "+c.FetchedBy+" fetches ("+c.FetchedBy+" / "+verdictWord(*c.FetcherAllowed)+")")
	}
	if c.Disagree {
		notes = append(notes, "profiles disagree: "+disagreement(c))
	}
	return notes
}

// wrapText breaks s at spaces into lines of at most width columns, the
// first starting with first, the others with rest; a word longer than a
// line has a line of its own.
func wrapText(s, first, rest string, width int) []string {
	var lines []string
	cur := first
	fresh := true // cur holds only its indent
	for _, w := range strings.Fields(s) {
		switch {
		case fresh:
			cur += w
			fresh = false
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(w) > width:
			lines = append(lines, cur)
			cur, fresh = rest+w, false
		default:
			cur += " " + w
		}
	}
	if !fresh {
		lines = append(lines, cur)
	}
	return lines
}

// auditGroup is the crawlers of a category that read the same lines:
// the same verdicts and deciding line for every path, the same usage
// and the same differences between profiles.
type auditGroup struct {
	first   *audit.CrawlerReport
	names   []string // "Token (Operator)"
	invalid []string // tokens outside RFC 9309's grammar
}

// auditGroups groups the crawlers of category in the order they come.
func auditGroups(rep *audit.Report, category string) []*auditGroup {
	var out []*auditGroup
	byKey := map[string]*auditGroup{}
	for _, c := range rep.Crawlers {
		if c.Category != category {
			continue
		}
		key := why(rep.Source, c.Verdict)
		for _, p := range c.Paths {
			key += "\x00" + p.Path + " " + verdictWord(p.Allowed)
			if u := p.Usage; u != nil && !u.IsZero() {
				key += "\x00" + usageText(u)
			}
		}
		key += "\x00" + c.FellBackTo + "\x00" + c.FetchedBy + "\x00"
		if c.FetcherAllowed != nil {
			key += verdictWord(*c.FetcherAllowed)
		}
		if c.Disagree {
			key += "\x00" + disagreement(c)
		}
		g := byKey[key]
		if g == nil {
			g = &auditGroup{first: c}
			byKey[key] = g
			out = append(out, g)
		}
		g.names = append(g.names, visible(c.Token)+" ("+visible(c.Operator)+")")
		if !c.ValidToken {
			g.invalid = append(g.invalid, visible(c.Token))
		}
	}
	return out
}

// why names the deciding line of a verdict, or the reason.
func why(file string, v audit.Verdict) string {
	if v.Rule != nil {
		return fmt.Sprintf("%s:%d: %s: %s", visible(file), v.Rule.Line, v.Rule.Directive, visible(v.Rule.Pattern))
	}
	return visible(v.Reason)
}

// disagreement says which profiles answer which path differently, and
// why, each reason once: profiles that answer alike are named together
// ("draft, norobots disallowed"; "draft, norobots read Content-Usage line
// 11 where rfc9309 reads ...").
func disagreement(c *audit.CrawlerReport) string {
	var parts []string
	for _, p := range c.Paths {
		if !p.Disagree {
			continue
		}
		var split []string
		byVerdict := map[bool][]string{}
		var order []bool
		for _, pv := range p.Profiles {
			if _, ok := byVerdict[pv.Allowed]; !ok {
				order = append(order, pv.Allowed)
			}
			byVerdict[pv.Allowed] = append(byVerdict[pv.Allowed], pv.Profile)
		}
		if len(order) > 1 {
			for _, v := range order {
				split = append(split, strings.Join(byVerdict[v], ", ")+" "+verdictWord(v))
			}
		}
		part := p.Path + ": "
		if len(split) > 0 {
			part += strings.Join(split, "; ") + "; "
		}
		if len(p.Why) > 0 {
			part += strings.Join(mergeWhy(p.Why, p.Profiles[0].Profile), "; ")
		}
		parts = append(parts, strings.TrimSuffix(part, "; "))
	}
	return strings.Join(parts, " | ")
}

// mergeWhy says reasons that differ only in the profile they name once,
// naming the profiles together: "draft reads X where rfc9309 reads Y" and
// "norobots reads X where rfc9309 reads Y" are "draft, norobots read X
// where rfc9309 reads Y". main is the profile the others are compared
// with, which every reason names too.
func mergeWhy(why []string, main string) []string {
	type merged struct {
		before, after string
		names         []string
	}
	var out []*merged
	byKey := map[string]*merged{}
	for _, w := range why {
		name, at := otherProfile(w, main)
		if at < 0 {
			if byKey[w] == nil {
				byKey[w] = &merged{before: w}
				out = append(out, byKey[w])
			}
			continue
		}
		before, after := w[:at], w[at+len(name):]
		key := before + "\x00" + after
		m := byKey[key]
		if m == nil {
			m = &merged{before: before, after: after}
			byKey[key] = m
			out = append(out, m)
		}
		m.names = append(m.names, name)
	}
	var lines []string
	for _, m := range out {
		if len(m.names) == 0 {
			lines = append(lines, m.before)
			continue
		}
		after := m.after
		if len(m.names) > 1 {
			for _, v := range []string{"reads", "uses"} {
				if strings.HasPrefix(after, " "+v+" ") {
					after = " " + strings.TrimSuffix(v, "s") + after[len(v)+1:]
					break
				}
			}
		}
		lines = append(lines, m.before+strings.Join(m.names, ", ")+after)
	}
	return lines
}

// otherProfile finds the first profile other than main that w names as a
// word, and where.
func otherProfile(w, main string) (string, int) {
	best, at := "", -1
	for _, p := range robots.Profiles {
		name := p.String()
		if name == main {
			continue
		}
		for i := 0; ; {
			j := strings.Index(w[i:], name)
			if j < 0 {
				break
			}
			j += i
			end := j + len(name)
			if (j == 0 || !isWordByte(w[j-1])) && (end == len(w) || !isWordByte(w[end])) {
				if at < 0 || j < at {
					best, at = name, j
				}
				break
			}
			i = j + 1
		}
	}
	return best, at
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}
