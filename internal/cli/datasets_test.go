package cli

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

const datatxtDir = "testdata/datatxt/"

func TestDatasetsOutputs(t *testing.T) {
	chdirRoot(t)
	for _, src := range []string{"list.yaml.txt", "records.txt"} {
		for _, format := range []string{"text", "json", "yaml", "csv", "schemaorg", "dcat", "datajson", "datapackage", "croissant"} {
			t.Run(src+"/"+format, func(t *testing.T) {
				out, errOut, code := runCLI(t, "", "datasets", "--base", "https://data.example.org/data.txt",
					"--agent", "mybot", "--publisher", "Example Org", "--contact", "Data Team", "--contact-email", "data@example.org",
					"-o", format, datatxtDir+src)
				name := "datasets/" + strings.TrimSuffix(src, ".txt") + "." + format
				golden(t, name, out)
				// The exit code and what was reported: 1 when a field the
				// format requires is missing, each named on stderr.
				golden(t, name+".stderr", fmt.Sprintf("exit %d\n%s", code, errOut))
				if code != ExitOK && !strings.Contains(errOut, "error:") {
					t.Errorf("exit code %d with no error reported:\n%s", code, errOut)
				}
			})
		}
	}
}

func TestDatasetsJSONShape(t *testing.T) {
	chdirRoot(t)
	out, _, code := runCLI(t, "", "datasets", "-o", "json", "--base", "https://data.example.org/data.txt", datatxtDir+"list.yaml.txt")
	if code != ExitOK {
		t.Fatalf("exit code %d", code)
	}
	entries := jsonLines(t, out)
	if len(entries) != 3 {
		t.Fatalf("%d entries, want 3", len(entries))
	}
	for _, e := range entries {
		for _, k := range []string{"name", "path", "urls", "line", "column", "allowed", "metadata", "file"} {
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
	chdirRoot(t)
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
		{"both stdin", []string{"datasets", "--robots", "-", "-"}, "", ExitError, "", "standard input can be read once", ""},
		{"no source", []string{"datasets"}, "", ExitError, "", "needs at least one SOURCE", ""},
		{"empty package", []string{"datasets", "-o", "datapackage", "-"}, "# nothing\n", ExitFindings, "", "no resources", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.stdin, tc.args...)
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

// TestDatasetsAccess decides access through robots.Compile: the data.txt's
// own records, then the site's robots.txt (--robots), under --profile.
func TestDatasetsAccess(t *testing.T) {
	chdirRoot(t)
	base := "https://data.example.org/data.txt"
	for _, tc := range []struct {
		name string
		args []string
		want []any // allowed per entry
	}{
		{"yaml, no policy", []string{"--base", base, datatxtDir + "list.yaml.txt"}, []any{nil, nil, nil}},
		{"yaml, site robots.txt", []string{"--base", base, "--robots", datatxtDir + "site/robots.txt", datatxtDir + "list.yaml.txt"},
			[]any{true, false, true}},
		{"records, own rules", []string{"--base", base, "--agent", "mybot", datatxtDir + "records.txt"}, []any{true, false, true}},
		{"records, denied agent", []string{"--base", base, "--agent", "Archiver/2.1", datatxtDir + "records.txt"}, []any{false, false, false}},
		{"records, both", []string{"--base", base, "--robots", datatxtDir + "site/robots.txt", datatxtDir + "records.txt"}, []any{true, false, false}},
		{"records, no base", []string{"--agent", "mybot", datatxtDir + "records.txt"}, []any{true, false, true}},
		{"records, draft profile substring match", []string{"--base", base, "--profile", "draft", "--agent", "archiver", datatxtDir + "records.txt"},
			[]any{false, false, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, "", append([]string{"datasets", "-o", "json"}, tc.args...)...)
			if code != ExitOK {
				t.Fatalf("exit code %d\n%s", code, errOut)
			}
			entries := jsonLines(t, out)
			var got []any
			for _, e := range entries {
				got = append(got, e["allowed"])
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("allowed = %v, want %v", got, tc.want)
			}
		})
	}
}

// jsonLines decodes -o json output: one object per line.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q is not a JSON object: %v", l, err)
		}
		objs = append(objs, m)
	}
	return objs
}
