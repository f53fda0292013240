package serve_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/cli"
	"github.com/sitetxt/sitetxt/internal/serve"
)

// runCLI runs sitetxt with args in memory (runCLICode) and returns its
// standard output; an exit status past findings fails the test.
func runCLI(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := runCLICode(args...)
	if code > cli.ExitFindings {
		t.Fatalf("sitetxt %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	return out
}

// jsonLines reads JSON Lines as generic values, one per line.
func jsonLines(t *testing.T, s string) []any {
	t.Helper()
	var out []any
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		var v any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		out = append(out, v)
	}
	return out
}

// apiRequest is a POST of body to path of the JSON API, as a client
// sends it.
func apiRequest(path string, body []byte) *http.Request {
	r := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	return r
}

func post(t *testing.T, path string, body any) map[string]any {
	t.Helper()
	h := serve.New(serve.Config{Logger: slog.New(slog.DiscardHandler)}).Handler()
	b, _ := json.Marshal(body)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, apiRequest(path, b))
	if rec.Code != http.StatusOK {
		t.Fatalf("POST %s = %d %s", path, rec.Code, rec.Body)
	}
	var v map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func same(t *testing.T, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if !bytes.Equal(g, w) {
		t.Errorf("%s:\n got %s\nwant %s", what, g, w)
	}
}

// TestDatasetsAsCLI posts testdata's data.txt files to POST /v1/datasets
// and compares the entries with what "sitetxt datasets -o json" prints.
func TestDatasetsAsCLI(t *testing.T) {
	root := filepath.Join("..", "..")
	const base = "https://data.example.org/data.txt"
	tests := []struct{ file, agent string }{
		{"list.yaml.txt", "*"},
		{"records.txt", "*"},
		{"records.txt", "archiver"},
	}
	for _, tt := range tests {
		t.Run(tt.file+"/"+tt.agent, func(t *testing.T) {
			path := filepath.Join(root, "testdata", "datatxt", tt.file)
			text, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := jsonLines(t, runCLI(t, "datasets", "-o", "json", "--agent", tt.agent, "--base", base, path))
			got := post(t, "/v1/datasets", map[string]any{"datatxt": string(text), "base": base, "agent": tt.agent})
			same(t, "POST /v1/datasets datasets", got["datasets"], want)
		})
	}
}

// TestAgentsAsCLI posts testdata's Mobile-agent-server files to POST
// /v1/agents and compares the answers with what "sitetxt agents -o json"
// prints; only "file" differs, the name positions use ("robots.txt" for
// a pasted file, the path the command read).
func TestAgentsAsCLI(t *testing.T) {
	urls := []string{"http://www.fict.org/", "http://www.fict.org/home/", "http://www.fict.org/home/user1/x",
		"http://www.fict.org/home/user2/", "http://www.fict.org/other/"}
	for _, name := range []string{"fict.org.txt", "dir1.txt", "robots-mixed.txt", "malformed.txt"} {
		for _, agent := range []string{"*", "Aglet"} {
			t.Run(name+"/"+agent, func(t *testing.T) {
				path := filepath.Join("..", "..", "testdata", "mobileagent", name)
				text, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				want := jsonLines(t, runCLI(t, append([]string{"agents", "-o", "json", "--agent", agent, path}, urls...)...))
				for _, w := range want {
					w.(map[string]any)["file"] = "robots.txt"
				}
				got := post(t, "/v1/agents", map[string]any{"robots": string(text), "urls": urls, "agent": agent})
				same(t, "POST /v1/agents answers", got["answers"], want)
			})
		}
	}
}

// TestDatasetsExportAsCLI posts testdata's data.txt to POST /v1/datasets
// with each catalog format and compares the document with what "sitetxt
// datasets -o FORMAT" writes (the validators in ../shared/validators check
// the command's documents: docs/datatxt.md).
func TestDatasetsExportAsCLI(t *testing.T) {
	const base = "https://data.example.org/data.txt"
	path := filepath.Join("..", "..", "testdata", "datatxt", "records.txt")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h := serve.New(serve.Config{Logger: slog.New(slog.DiscardHandler)}).Handler()
	for format, media := range map[string]string{"schemaorg": "application/ld+json", "dcat": "application/ld+json",
		"croissant": "application/ld+json", "datajson": "application/json", "datapackage": "application/json"} {
		t.Run(format, func(t *testing.T) {
			want := runCLI(t, "datasets", "-o", format, "--base", base, path)
			b, _ := json.Marshal(map[string]any{"datatxt": string(text), "base": base, "format": format})
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, apiRequest("/v1/datasets", b))
			if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != media ||
				rec.Header().Get("Content-Disposition") != `attachment; filename="`+format+`.json"` {
				t.Fatalf("POST /v1/datasets format %s = %d, %q, %q; want 200, %q, an attachment", format, rec.Code,
					rec.Header().Get("Content-Type"), rec.Header().Get("Content-Disposition"), media)
			}
			if got := rec.Body.String(); strings.TrimSpace(got) != strings.TrimSpace(want) {
				t.Errorf("POST /v1/datasets format %s:\n%s\nwant (datasets -o %s):\n%s", format, got, format, want)
			}
		})
	}
}

// TestTestLintAsCLI posts testdata's robots.txt files to POST /v1/test
// under one profile and compares the diagnostics with what "sitetxt lint
// -o json --profile P" prints; only "file" differs.
func TestTestLintAsCLI(t *testing.T) {
	for _, file := range []string{"messy.txt", "fict.org.txt", "aipref.txt", "1994-go-away.txt"} {
		for _, prof := range []string{"rfc9309", "google", "draft", "norobots"} {
			t.Run(file+"/"+prof, func(t *testing.T) {
				path := filepath.Join("..", "..", "testdata", "robots", file)
				text, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				var want []any
				if out := runCLI(t, "lint", "-o", "json", "--profile", prof, path); strings.TrimSpace(out) != "" {
					want = jsonLines(t, strings.ReplaceAll(out, `"file":`+jsonString(path), `"file":"robots.txt"`))
				}
				got := post(t, "/v1/test", map[string]any{"robots": string(text), "agent": "*", "urls": []string{"/"}, "profiles": []string{prof}})
				if want == nil {
					want = []any{}
				}
				same(t, "POST /v1/test diagnostics", got["diagnostics"], want)
			})
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestURLsReadAsCLI: POST /v1/test and /v1/agents read the URLs they are
// given the way the command line reads them (package input): a relative
// reference from the site's root ("private/x" is /private/x, disallowed by
// "Disallow: /private/", as check says), and a URL that cannot be read an
// error in its place while the others are answered (issue 35, items 1-2).
func TestURLsReadAsCLI(t *testing.T) {
	const robots = "User-agent: *\nDisallow: /private/\nMobile-agent-server: / atp://a.example\n"
	file := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(file, []byte(robots), 0o644); err != nil {
		t.Fatal(err)
	}
	cliLines := jsonLines(t, runCLI(t, "check", "-q", "-o", "json", file, "private/x"))
	if cliLines[0].(map[string]any)["allowed"] != false {
		t.Fatalf("check private/x = %v, want disallowed", cliLines[0])
	}
	resp := post(t, "/v1/test", map[string]any{"robots": robots, "agent": "*", "profiles": []string{"rfc9309"},
		"urls": []string{"private/x", "http:///nohost", "/public"}})
	results := resp["results"].([]any)
	if len(results) != 3 {
		t.Fatalf("POST /v1/test: %d results, want 3", len(results))
	}
	first := results[0].(map[string]any)["verdicts"].([]any)[0].(map[string]any)
	if first["allowed"] != false || first["url"] != "private/x" {
		t.Errorf("POST /v1/test private/x = %v, want disallowed as check says", first)
	}
	if e, _ := results[1].(map[string]any)["error"].(string); !strings.Contains(e, "without a host") {
		t.Errorf("POST /v1/test http:///nohost = %v, want an error for that URL", results[1])
	}
	if v := results[2].(map[string]any)["verdicts"].([]any); len(v) != 1 || v[0].(map[string]any)["allowed"] != true {
		t.Errorf("POST /v1/test /public = %v, want it answered after the bad URL", results[2])
	}
	agents := post(t, "/v1/agents", map[string]any{"robots": robots, "agent": "*", "urls": []string{"http:///nohost", "private/x"}})["answers"].([]any)
	if len(agents) != 2 || agents[0].(map[string]any)["error"] == nil || agents[1].(map[string]any)["allowed"] != false {
		t.Errorf("POST /v1/agents = %v, want an error for the first URL and private/x disallowed", agents)
	}
}

// TestAgentNoteAsCLI: POST /v1/test says what the command line notes of an
// agent string: under google a whole User-Agent header matches no group of
// its own (Google matches the product token), under rfc9309 its product
// token is used (issue 35, item 2).
func TestAgentNoteAsCLI(t *testing.T) {
	const ua = "Mozilla/5.0 (compatible; Googlebot/2.1)"
	resp := post(t, "/v1/test", map[string]any{"robots": "User-agent: Googlebot\nDisallow: /\n", "agent": ua,
		"profiles": []string{"google", "rfc9309"}, "urls": []string{"/x"}})
	notes := resp["notes"].([]any)
	if len(notes) != 2 || !strings.Contains(notes[0].(string), "under google: agent") || !strings.Contains(notes[0].(string), "Google matches the product token") ||
		!strings.Contains(notes[1].(string), `is read as the crawler name "Mozilla"`) {
		t.Errorf("POST /v1/test with agent %q: notes %q, want google's and rfc9309's readings", ua, notes)
	}
}

// TestDatasetsExportDiagnosticsAsCLI: a catalog export of POST
// /v1/datasets takes the publisher and contact the command line takes as
// flags, and answers with the diagnostics "datasets -o FORMAT" prints on
// standard error: Sitetxt-Errors counts the errors (the command exits 1
// when there are any) and Sitetxt-Diagnostics lists them (issue 35, item
// 6).
func TestDatasetsExportDiagnosticsAsCLI(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "datatxt", "list.yaml.txt")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h := serve.New(serve.Config{Logger: slog.New(slog.DiscardHandler)}).Handler()
	for _, tt := range []struct {
		format    string
		publisher string
	}{{"dcat", ""}, {"dcat", "Example Org"}, {"datajson", "Example Org"}, {"datapackage", ""}} {
		t.Run(tt.format+"/"+tt.publisher, func(t *testing.T) {
			var out, errOut bytes.Buffer
			ios := &cli.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut,
				Getenv: func(string) string { return "" }, IsTerminal: func(io.Writer) bool { return false }}
			args := []string{"datasets", "-o", tt.format, "--base", "https://data.example.org/data.txt", "-"}
			if tt.publisher != "" {
				args = append(args, "--publisher", tt.publisher, "--contact", "Data Team", "--contact-email", "data@example.org")
			}
			ios.In = bytes.NewReader(text)
			code := cli.Run(ios, args)
			body := map[string]any{"datatxt": string(text), "base": "https://data.example.org/data.txt", "format": tt.format}
			if tt.publisher != "" {
				body["publisher"], body["contact"], body["contact_email"] = tt.publisher, "Data Team", "data@example.org"
			}
			b, _ := json.Marshal(body)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, apiRequest("/v1/datasets", b))
			if got := strings.TrimSpace(rec.Body.String()); rec.Code != http.StatusOK || got != strings.TrimSpace(out.String()) {
				t.Fatalf("POST /v1/datasets %s = %d, a document unlike the command's", tt.format, rec.Code)
			}
			var ds []struct {
				Line     int    `json:"line"`
				Severity string `json:"severity"`
				Message  string `json:"message"`
			}
			if err := json.Unmarshal([]byte(rec.Header().Get("Sitetxt-Diagnostics")), &ds); err != nil {
				t.Fatalf("Sitetxt-Diagnostics %q: %v", rec.Header().Get("Sitetxt-Diagnostics"), err)
			}
			cliLines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
			if errOut.Len() == 0 {
				cliLines = nil
			}
			if len(ds) != len(cliLines) {
				t.Fatalf("%d diagnostics in the header, the command printed %d:\n%s", len(ds), len(cliLines), errOut.String())
			}
			errs := 0
			for i, d := range ds {
				if !strings.HasSuffix(cliLines[i], d.Severity+": "+d.Message) {
					t.Errorf("diagnostic %d = %s: %s, the command printed %q", i, d.Severity, d.Message, cliLines[i])
				}
				if d.Severity == "error" {
					errs++
				}
			}
			if rec.Header().Get("Sitetxt-Errors") != strconv.Itoa(errs) || (errs > 0) != (code == cli.ExitFindings) {
				t.Errorf("Sitetxt-Errors %q, %d errors listed, the command exited %d", rec.Header().Get("Sitetxt-Errors"), errs, code)
			}
		})
	}
}

// TestTestVerdictsAsCheck: each verdict of POST /v1/test is the decision
// object "sitetxt check -o json --profile P" prints for the URL, key for
// key (the file name aside, and the pace serve adds): both are built by
// package jsonview (issue 35, item 4; they had a builder each).
func TestTestVerdictsAsCheck(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "robots", "fict.org.txt")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	urls := []string{"/org/plans.html", "/org/about.html", "/serv", "/robots.txt", "org/x"}
	resp := post(t, "/v1/test", map[string]any{"robots": string(text), "agent": "unhipbot", "urls": urls})
	for i, r := range resp["results"].([]any) {
		for _, v := range r.(map[string]any)["verdicts"].([]any) {
			got := v.(map[string]any)
			prof := got["profile"].(string)
			want := jsonLines(t, runCLI(t, "check", "-q", "-o", "json", "--agent", "unhipbot", "--profile", prof, path, urls[i]))[0].(map[string]any)
			for _, m := range []map[string]any{got, want} {
				for _, k := range []string{"crawl_delay", "request_rate"} {
					delete(m, k)
				}
				for _, part := range []string{"rule", "group"} {
					if p, ok := m[part].(map[string]any); ok {
						delete(p, "file")
					}
				}
			}
			same(t, "POST /v1/test "+urls[i]+" under "+prof+" against check -o json", got, want)
		}
	}
}
