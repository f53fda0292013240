package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// updateDatasets rewrites the datasets command's golden files; it has its
// own name so it does not clash with the package's -update flag.
var updateDatasets = flag.Bool("update-datasets", false, "rewrite the datasets command's golden files")

const datatxtDir = "../../testdata/datatxt/"

// runDatasets runs sitetxt with args and returns stdout, stderr and the
// exit code.
func runDatasets(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	ios := &IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut, Getenv: func(string) string { return "" }}
	code := Run(ios, args)
	return out.String(), errOut.String(), code
}

func datasetsGolden(t *testing.T, name, got string) {
	t.Helper()
	file := filepath.Join(datatxtDir, "cli", name)
	if *updateDatasets {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update-datasets to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run go test -update-datasets to accept):\n--- got\n%s", file, got)
	}
}

func TestDatasetsOutputs(t *testing.T) {
	old := datasetsNow
	datasetsNow = func() time.Time { return time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC) }
	defer func() { datasetsNow = old }()
	for _, src := range []string{"list.yaml.txt", "records.txt"} {
		for _, format := range []string{"text", "json", "yaml", "csv", "schemaorg", "dcat", "datajson", "datapackage"} {
			t.Run(src+"/"+format, func(t *testing.T) {
				out, errOut, code := runDatasets(t, "", "datasets", "--base", "https://data.example.org/data.txt",
					"--agent", "mybot", "-o", format, datatxtDir+src)
				if code != ExitOK {
					t.Errorf("exit code %d, want 0; stderr:\n%s", code, errOut)
				}
				datasetsGolden(t, strings.TrimSuffix(src, ".txt")+"."+format, out)
			})
		}
	}
}

func TestDatasetsJSONShape(t *testing.T) {
	out, _, code := runDatasets(t, "", "datasets", "-o", "json", "--base", "https://data.example.org/data.txt", datatxtDir+"list.yaml.txt")
	if code != ExitOK {
		t.Fatalf("exit code %d", code)
	}
	var entries []map[string]any
	if err := json.Unmarshal([]byte(out), &entries); err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 {
		t.Fatalf("%d entries, want 3", len(entries))
	}
	for _, e := range entries {
		for _, k := range []string{"name", "path", "urls", "line", "allowed", "metadata"} {
			if _, ok := e[k]; !ok {
				t.Errorf("entry lacks %q: %v", k, e)
			}
		}
	}
	if got := entries[1]["urls"].([]any)[1]; got != "https://data.example.org/weather/daily.parquet" {
		t.Errorf("urls[1] = %v", got)
	}
}

func TestDatasetsExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		args      []string
		stdin     string
		code      int
		stdout    string // a substring of stdout
		stderr    string // a substring of stderr
		notStdout string
	}{
		{"valid", []string{"datasets", datatxtDir + "list.yaml.txt"}, "", ExitOK, "population-2020", "list.yaml.txt:2:9: warning: relative path resolved", ""},
		{"invalid entries", []string{"datasets", "--base", "https://x.org/data.txt", datatxtDir + "invalid.yaml.txt"}, "", ExitFindings,
			"computed-again", "invalid.yaml.txt:4:3: error: dataset entry \"no-path\" has no path", "no-path"},
		{"invalid records", []string{"datasets", "-o", "json", datatxtDir + "invalid-records.txt"}, "", ExitFindings,
			`"ok-renamed"`, "invalid-records.txt:1:1: error:", "orphan"},
		{"stdin", []string{"datasets", "-"}, "- path: a.csv\n  name: a\n", ExitOK, "a ", "<stdin>:1:9: warning:", ""},
		{"forced form", []string{"datasets", "--form", "records", "-"}, "- path: a.csv\n", ExitFindings, "0 datasets", "<stdin>:1:1: error:", ""},
		{"missing file", []string{"datasets", datatxtDir + "nope.txt"}, "", ExitError, "", "sitetxt: cannot read", ""},
		{"missing robots", []string{"datasets", "--robots", datatxtDir + "nope.txt", datatxtDir + "list.yaml.txt"}, "", ExitError, "", "sitetxt: cannot read", ""},
		{"bad output", []string{"datasets", "-o", "xml", datatxtDir + "list.yaml.txt"}, "", ExitError, "", `unknown output format "xml"`, ""},
		{"bad form", []string{"datasets", "--form", "toml", datatxtDir + "list.yaml.txt"}, "", ExitError, "", `unknown data.txt form "toml"`, ""},
		{"bad profile", []string{"datasets", "--profile", "bing", datatxtDir + "list.yaml.txt"}, "", ExitError, "", `unknown profile "bing"`, ""},
		{"relative base", []string{"datasets", "--base", "/data.txt", datatxtDir + "list.yaml.txt"}, "", ExitError, "", "is not an absolute URL", ""},
		{"no source", []string{"datasets"}, "", ExitError, "", "needs 1 argument", ""},
		{"empty package", []string{"datasets", "-o", "datapackage", "-"}, "# nothing\n", ExitFindings, "", "at least one resource", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runDatasets(t, tc.stdin, tc.args...)
			if code != tc.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errOut)
			}
			if !strings.Contains(out, tc.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tc.stdout, out)
			}
			if !strings.Contains(errOut, tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, errOut)
			}
			if tc.notStdout != "" && strings.Contains(out, tc.notStdout) {
				t.Errorf("stdout has %q:\n%s", tc.notStdout, out)
			}
		})
	}
}
