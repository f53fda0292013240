package datatxt

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/validators"
)

// validatorRun is one export checked by the real validators.
type validatorRun struct {
	file     string // the data.txt
	format   string // our format name
	vformat  string // the validator's format name
	out      string // where the export was written
	probs    Problems
	datasets int
}

// impliedFields are validator fields that follow from another missing
// field: POD's schema reports a distribution without a mediaType also as
// "distribution: must match a schema in anyOf".
var impliedFields = map[string][]string{
	"mediaType":   {"distribution"},
	"downloadURL": {"distribution"},
	"format":      {"distribution"},
}

// TestValidators exports every corpus and testdata file in every catalog
// format and runs the real validators (node validate.mjs --batch, one
// process for all files) over the documents: each must be valid, or each
// field the validator says is missing or wrong must be one that the
// export reported as an error (Problem.Field). A second, smaller run
// without --base, publisher or contact checks that what only flags can
// give is reported, never invented.
func TestValidators(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: runs the node validators over 650 documents (about 10 s)")
	}
	node, modules := validators.Find(t)
	inputs, local := validatorInputs(t)
	dir := t.TempDir()
	runs := exportForValidators(t, dir, inputs, local)
	docs := make([]validators.Doc, len(runs))
	for i, r := range runs {
		docs[i] = validators.Doc{Format: r.vformat, File: r.out}
	}
	checkValidated(t, runs, validators.Run(t, node, modules, dir, docs))
}

// validatorInputs returns the data.txt files to export: the corpus (when
// present) and testdata's, sorted, and testdata's alone.
func validatorInputs(t *testing.T) (inputs, local []string) {
	corpus, _ := filepath.Glob(filepath.Join(corpusDir, "*.txt"))
	if len(corpus) == 0 {
		t.Logf("corpus not found at %s: only testdata files are exported", corpusDir)
	}
	inputs = append(inputs, corpus...)
	local, err := filepath.Glob("../testdata/datatxt/*.txt")
	if err != nil || len(local) == 0 {
		t.Fatalf("no testdata files: %v", err)
	}
	inputs = append(inputs, local...)
	sort.Strings(inputs)
	return inputs, local
}

// exportForValidators writes into dir every input in every catalog format
// with a base, publisher and contact ("full"), and testdata's files also
// as federal data.json ("federal") and without any flag ("bare").
func exportForValidators(t *testing.T, dir string, inputs, local []string) []*validatorRun {
	full := ExportOptions{Publisher: "Example Publisher", ContactName: "Data Team", ContactEmail: "data@example.org"}
	federal := full
	federal.BureauCode, federal.ProgramCode = []string{"015:11"}, []string{"015:001"}
	var runs []*validatorRun
	addCatalog := func(file string, c *Catalog, format string, opts ExportOptions, tag string) {
		out := filepath.Join(dir, fmt.Sprintf("%s.%s.%s.json", strings.ReplaceAll(file, "/", "_"), tag, format))
		var buf bytes.Buffer
		probs, err := Export(&buf, c, format, opts)
		if err != nil {
			t.Fatalf("Export(%s, %s): %v", file, format, err)
		}
		if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, &validatorRun{file: file, format: format, vformat: validators.Format(format, opts.Federal()), out: out, probs: probs, datasets: len(c.Entries)})
	}
	add := func(file, format string, base string, opts ExportOptions, tag string) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		addCatalog(filepath.Base(file), Parse(filepath.Base(file), src, Options{Base: base}), format, opts, tag)
	}
	// The pins boards of testdata, followed on disk with and without the
	// URL they are published at.
	for _, board := range []string{"v0", "v1"} {
		for _, tc := range []struct {
			base, tag string
			opts      ExportOptions
		}{{"https://data.example.org/" + board + "/", "full", full}, {"", "bare", ExportOptions{}}} {
			c, err := DiscoverDir(context.Background(), filepath.Join(boardsDir, board), Options{Base: tc.base}, BoardLimits{})
			if err != nil {
				t.Fatal(err)
			}
			for _, format := range CatalogFormats {
				addCatalog("board-"+board, c, format, tc.opts, tc.tag)
			}
		}
	}
	for _, f := range inputs {
		base := "https://data.example.org/data.txt"
		if strings.HasPrefix(f, corpusDir) {
			base = corpusBase
		}
		for _, format := range CatalogFormats {
			add(f, format, base, full, "full")
		}
	}
	for _, f := range local {
		add(f, "datajson", "https://data.example.org/data.txt", federal, "federal")
		for _, format := range CatalogFormats {
			add(f, format, "", ExportOptions{}, "bare")
		}
	}
	return runs
}

// validatorTally counts the documents of one format and kind of export.
type validatorTally struct{ files, valid, explained, datasets, validDatasets int }

// checkValidated reads the validators' verdicts: each invalid document's
// every failing field reported by the export; and logs the tally per
// format.
func checkValidated(t *testing.T, runs []*validatorRun, results map[string]validators.Result) {
	tallies := map[string]*validatorTally{}
	for _, r := range runs {
		res, ok := results[r.out]
		if !ok {
			continue // Run reported it
		}
		tag := strings.Split(filepath.Base(r.out), ".")
		key := r.vformat + " (" + tag[len(tag)-3] + ")"
		if tallies[key] == nil {
			tallies[key] = &validatorTally{}
		}
		checkVerdict(t, r, res, tallies[key])
	}
	names := make([]string, 0, len(tallies))
	for k := range tallies {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		tl := tallies[k]
		t.Logf("%-28s %3d/%3d files valid, %3d more with every failure reported; %3d/%3d datasets with nothing missing",
			k, tl.valid, tl.files, tl.explained, tl.validDatasets, tl.datasets)
	}
}

// checkVerdict counts one document in tl and, when it is invalid, fails
// for each field the validator names that the export did not report.
func checkVerdict(t *testing.T, r *validatorRun, res validators.Result, tl *validatorTally) {
	tl.files++
	tl.datasets += r.datasets
	if res.Valid {
		tl.valid++
		tl.validDatasets += r.datasets
		return
	}
	reported := map[string]bool{}
	badDatasets := map[string]bool{}
	for _, p := range r.probs {
		if p.Severity.String() == "error" {
			reported[p.Field] = true
			for _, f := range impliedFields[p.Field] {
				reported[f] = true
			}
			badDatasets[p.Dataset] = true
		}
	}
	tl.validDatasets += max(0, r.datasets-len(badDatasets))
	explained := true
	for _, e := range res.Errors {
		if !reported[e.Field] {
			explained = false
			t.Errorf("%s -o %s: the validator says %s: %s; the export reported no missing %q (reported: %v)",
				filepath.Base(r.file), r.format, e.Field, e.Message, e.Field, keys(reported))
		}
	}
	if explained {
		tl.explained++
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
