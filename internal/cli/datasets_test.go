package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
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
	entries := decodeJSONLines(t, out)
	if len(entries) != 3 {
		t.Fatalf("%d entries, want 3", len(entries))
	}
	for _, e := range entries {
		for _, k := range []string{"name", "paths", "urls", "line", "column", "allowed", "metadata", "file"} {
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
			entries := decodeJSONLines(t, out)
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

// decodeJSONLines decodes -o json output: one object per line.
func decodeJSONLines(t *testing.T, out string) []map[string]any {
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

// TestDatasetsBoardsAndSources discovers both pins test boards over a
// loopback server and writes them, with a local file and a failing
// source, as one catalog: the failure is reported (exit 2) and the other
// sources still come out, each dataset with its own source.
func TestDatasetsBoardsAndSources(t *testing.T) {
	chdirRoot(t)
	srv := httptest.NewServer(http.FileServer(http.Dir("testdata/datatxt/boards")))
	defer srv.Close()
	list := srv.URL + "/v1/\n# a comment\n\n" + datatxtDir + "list.yaml.txt\n"
	out, errOut, code := runCLI(t, list, "datasets", "--no-cache", "-o", "json", "--list", "-",
		srv.URL+"/v0/", datatxtDir+"nope.txt")
	if code != ExitError {
		t.Errorf("exit %d, want %d (a source could not be read)", code, ExitError)
	}
	if !strings.Contains(errOut, "sitetxt: cannot read "+datatxtDir+"nope.txt") {
		t.Errorf("stderr does not name the failing source:\n%s", errOut)
	}
	got := map[string]string{}
	for _, e := range decodeJSONLines(t, out) {
		got[e["name"].(string)] = strings.TrimPrefix(e["file"].(string), srv.URL)
	}
	want := map[string]string{
		"mtcars": "/v0/mtcars/data.txt", "iris": "/v0/data.txt", "missing": "/v0/data.txt", "mtcars-again": "/v0/mtcars/data.txt",
		"mtcars-csv":      "/v1/mtcars-csv/20240105T101500Z-4f1a2/data.txt",
		"mtcars-json":     "/v1/mtcars-json/20240106T080000Z-9c3d0/data.txt",
		"population-2020": datatxtDir + "list.yaml.txt", "weather-daily": datatxtDir + "list.yaml.txt", "roads": datatxtDir + "list.yaml.txt",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("datasets and their sources =\n%v\nwant\n%v\nstderr:\n%s", got, want, errOut)
	}
	// One catalog document for all of them, valid Frictionless.
	out, errOut, code = runCLI(t, "", "datasets", "--no-cache", "-o", "datapackage", srv.URL+"/v0/", srv.URL+"/v1/")
	if code != ExitOK {
		t.Errorf("datapackage of two boards: exit %d\n%s", code, errOut)
	}
	for _, want := range []string{srv.URL + "/v0/mtcars/data.rds", srv.URL + "/v1/mtcars-json/20240106T080000Z-9c3d0/mtcars-json.json", `"bytes": 30`} {
		if !strings.Contains(out, want) {
			t.Errorf("datapackage lacks %s:\n%s", want, out)
		}
	}
	// --no-follow exports the index as written: the directory is no file.
	_, errOut, _ = runCLI(t, "", "datasets", "--no-cache", "--no-follow", "-o", "dcat", "--publisher", "P", srv.URL+"/v0/data.txt")
	if !strings.Contains(errOut, `path "mtcars" is a pins directory`) {
		t.Errorf("--no-follow: the directory entry is not reported:\n%s", errOut)
	}
}

// TestDatasetsMissingFields: without --publisher and --contact, data.json
// names what is missing per dataset and exits 1; nothing is invented.
func TestDatasetsMissingFields(t *testing.T) {
	chdirRoot(t)
	out, errOut, code := runCLI(t, "", "datasets", "-o", "datajson", "--base", "https://data.example.org/data.txt", datatxtDir+"list.yaml.txt")
	if code != ExitFindings {
		t.Errorf("exit %d, want %d", code, ExitFindings)
	}
	for _, want := range []string{
		`list.yaml.txt:2:3: error: datajson: dataset "Population by county, 2020 census": no publisher`,
		`list.yaml.txt:2:3: error: datajson: dataset "Population by county, 2020 census": no contactPoint`,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	for _, bad := range []string{"unknown", "placeholder", "example.invalid", `"publisher"`, `"contactPoint"`} {
		if strings.Contains(out, bad) {
			t.Errorf("output has %q:\n%s", bad, out)
		}
	}
	if _, errOut, code := runCLI(t, "", "datasets", "-o", "datajson", "--bureau-code", "015:11", datatxtDir+"list.yaml.txt"); code != ExitError || !strings.Contains(errOut, "go together") {
		t.Errorf("--bureau-code alone: exit %d, stderr %s", code, errOut)
	}
}

// TestDatasetsProbe: --probe asks each file's server what it serves,
// honouring the site's robots.txt for --agent; what it learns is exported
// and broken links are errors.
func TestDatasetsProbe(t *testing.T) {
	var mu sync.Mutex
	asked := map[string]int{}
	mux := http.NewServeMux()
	mux.HandleFunc("/data.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("- path: a.csv\n  name: a\n- path: private/b.csv\n  name: b\n- path: gone.csv\n  name: gone\n"))
	})
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: mybot\nDisallow: /private/\n"))
	})
	mux.HandleFunc("/a.csv", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		w.Header().Set("Content-Length", "42")
		w.Header().Set("Last-Modified", "Mon, 04 Mar 2024 05:06:07 GMT")
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked[r.URL.Path]++
		mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	defer srv.Close()
	out, errOut, code := runCLI(t, "", "datasets", "--no-cache", "--probe", "--probe-delay", "0", "--agent", "mybot",
		"-o", "datapackage", srv.URL+"/")
	if code != ExitFindings {
		t.Errorf("exit %d, want 1 (a broken link)\n%s", code, errOut)
	}
	if asked["/private/b.csv"] != 0 || asked["/a.csv"] != 1 {
		t.Errorf("requests: %v; robots.txt disallows /private/ for mybot", asked)
	}
	for _, want := range []string{"error: " + srv.URL + "/gone.csv: HTTP 404", "warning: " + srv.URL + "/private/b.csv not probed: robots.txt disallows it for mybot"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if !strings.Contains(out, `"bytes": 42`) {
		t.Errorf("the probed size is not exported:\n%s", out)
	}
}

// TestDatasetsTextSources: with entries from several files, the text
// table says where each was listed.
func TestDatasetsTextSources(t *testing.T) {
	chdirRoot(t)
	out, _, _ := runCLI(t, "", "datasets", "--base", "https://data.example.org/data.txt", datatxtDir+"list.yaml.txt")
	if strings.Contains(out, "LISTED IN") {
		t.Errorf("one source: the table has a LISTED IN column:\n%s", out)
	}
	out, _, _ = runCLI(t, "", "datasets", datatxtDir+"list.yaml.txt", datatxtDir+"records.txt")
	golden(t, "datasets/two-sources.text", out)
}

// TestExportsNeedAbsoluteURLs: every catalog export of a data.txt read
// from a file without --base says what it cannot write and exits 1,
// datapackage included (it wrote relative paths with exit 0), and what a
// catalog's validator rejects (data.json without mediaType) is named on
// standard error (issue 35, item 6).
func TestExportsNeedAbsoluteURLs(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "data.txt")
	if err := os.WriteFile(file, []byte("- path: a.csv\n  name: a\n  title: A\n  description: A dataset of a few rows, described at some length for the catalogs.\n- path: b.weird\n  name: b\n  title: B\n  description: Another dataset of a few rows, described at some length for the catalogs.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"datapackage", "dcat", "schemaorg", "datajson", "croissant"} {
		out, errOut, code := runCLI(t, "", "datasets", "-o", f, "--publisher", "P", "--contact", "C", "--contact-email", "c@example.org", file)
		if code != ExitFindings || out == "" || !strings.Contains(errOut, "error: "+f+": ") || !strings.Contains(errOut, "--base") {
			t.Errorf("datasets -o %s without --base = exit %d, stderr %q; want exit 1, the document, and an error pointing to --base", f, code, errOut)
		}
	}
	// DCAT: a file read from disk gets its IRIs from --base.
	out, errOut, code := runCLI(t, "", "datasets", "-o", "dcat", "--base", "https://example.org/d/data.txt", "--publisher", "P", "--contact", "C", "--contact-email", "c@example.org", file)
	if !strings.Contains(out, `"@id": "https://example.org/d/data.txt#a"`) || !strings.Contains(out, `"@id": "https://example.org/d/a.csv"`) || strings.Contains(errOut, "no IRI") {
		t.Errorf("datasets -o dcat --base = exit %d, stderr %q; want the dataset's IRI and its file's from --base:\n%s", code, errOut, out)
	}
	_, errOut, code = runCLI(t, "", "datasets", "-o", "datajson", "--base", "https://example.org/data.txt", "--publisher", "P", "--contact", "C", "--contact-email", "c@example.org", file)
	if code != ExitFindings || !strings.Contains(errOut, "no mediaType in distribution https://example.org/b.weird") || strings.Contains(errOut, "a.csv") {
		t.Errorf("datasets -o datajson = exit %d, stderr %q; want exit 1 naming b.weird's missing mediaType", code, errOut)
	}
}
