package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// The registry's part that follows the community list
// github.com/ai-robots-txt/ai.robots.txt is generated from the list's
// robots.json (airobots.yaml, by gencrawlers through go generate); the
// hand-written crawlers.yaml adds the crawlers the list does not name and
// corrects or completes what the list says (an operator read from the
// operator's own page, a category the list's free-text function does not
// name). This file reads robots.json into that part and writes it.

//go:generate go run ./gencrawlers -in $AIROBOTS_JSON -commit $AIROBOTS_COMMIT -date $AIROBOTS_DATE -out airobots.yaml

// ListFile is the registry's generated part: every name of the community
// list as the list states it, and where and when the list was read.
type ListFile struct {
	ListRef  `yaml:",inline"`
	Crawlers []Crawler `yaml:"crawlers"`
}

// ListRef says which copy of the community list the registry follows.
type ListRef struct {
	// Source names the list's file ("github.com/ai-robots-txt/ai.robots.txt
	// robots.json"); Commit is the commit it was read at (40 hex digits)
	// and Date that commit's day (YYYY-MM-DD); one of them at least.
	Source string `yaml:"source" json:"source"`
	Commit string `yaml:"commit,omitempty" json:"commit,omitempty"`
	Date   string `yaml:"date,omitempty" json:"date,omitempty"`
	// Names is how many names the list's file has, case variants counted
	// apart (the registry keeps one entry for names that differ only in
	// case).
	Names int `yaml:"names" json:"names"`
}

// String says which copy of the list was read: "github.com/... robots.json
// at commit 738c80df (2026-08-22), 166 names".
func (l ListRef) String() string {
	s := l.Source
	switch {
	case l.Commit != "" && l.Date != "":
		s += fmt.Sprintf(" at commit %s (%s)", shortCommit(l.Commit), l.Date)
	case l.Commit != "":
		s += " at commit " + shortCommit(l.Commit)
	case l.Date != "":
		s += " of " + l.Date
	}
	return s + fmt.Sprintf(", %d names", l.Names)
}

func shortCommit(c string) string { return c[:min(len(c), 8)] }

// listSource is ListRef.Source of robots.json.
const listSource = "github.com/ai-robots-txt/ai.robots.txt robots.json"

// listFunctions maps the functions the list names (its categories) onto
// the registry's categories. A function the list writes as free text maps
// to none: crawlers.yaml gives the category (ParseRegistry fails on an
// entry without one).
var listFunctions = map[string]string{
	"ai data scrapers":       AITraining,
	"ai data scraper":        AITraining,
	"ai data providers":      AITraining,
	"ai search crawlers":     AISearch,
	"ai assistants":          AIAssistant,
	"ai agents":              AIAssistant,
	"ai coding agents":       AIAssistant,
	"undocumented ai agents": AIAssistant,
}

// listEntry is one name's facts in robots.json.
type listEntry struct {
	Operator string `json:"operator"`
	Respect  string `json:"respect"`
	Function string `json:"function"`
}

var mdLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

// listOperator reads the list's operator field: a Markdown link's text;
// "unknown" for "Unclear at this time.", "Unknown" or a bare URL; a
// description ("Lyrenth that builds ...", "Amazon, used for ...", "Naget
// Inc (founded ...)") cut to the name before it.
func listOperator(s string) string {
	s = strings.TrimSpace(mdLink.ReplaceAllString(s, "$1"))
	low := strings.ToLower(s)
	if s == "" || strings.HasPrefix(low, "unclear") || low == "unknown" || strings.HasPrefix(low, "http://") || strings.HasPrefix(low, "https://") {
		return "unknown"
	}
	for _, sep := range []string{" that ", ", ", " ("} {
		if i := strings.Index(s, sep); i > 0 {
			s = s[:i]
		}
	}
	return strings.TrimSpace(s)
}

// listRespect reads the list's respect field: yes, no, user (at its
// users' discretion) or unclear.
func listRespect(s string) string {
	low := strings.ToLower(strings.TrimSpace(mdLink.ReplaceAllString(s, "$1")))
	switch {
	case strings.HasPrefix(low, "yes"):
		return "yes"
	case strings.HasPrefix(low, "no"):
		return "no"
	case strings.Contains(low, "discretion"):
		return "user"
	}
	return "unclear"
}

// listLinks returns the URLs of the Markdown links in the list's fields
// (the operator's site, the page saying whether it obeys robots.txt),
// each once, then the list itself ("ai-robots-txt").
func listLinks(fields ...string) []string {
	var out []string
	for _, f := range fields {
		for _, m := range mdLinkURL.FindAllStringSubmatch(f, -1) {
			if u := strings.TrimSpace(m[1]); u != "" && !slices.Contains(out, u) {
				out = append(out, u)
			}
		}
	}
	return append(out, "ai-robots-txt")
}

var mdLinkURL = regexp.MustCompile(`\[[^\]]*\]\(([^)]*)\)`)

// tokenFaults names what in a token RFC 9309's product-token grammar
// (letters, '-', '_') has no place for: "a digit and a space".
func tokenFaults(token string) string {
	var faults []string
	for _, f := range []struct {
		what string
		in   func(rune) bool
	}{
		{"a digit", func(r rune) bool { return r >= '0' && r <= '9' }},
		{"a space", func(r rune) bool { return r == ' ' || r == '\t' }},
		{"a '.'", func(r rune) bool { return r == '.' }},
		{"a '/'", func(r rune) bool { return r == '/' }},
	} {
		if strings.ContainsFunc(token, f.in) {
			faults = append(faults, f.what)
		}
	}
	if len(faults) == 0 {
		return "a character outside letters, '-' and '_'"
	}
	return strings.Join(faults, " and ")
}

// ReadRobotsJSON reads the community list's robots.json into the
// registry's generated part, recording the commit and the date it was
// read at (one of them at least). Names that differ only in case become
// one entry (the first spelling in the list's order, with a note naming
// the others); each field is the first of their values that says
// something. A function the list does not name leaves the category empty
// for crawlers.yaml to give.
func ReadRobotsJSON(r io.Reader, commit, date string) (*ListFile, error) {
	if commit == "" && date == "" {
		return nil, fmt.Errorf("robots.json: say which commit or date it was read at")
	}
	var raw map[string]listEntry
	dec := json.NewDecoder(r)
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("robots.json: %w", err)
	}
	if len(raw) == 0 {
		return nil, fmt.Errorf("robots.json: no names")
	}
	names := make([]string, 0, len(raw))
	for n := range raw {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := strings.Compare(strings.ToLower(a), strings.ToLower(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	lf := &ListFile{ListRef: ListRef{Source: listSource, Commit: commit, Date: date, Names: len(raw)}}
	at := map[string]int{} // lower-case name -> index in lf.Crawlers
	for _, n := range names {
		e := raw[n]
		token := strings.TrimSpace(n)
		if token == "" {
			return nil, fmt.Errorf("robots.json: an empty name")
		}
		c := Crawler{Token: token, Operator: listOperator(e.Operator), Category: listFunctions[strings.ToLower(strings.TrimSpace(e.Function))],
			RespectsRobots: listRespect(e.Respect), Source: listLinks(e.Operator, e.Respect)}
		if c.Category == "" {
			c.Function = strings.TrimSpace(e.Function)
		}
		if !c.ValidToken() {
			c.Note = tokenFaults(token) + " in the token breaks RFC 9309's product-token grammar"
		}
		i, seen := at[strings.ToLower(token)]
		if !seen {
			at[strings.ToLower(token)] = len(lf.Crawlers)
			lf.Crawlers = append(lf.Crawlers, c)
			continue
		}
		first := &lf.Crawlers[i]
		if first.Operator == "unknown" {
			first.Operator = c.Operator
		}
		if first.Category == "" && c.Category != "" {
			first.Category, first.Function = c.Category, ""
		}
		if first.RespectsRobots == "unclear" {
			first.RespectsRobots = c.RespectsRobots
		}
		switch {
		case first.Note == "":
			first.Note = "the list also writes it " + token
		case strings.Contains(first.Note, "the list also writes it "):
			first.Note += ", " + token
		default:
			first.Note += "; the list also writes it " + token
		}
	}
	return lf, nil
}

// Encode writes the generated part as airobots.yaml: a header saying
// where it comes from and that it is generated, then the list's source,
// commit, date and names, then one entry per name.
func (lf *ListFile) Encode() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(listHeader)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(lf); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

const listHeader = `# Code generated by gencrawlers from ai.robots.txt's robots.json; DO NOT EDIT.
#
# The registry's part that follows the community list
# github.com/ai-robots-txt/ai.robots.txt: every name of its robots.json, read
# as the list states it (operator, the category its function names,
# respect). crawlers.yaml corrects and completes it: an entry there with
# the same token (case ignored) overrides each field it gives. Rebuild it
# from a copy of robots.json (docs/ai-preferences.md, "Updating the crawler
# registry"):
#
#   AIROBOTS_JSON=/path/to/robots.json AIROBOTS_COMMIT=<40 hex digits> \
#   AIROBOTS_DATE=YYYY-MM-DD go generate ./internal/audit
#
`

// parseListFile reads airobots.yaml.
func parseListFile(b []byte) (*ListFile, error) {
	var lf ListFile
	if err := yaml.Unmarshal(b, &lf); err != nil {
		return nil, err
	}
	if lf.Source == "" || (lf.Commit == "" && lf.Date == "") {
		return nil, fmt.Errorf("the list names no source, or neither commit nor date")
	}
	return &lf, nil
}

// overlay returns the list's entry c with every field that h, the
// hand-written entry of the same token, gives.
func overlay(c, h Crawler) Crawler {
	c.Token = h.Token
	for _, f := range []struct{ dst, src *string }{
		{&c.Operator, &h.Operator}, {&c.Category, &h.Category}, {&c.RespectsRobots, &h.RespectsRobots},
		{&c.FallsBackTo, &h.FallsBackTo}, {&c.FetchedBy, &h.FetchedBy}, {&c.Note, &h.Note},
	} {
		if *f.src != "" {
			*f.dst = *f.src
		}
	}
	if len(h.Source) > 0 {
		c.Source = h.Source
	}
	if c.Category != "" {
		c.Function = ""
	}
	return c
}

// DroppedNames returns the tokens of the generated part old that the new
// one does not have (ignoring case), in old's order; nil when either does
// not read.
func DroppedNames(old, new []byte) []string {
	o, err1 := parseListFile(old)
	n, err2 := parseListFile(new)
	if err1 != nil || err2 != nil {
		return nil
	}
	have := map[string]bool{}
	for _, c := range n.Crawlers {
		have[strings.ToLower(c.Token)] = true
	}
	var out []string
	for _, c := range o.Crawlers {
		if !have[strings.ToLower(c.Token)] {
			out = append(out, c.Token)
		}
	}
	return out
}
