package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sitetxt/sitetxt/internal/audit"
	"github.com/sitetxt/sitetxt/robots"
)

// auditMergeRun is audit --merge: it reads each SOURCE as the output of
// audit --summary -o json (a file, or "-" for standard input), adds the
// counts up (audit.Summary.Add) and prints them as audit --summary does.
// Every count is a number of files, so the sum of separate runs is what
// one run over all their files counts: a batch engine maps audit
// --summary over parts of a corpus (WARC files, lists) and reduces with
// --merge. Each part must have been counted with this registry (its
// source, date and crawlers), since a crawler's counts mean nothing
// against another list.
func auditMergeRun(opts *auditOptions) error {
	reg := audit.DefaultRegistry()
	total := audit.NewSummary(reg)
	for _, name := range opts.Sources {
		var r io.Reader = opts.IO.In
		if name != "-" {
			f, err := os.Open(name)
			if err != nil {
				return &exitError{code: ExitError, err: fmt.Errorf("%s", unwrapPath(err))}
			}
			defer f.Close()
			r = f
		} else {
			name = "<stdin>"
		}
		part, err := readSummaryJSON(name, r, reg)
		if err != nil {
			return &exitError{code: ExitError, err: err}
		}
		total.Add(part)
	}
	return writeSummary(opts.IO.Out, opts.Output, total)
}

// summaryLine is any line of audit --summary -o json: a crawler's counts
// (crawler set), a category's (category set, no crawler) or the totals
// (audited set).
type summaryLine struct {
	Crawler  *string         `json:"crawler"`
	Category *string         `json:"category"`
	Files    []summaryCounts `json:"files"`
	summaryTotals
}

// readSummaryJSON reads one part for --merge: every crawler of reg once,
// every category once, and the totals, counted with reg. An error names
// the part and the line.
func readSummaryJSON(name string, r io.Reader, reg *audit.Registry) (*audit.Summary, error) {
	s := audit.NewSummary(reg)
	crawler := map[string]int{}
	for i, c := range reg.Crawlers {
		crawler[c.Token] = i
	}
	category := map[string]int{}
	for i, c := range audit.Categories {
		category[c] = i
	}
	profile := map[string]int{}
	for i, p := range robots.Profiles {
		profile[p.String()] = i
	}
	seenCrawler := make([]bool, len(reg.Crawlers))
	seenCategory := make([]bool, len(audit.Categories))
	totals := false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	n := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", visible(name), n, fmt.Sprintf(format, args...))
	}
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var l summaryLine
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			return nil, fail("not a line of audit --summary -o json: %v", err)
		}
		switch {
		case l.Audited != nil:
			if totals {
				return nil, fail("a second line of totals")
			}
			totals = true
			if g := l.Registry; g != nil && (g.Source != reg.Source || g.Date != reg.Date || g.Crawlers != len(reg.Crawlers)) {
				return nil, fail("counted with another registry (%d crawlers from %s, read %s) than this sitetxt's (%d crawlers, read %s): merge the parts of one version", g.Crawlers, g.Source, g.Date, len(reg.Crawlers), reg.Date)
			}
			s.Files, s.Errors, s.NotOK, s.Disagree = *l.Audited, l.Unreadable, l.NotOK, l.Disagree
			s.ContentUsage, s.ContentSignal, s.License, s.Bytes = l.ContentUsage, l.ContentSignal, l.License, l.Bytes
		case l.Crawler != nil:
			i, ok := crawler[*l.Crawler]
			if !ok {
				return nil, fail("crawler %q is not in this sitetxt's registry: merge the parts of one version", *l.Crawler)
			}
			if seenCrawler[i] {
				return nil, fail("crawler %q twice", *l.Crawler)
			}
			seenCrawler[i] = true
			if err := readCounts(s.Crawlers[i], l.Files, profile); err != nil {
				return nil, fail("crawler %q: %v", *l.Crawler, err)
			}
		case l.Category != nil:
			i, ok := category[*l.Category]
			if !ok {
				return nil, fail("unknown category %q", *l.Category)
			}
			if seenCategory[i] {
				return nil, fail("category %q twice", *l.Category)
			}
			seenCategory[i] = true
			if err := readCounts(s.Categories[i], l.Files, profile); err != nil {
				return nil, fail("category %q: %v", *l.Category, err)
			}
		default:
			return nil, fail("a line with no crawler, category or totals")
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", visible(name), err)
	}
	for i, ok := range seenCrawler {
		if !ok {
			return nil, fmt.Errorf("%s: no counts for crawler %q: not a whole audit --summary -o json result, or counted with another registry", visible(name), reg.Crawlers[i].Token)
		}
	}
	for i, ok := range seenCategory {
		if !ok {
			return nil, fmt.Errorf("%s: no counts for category %q", visible(name), audit.Categories[i])
		}
	}
	if !totals {
		return nil, fmt.Errorf("%s: no line of totals: not a whole audit --summary -o json result", visible(name))
	}
	return s, nil
}

// readCounts reads one line's counts per profile into c, every profile
// once.
func readCounts(c audit.Counts, files []summaryCounts, profile map[string]int) error {
	seen := make([]bool, len(c))
	for _, f := range files {
		p, ok := profile[f.Profile]
		if !ok {
			return fmt.Errorf("unknown profile %q", f.Profile)
		}
		if seen[p] {
			return fmt.Errorf("profile %q twice", f.Profile)
		}
		if f.Fully < 0 || f.Partly < 0 || f.None < 0 {
			return fmt.Errorf("a negative count under %s", f.Profile)
		}
		seen[p] = true
		c[p][audit.Fully], c[p][audit.Partly], c[p][audit.None] = f.Fully, f.Partly, f.None
	}
	for p, ok := range seen {
		if !ok {
			return fmt.Errorf("no counts under %s", robots.Profiles[p])
		}
	}
	return nil
}
