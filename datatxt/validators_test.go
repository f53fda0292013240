package datatxt

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/shareddata"
)

// validatorsDir holds the catalog validators (../shared/validators seen
// from the repository root); README.md there says how to install them.
var validatorsDir = shareddata.Path("validators")

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
	node, modules := findValidators(t)
	inputs, local := validatorInputs(t)
	dir := t.TempDir()
	runs := exportForValidators(t, dir, inputs, local)
	stdout, stderr := runValidators(t, node, modules, dir, runs)
	checkValidated(t, runs, stdout, stderr)
}

// findValidators returns node and the validators' node_modules, or skips
// the test, saying what is missing.
func findValidators(t *testing.T) (node, modules string) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: catalog validators not run (apt-get install nodejs npm; see ../shared/validators/README.md)")
	}
	if _, err := os.Stat(filepath.Join(validatorsDir, "validate.mjs")); err != nil {
		t.Skipf("validators not found at %s: catalog exports not validated", validatorsDir)
	}
	modules = os.Getenv("VALIDATORS_NODE_MODULES")
	if modules == "" {
		modules = filepath.Join(os.TempDir(), "catalog-validators", "node_modules")
	}
	if _, err := os.Stat(filepath.Join(modules, "ajv", "package.json")); err != nil {
		t.Skipf("the validators' npm packages are not installed at %s (set VALIDATORS_NODE_MODULES; see ../shared/validators/README.md)", modules)
	}
	return node, modules
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
		vf := format
		if format == "datajson" && opts.Federal() {
			vf = "datajson-federal"
		}
		runs = append(runs, &validatorRun{file: file, format: format, vformat: vf, out: out, probs: probs, datasets: len(c.Entries)})
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

// runValidators runs validate.mjs once over every export listed in a file
// in dir and returns its JSON Lines and its standard error.
func runValidators(t *testing.T, node, modules, dir string, runs []*validatorRun) (stdout []byte, stderr string) {
	var list strings.Builder
	for _, r := range runs {
		fmt.Fprintf(&list, "%s\t%s\n", r.vformat, r.out)
	}
	listFile := filepath.Join(dir, "list.tsv")
	if err := os.WriteFile(listFile, []byte(list.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// validate.mjs runs only when named by its real path (it compares
	// argv[1] with its own URL), so symbolic links are resolved.
	script, err := filepath.EvalSymlinks(filepath.Join(validatorsDir, "validate.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, script, "--json", "--batch", listFile)
	cmd.Env = append(os.Environ(), "VALIDATORS_NODE_MODULES="+modules)
	var errBuf bytes.Buffer
	cmd.Stderr = &errBuf
	stdout, err = cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("validate.mjs: %v\n%s", err, errBuf.String())
	}
	return stdout, errBuf.String()
}

// validatorResult is one line of validate.mjs --json.
type validatorResult struct {
	File   string `json:"file"`
	Format string `json:"format"`
	Valid  bool   `json:"valid"`
	Errors []struct {
		Field   string `json:"field"`
		Message string `json:"message"`
	} `json:"errors"`
}

// validatorTally counts the documents of one format and kind of export.
type validatorTally struct{ files, valid, explained, datasets, validDatasets int }

// checkValidated reads the validators' verdicts: every document answered,
// each invalid one's every failing field reported by the export; and
// logs the tally per format.
func checkValidated(t *testing.T, runs []*validatorRun, stdout []byte, stderr string) {
	byOut := map[string]*validatorRun{}
	for _, r := range runs {
		byOut[r.out] = r
	}
	tallies := map[string]*validatorTally{}
	seen := 0
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var res validatorResult
		if err := json.Unmarshal(sc.Bytes(), &res); err != nil {
			t.Fatalf("validator output %q: %v", sc.Text(), err)
		}
		r := byOut[res.File]
		if r == nil {
			t.Fatalf("validator reported on unknown file %s", res.File)
		}
		seen++
		tag := strings.Split(filepath.Base(r.out), ".")
		key := r.vformat + " (" + tag[len(tag)-3] + ")"
		if tallies[key] == nil {
			tallies[key] = &validatorTally{}
		}
		checkVerdict(t, r, res, tallies[key])
	}
	if seen != len(runs) {
		t.Errorf("validator reported on %d of %d documents; stderr:\n%s", seen, len(runs), stderr)
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
func checkVerdict(t *testing.T, r *validatorRun, res validatorResult, tl *validatorTally) {
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
