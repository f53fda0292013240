// Package lint gathers every problem sitetxt reports in a manifest: the
// grammar's own diagnostics (a line without a colon, a BOM, HTML where a
// robots.txt should be) and each interpreter's checks (robots.txt rules,
// Mobile-agent-server lines, data.txt entries), in one sorted list. "sitetxt
// lint" prints it and sitetxt serve's tester and POST /v1/test answer
// with it, so both report the same problems for the same file.
package lint

import (
	"strconv"
	"strings"

	"github.com/sitetxt/sitetxt/grammar"
	"github.com/sitetxt/sitetxt/internal/manifest"
	"github.com/sitetxt/sitetxt/robots"
)

// yamlNoise are the grammar's diagnostics that say nothing about a data.txt
// in YAML, whose lines are not "field: value" lines.
var yamlNoise = map[string]bool{"no-colon": true, "invalid-line": true}

// File returns every diagnostic for f as a manifest of kind k (the checks
// of its row of the manifest table, and of the kinds whose lines live in
// it), sorted; yaml says f is a data.txt in its YAML form; for a kind
// written in JSON (a Web Bot Auth key directory) only its reader's
// checks count, with the grammar's size cut. A file
// the grammar finds to be HTML or XML gets no interpreter checks: its
// lines are not fields, and one error says so. Where Mobile-agent-server
// checks report a line, the less specific reports of the same line (an
// unknown field, a line without a colon) are left out.
func File(f *grammar.File, k *manifest.Kind, yaml bool) grammar.Diagnostics {
	var ds grammar.Diagnostics
	markup := false
	for _, d := range f.Diagnostics {
		if k.JSON && d.Code != grammar.CodeTooLarge {
			continue // a JSON document's lines are no fields; its reader says what is wrong
		}
		markup = markup || d.Code == "markup"
		if !yaml || !yamlNoise[d.Code] {
			ds = append(ds, d)
		}
	}
	if !markup {
		for _, l := range k.Linters() {
			ds = append(ds, l(f)...)
		}
	}
	ds = dropShadowed(ds)
	ds.Sort()
	return ds
}

// dropShadowed leaves out a generic diagnostic of a line that a
// Mobile-agent-server check reports more precisely.
func dropShadowed(ds grammar.Diagnostics) grammar.Diagnostics {
	agentLines := map[[2]string]bool{}
	for _, d := range ds {
		if strings.HasPrefix(d.Code, "agent-server-") {
			agentLines[[2]string{d.Filename, strconv.Itoa(d.Range.Start.Line)}] = true
		}
	}
	if len(agentLines) == 0 {
		return ds
	}
	out := ds[:0:0]
	for _, d := range ds {
		generic := d.Code == "unknown-field" || d.Code == "invalid-line" || d.Code == "no-colon"
		if generic && agentLines[[2]string{d.Filename, strconv.Itoa(d.Range.Start.Line)}] {
			continue
		}
		out = append(out, d)
	}
	return out
}

// ForProfile returns the diagnostics "sitetxt lint" reports for f (File's
// arguments) read under prof: every one that matters under prof, and
// with portability those that matter only under the other profiles too
// (a rule after a blank line, a second group for an agent, a misspelt
// field Google accepts), which are otherwise left out and counted. lint,
// summary, fetch, parse and sitetxt serve count through it, so one file
// gives one count.
func ForProfile(f *grammar.File, k *manifest.Kind, yaml bool, prof robots.Profile, portability bool) (ds grammar.Diagnostics, leftOut int) {
	if portability {
		return File(f, k, yaml), 0
	}
	return forProfiles(f, k, yaml, []robots.Profile{prof})
}

// ForProfiles returns the diagnostics that matter under any of profs: what
// lint reports for a file read under each of them, once.
func ForProfiles(f *grammar.File, k *manifest.Kind, yaml bool, profs []robots.Profile) grammar.Diagnostics {
	ds, _ := forProfiles(f, k, yaml, profs)
	return ds
}

func forProfiles(f *grammar.File, k *manifest.Kind, yaml bool, profs []robots.Profile) (ds grammar.Diagnostics, leftOut int) {
	for _, d := range File(f, k, yaml) {
		if !concernsAny(d, profs) {
			leftOut++
			continue
		}
		ds = append(ds, d)
	}
	return ds, leftOut
}

func concernsAny(d *grammar.Diagnostic, profs []robots.Profile) bool {
	for _, p := range profs {
		if robots.Concerns(d, p) {
			return true
		}
	}
	return false
}
