// Package validators runs the catalog validators of ../shared/validators
// (validate.mjs: the Project Open Data and Frictionless JSON Schemas, the
// DCAT-AP 3 SHACL shapes, schema.org 30.0 with Google's Dataset rules,
// Croissant 1.1's required properties) over documents a test wrote, in one
// node process, for the tests of every package that exports catalogs
// (datatxt, discover). A test that cannot run them skips, saying what is
// missing; ../shared/validators/README.md says how to install them.
package validators

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/shareddata"
)

// Dir holds the validators (../shared/validators seen from the module).
var Dir = shareddata.Path("validators")

// Format returns the validator's name for an export format: the federal
// data.json schema's "datajson-federal" when federal, else the format.
func Format(format string, federal bool) string {
	if format == "datajson" && federal {
		return "datajson-federal"
	}
	return format
}

// Find returns node and the validators' node_modules, or skips t, saying
// what is missing.
func Find(t testing.TB) (node, modules string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: catalog validators not run (apt-get install nodejs npm; see ../shared/validators/README.md)")
	}
	if _, err := os.Stat(filepath.Join(Dir, "validate.mjs")); err != nil {
		t.Skipf("validators not found at %s: catalog exports not validated", Dir)
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

// Doc is one document to validate: the validator's format name and the
// file it was written to.
type Doc struct {
	Format, File string
}

// Result is one line of validate.mjs --json: a document's verdict and
// each field it found missing or wrong.
type Result struct {
	File   string `json:"file"`
	Format string `json:"format"`
	Valid  bool   `json:"valid"`
	Errors []struct {
		Field   string `json:"field"`
		Message string `json:"message"`
	} `json:"errors"`
}

// Run runs validate.mjs once over docs (--json --batch, a list written in
// dir) and returns its verdicts by file, failing t when one is missing or
// the runner fails to run.
func Run(t testing.TB, node, modules, dir string, docs []Doc) map[string]Result {
	t.Helper()
	var list strings.Builder
	for _, d := range docs {
		fmt.Fprintf(&list, "%s\t%s\n", d.Format, d.File)
	}
	listFile := filepath.Join(dir, "validators-list.tsv")
	if err := os.WriteFile(listFile, []byte(list.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// validate.mjs runs only when named by its real path (it compares
	// argv[1] with its own URL), so symbolic links are resolved.
	script, err := filepath.EvalSymlinks(filepath.Join(Dir, "validate.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, script, "--json", "--batch", listFile)
	cmd.Env = append(os.Environ(), "VALIDATORS_NODE_MODULES="+modules)
	var errBuf bytes.Buffer
	cmd.Stderr = &errBuf
	stdout, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("validate.mjs: %v\n%s", err, errBuf.String())
	}
	out := map[string]Result{}
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var res Result
		if err := json.Unmarshal(sc.Bytes(), &res); err != nil {
			t.Fatalf("validator output %q: %v", sc.Text(), err)
		}
		out[res.File] = res
	}
	for _, d := range docs {
		if _, ok := out[d.File]; !ok {
			t.Errorf("the validator said nothing about %s; stderr:\n%s", d.File, errBuf.String())
		}
	}
	return out
}
