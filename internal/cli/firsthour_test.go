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
	"testing"
)

// TestNothingBeforeAnError: a command that could read none of its sources
// prints the error and exits 2 with nothing on standard output: no CSV
// header, no totals of zeros, no empty page (issue 24, item 5).
func TestNothingBeforeAnError(t *testing.T) {
	chdirRoot(t)
	const missing = "/nonexistent-sitetxt"
	for _, tt := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"lint", missing}},
		{"", []string{"lint", "-o", "csv", missing}},
		{"", []string{"lint", "-o", "json", missing, missing + "2"}},
		{"", []string{"audit", "-o", "html", missing}},
		{"", []string{"check", "-o", "csv", "--urls", missing, "testdata/robots/fict.org.txt"}},
		{"", []string{"check", "--urls", missing}},
		{"", []string{"diff", "--urls", missing, "testdata/robots/fict.org.txt"}},
		{"", []string{"matrix", "-o", "csv", "--urls", missing, "testdata/robots/fict.org.txt"}},
		{"", []string{"audit", "--summary", "-"}},
		{"", []string{"audit", "--summary", "-o", "csv", t.TempDir()}},
	} {
		out, errOut, code := runCLI(t, tt.stdin, tt.args...)
		if code != ExitError || out != "" || !strings.HasPrefix(errOut, "sitetxt: ") {
			t.Errorf("sitetxt %s = exit %d, stdout %q, stderr %q; want exit 2, the error, nothing on stdout", strings.Join(tt.args, " "), code, out, errOut)
		}
	}
	// One source read of two: its report, then the error.
	out, errOut, code := runCLI(t, "", "lint", "testdata/robots/fict.org.txt", missing)
	if code != ExitError || out != "0 errors, 0 warnings in 1 source\n" || !strings.Contains(errOut, "cannot read "+missing) {
		t.Errorf("lint fict.org.txt %s = exit %d, %q, %q; want the one source's totals and the error", missing, code, out, errOut)
	}
}

// TestOddInputWarnedEverywhere: binary data and an HTML page get the same
// warning from every command that reads a robots.txt, summary and parse
// included (issue 24, item 4).
func TestOddInputWarnedEverywhere(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "random.bin")
	b := make([]byte, 3000)
	for i := range b {
		b[i] = byte(i*7919 + i*i*31)
	}
	html := filepath.Join(dir, "page.html")
	if err := os.WriteFile(bin, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(html, []byte("<!DOCTYPE html>\n<html><body>Not found</body></html>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for file, what := range map[string]string{bin: "binary data", html: "an HTML document"} {
		want := "sitetxt: warning: " + file + ": input looks like " + what + ", not a plain-text manifest; it is read as one all the same, and gives no rules\n"
		for _, args := range [][]string{
			{"check", file, "/x"}, {"diff", file, "/x"}, {"matrix", file, "/x"}, {"agents", file, "/x"},
			{"explain", file}, {"summary", file}, {"parse", file}, {"lint", file}, {"audit", file},
		} {
			_, errOut, _ := runCLI(t, "", args...)
			if strings.Count(errOut, want) != 1 {
				t.Errorf("sitetxt %s: stderr %q, want the warning %q once", strings.Join(args, " "), errOut, want)
			}
		}
	}
}

// TestOneAgentEverywhere: every command that answers for one agent
// refuses a second --agent the same way, before it reads anything, and
// those that answer for many URLs name the agent once (issue 24, item 7).
func TestOneAgentEverywhere(t *testing.T) {
	chdirRoot(t)
	for _, args := range [][]string{
		{"check", "testdata/robots/fict.org.txt", "/x"},
		{"agents", "testdata/mobileagent/fict.org.txt", "/x"},
		{"diff", "testdata/robots/fict.org.txt", "/x"},
		{"explain", "testdata/robots/fict.org.txt"},
		{"datasets", "testdata/datatxt/records.txt"},
	} {
		cmd := args[0]
		full := append([]string{cmd, "--agent", "a", "--agent", "b"}, args[1:]...)
		out, errOut, code := runCLI(t, "", full...)
		want := "sitetxt: " + cmd + " answers for one agent, and --agent was given 2 times (sitetxt matrix answers for several)\n"
		if code != ExitError || out != "" || errOut != want {
			t.Errorf("sitetxt %s = exit %d, %q, %q; want exit 2, %q", strings.Join(full, " "), code, out, errOut, want)
		}
	}
	for _, args := range [][]string{
		{"check", "--agent", "Googlebot", "testdata/robots/fict.org.txt", "/a", "/b"},
		{"agents", "--agent", "Googlebot", "testdata/mobileagent/fict.org.txt", "/a", "/b"},
		{"datasets", "--agent", "Googlebot", "testdata/datatxt/records.txt"},
	} {
		out, _, _ := runCLI(t, "", args...)
		if !strings.HasPrefix(out, "for Googlebot under rfc9309:\n") || strings.Count(out, "Googlebot") != 1 {
			t.Errorf("sitetxt %s = %q; want one header naming Googlebot", strings.Join(args, " "), out)
		}
	}
}

// TestLocalBoardsAreBoards: a pins board on disk is followed exactly as
// the same board fetched: a data.txt, a board directory and a _pins.yaml
// list the same datasets with the same URLs once --base says where the
// board is published (issue 24, item 6).
func TestLocalBoardsAreBoards(t *testing.T) {
	chdirRoot(t)
	srv := httptest.NewServer(http.FileServer(http.Dir("testdata/datatxt/boards")))
	defer srv.Close()
	for _, tt := range []struct{ fetched, local, base string }{
		{srv.URL + "/v0/data.txt", "testdata/datatxt/boards/v0/data.txt", srv.URL + "/v0/data.txt"},
		{srv.URL + "/v0/", "testdata/datatxt/boards/v0", srv.URL + "/v0/data.txt"},
		{srv.URL + "/v1/", "testdata/datatxt/boards/v1", srv.URL + "/v1/_pins.yaml"},
		{srv.URL + "/v1/_pins.yaml", "testdata/datatxt/boards/v1/_pins.yaml", srv.URL + "/v1/_pins.yaml"},
	} {
		want, wantErr, wantCode := runCLI(t, "", "datasets", "--no-cache", "-o", "json", tt.fetched)
		got, gotErr, code := runCLI(t, "", "datasets", "-o", "json", "--base", tt.base, tt.local)
		if code != wantCode || got != want || want == "" {
			t.Errorf("datasets --base %s %s = exit %d\n%s%s\nwant, as fetched from %s: exit %d\n%s%s", tt.base, tt.local, code, got, gotErr, tt.fetched, wantCode, want, wantErr)
		}
	}
	out, errOut, code := runCLI(t, "", "datasets", "testdata/datatxt/boards/v0/data.txt")
	if code != ExitOK || !strings.Contains(out, "/mtcars/data.rds") || !strings.Contains(out, "testdata/datatxt/boards/v0/mtcars/data.txt") {
		t.Errorf("datasets testdata/datatxt/boards/v0/data.txt = exit %d\n%s%s\nwant mtcars' own files, listed in mtcars/data.txt", code, out, errOut)
	}
	out, errOut, code = runCLI(t, "", "datasets", "--max-fetches", "1", "testdata/datatxt/boards/v0")
	if code != ExitOK || strings.Contains(out, "data.rds") || !strings.Contains(errOut, "fetch limit reached (1 file)") {
		t.Errorf("datasets --max-fetches 1 on disk = exit %d\n%s%s\nwant the index only and the limit said", code, out, errOut)
	}
	out, errOut, code = runCLI(t, "", "datasets", "testdata/datatxt")
	if code != ExitError || out != "" || !strings.Contains(errOut, "neither data.txt nor _pins.yaml") {
		t.Errorf("datasets testdata/datatxt = exit %d, %q, %q; want exit 2: not a board", code, out, errOut)
	}
}

// TestDatasetsBasePerSource: --base works with several SOURCEs, one per
// SOURCE in order or one directory URL they are under (issue 24, item 6).
func TestDatasetsBasePerSource(t *testing.T) {
	chdirRoot(t)
	urls := func(out string) map[string]string {
		got := map[string]string{}
		for _, e := range decodeJSONLines(t, out) {
			got[e["name"].(string)+"@"+e["file"].(string)] = e["urls"].([]any)[0].(string)
		}
		return got
	}
	out, errOut, code := runCLI(t, "", "datasets", "-o", "json", "--base", "https://a.example/data.txt", "--base", "https://b.example/d/data.txt",
		datatxtDir+"list.yaml.txt", datatxtDir+"records.txt")
	want := map[string]string{
		"population-2020@https://a.example/data.txt":   "https://a.example/census/population-2020.csv",
		"weather-daily@https://a.example/data.txt":     "https://a.example/weather/daily.csv",
		"roads@https://a.example/data.txt":             "https://mirror.example.net/archive/roads.geojson",
		"population-2020@https://b.example/d/data.txt": "https://b.example/census/population-2020.csv", // "Path: /census/..."
		"salaries@https://b.example/d/data.txt":        "https://b.example/private/salaries.csv",
		"weather-daily@https://b.example/d/data.txt":   "https://b.example/d/weather/daily.csv",
	}
	if got := urls(out); code != ExitOK || !reflect.DeepEqual(got, want) {
		t.Errorf("datasets with two --base = exit %d %v\n%s\nwant %v", code, got, errOut, want)
	}
	out, errOut, code = runCLI(t, "", "datasets", "-o", "json", "--base", "https://c.example/site/", datatxtDir+"records.txt", "testdata/datatxt/boards/v0")
	got := urls(out)
	for k, v := range map[string]string{
		"salaries@https://c.example/site/" + datatxtDir + "records.txt":                  "https://c.example/private/salaries.csv",
		"iris@https://c.example/site/testdata/datatxt/boards/v0/data.txt":                "https://c.example/site/testdata/datatxt/boards/v0/iris/data.csv",
		"mtcars@https://c.example/site/testdata/datatxt/boards/v0/mtcars/data.txt":       "https://c.example/site/testdata/datatxt/boards/v0/mtcars/data.csv",
		"mtcars-again@https://c.example/site/testdata/datatxt/boards/v0/mtcars/data.txt": "https://c.example/site/testdata/datatxt/boards/v0/mtcars/data.csv",
		"weather-daily@https://c.example/site/" + datatxtDir + "records.txt":             "https://c.example/site/" + datatxtDir + "weather/daily.csv",
	} {
		if got[k] != v {
			t.Errorf("datasets --base https://c.example/site/ (a directory): %s has %q, want %q (exit %d)\n%s", k, got[k], v, code, errOut)
		}
	}
	for _, args := range [][]string{
		{"--base", "https://a.example/data.txt", datatxtDir + "list.yaml.txt", datatxtDir + "records.txt"},
		{"--base", "https://a.example/", "/tmp/data.txt", datatxtDir + "records.txt"},
		{"--base", "https://a.example/", "-", datatxtDir + "records.txt"},
		{"--base", "x/", datatxtDir + "records.txt"},
	} {
		out, errOut, code := runCLI(t, "", append([]string{"datasets"}, args...)...)
		if code != ExitError || out != "" || !strings.HasPrefix(errOut, "sitetxt: --base") {
			t.Errorf("datasets %s = exit %d, %q, %q; want exit 2 naming --base", strings.Join(args, " "), code, out, errOut)
		}
	}
}

// TestDatasetsRobotsOwnSite: --robots judges only the URLs on the
// robots.txt's own site; a robots.txt file, which has no URL, is refused
// for SOURCEs on several sites (issue 24, item 6).
func TestDatasetsRobotsOwnSite(t *testing.T) {
	chdirRoot(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow: /census/\n"))
	}))
	defer srv.Close()
	allowed := func(args ...string) []any {
		out, errOut, code := runCLI(t, "", append([]string{"datasets", "--no-cache", "-o", "json"}, args...)...)
		if code != ExitOK {
			t.Fatalf("datasets %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
		}
		var got []any
		for _, e := range decodeJSONLines(t, out) {
			got = append(got, e["allowed"])
		}
		return got
	}
	// The robots.txt of srv says nothing about data.example.org.
	if got := allowed("--robots", srv.URL+"/robots.txt", "--base", "https://data.example.org/data.txt", datatxtDir+"list.yaml.txt"); !reflect.DeepEqual(got, []any{true, true, true}) {
		t.Errorf("--robots of another site: allowed = %v, want every entry allowed (not judged by it)", got)
	}
	if got := allowed("--robots", srv.URL+"/robots.txt", "--base", srv.URL+"/data.txt", datatxtDir+"list.yaml.txt"); !reflect.DeepEqual(got, []any{false, true, true}) {
		t.Errorf("--robots of the data.txt's site: allowed = %v, want census disallowed", got)
	}
	out, errOut, code := runCLI(t, "", "datasets", "--robots", datatxtDir+"site/robots.txt", "--base", "https://a.example/data.txt", "--base", "https://b.example/data.txt",
		datatxtDir+"list.yaml.txt", datatxtDir+"records.txt")
	if code != ExitError || out != "" || !strings.Contains(errOut, "speaks for one site") {
		t.Errorf("--robots FILE with SOURCEs on two sites = exit %d, %q, %q; want exit 2", code, out, errOut)
	}
}

// TestSameFileSameCount: lint, summary, parse and fetch count a file's
// diagnostics the same way under the same profile (issue 24, item 11):
// summary once counted what lint leaves out as portability notes, and
// parse's count looked like a contradiction of lint's.
func TestSameFileSameCount(t *testing.T) {
	chdirRoot(t)
	files, _ := filepath.Glob("testdata/robots/*.txt")
	data, err := os.ReadFile("testdata/robots/messy.txt")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Write(data)
	}))
	defer srv.Close()
	for _, f := range files {
		for _, p := range profileNames {
			out, _, _ := runCLI(t, "", "lint", "-o", "json", "--profile", p, f)
			linted := strings.Count(out, "\n")
			out, _, _ = runCLI(t, "", "summary", "-o", "json", "--profile", p, f)
			var sum struct{ Errors, Warnings int }
			if err := json.Unmarshal([]byte(out), &sum); err != nil {
				t.Fatal(err)
			}
			if sum.Errors+sum.Warnings != linted {
				t.Errorf("%s under %s: summary counts %d errors and %d warnings, lint lists %d", f, p, sum.Errors, sum.Warnings, linted)
			}
			if p == "rfc9309" {
				out, _, _ = runCLI(t, "", "parse", f)
				if want := fmt.Sprintf("sitetxt lint, which adds the interpreters', reports %d)", linted); !strings.Contains(strings.SplitN(out, "\n", 2)[0], want) {
					t.Errorf("parse %s: first line %q, want it to say %q", f, strings.SplitN(out, "\n", 2)[0], want)
				}
			}
		}
	}
	for _, p := range profileNames {
		out, _, _ := runCLI(t, "", "lint", "-o", "json", "--profile", p, "testdata/robots/messy.txt")
		linted := strings.Count(out, "\n")
		out, _, _ = runCLI(t, "", "fetch", "--no-cache", "-o", "json", "--profile", p, srv.URL+"/")
		var rep struct{ Errors, Warnings int }
		if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Errors+rep.Warnings != linted {
			t.Errorf("fetch --profile %s of messy.txt counts %d errors and %d warnings, lint lists %d", p, rep.Errors, rep.Warnings, linted)
		}
	}
}
