package cli

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/shareddata"
)

func testdataFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/*/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata files: %v", err)
	}
	return files
}

func TestParseGolden(t *testing.T) {
	chdirRoot(t)
	for _, file := range testdataFiles(t) {
		for _, format := range []string{"text", "json", "yaml"} {
			name := strings.TrimSuffix(strings.ReplaceAll(file[len("testdata/"):], "/", "_"), ".txt")
			t.Run(name+"."+format, func(t *testing.T) {
				out, errOut, code := runCLI(t, "", "parse", "-o", format, file)
				if code != ExitOK || errOut != "" {
					t.Fatalf("parse -o %s %s: exit %d, stderr %q", format, file, code, errOut)
				}
				golden(t, "parse/"+name+"."+format, out)
			})
		}
	}
}

func TestLintGolden(t *testing.T) {
	chdirRoot(t)
	for _, file := range testdataFiles(t) {
		name := strings.TrimSuffix(strings.ReplaceAll(file[len("testdata/"):], "/", "_"), ".txt")
		t.Run(name, func(t *testing.T) {
			out, errOut, code := runCLI(t, "", "lint", file)
			if code == ExitError || errOut != "" {
				t.Fatalf("lint %s: exit %d, stderr %q", file, code, errOut)
			}
			golden(t, "lint/"+name+".txt", out)
		})
	}
}

func TestParseStdin(t *testing.T) {
	out, _, code := runCLI(t, "User-agent: *\nDisallow: /\n", "parse", "-o", "json", "-")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	var v fileJSON
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.File != "<stdin>" || len(v.Lines) != 2 || len(v.Records) != 1 || v.Lines[1].Kind != "disallowline" {
		t.Errorf("parse - = %+v", v)
	}
}

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("<html><body>404</body></html>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.txt")
	if err := os.WriteFile(good, []byte("User-agent: *\nDisallow /x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"parse", good}, ExitOK, ""},
		{[]string{"parse", bad}, ExitOK, "sitetxt: warning: " + bad + ": input looks like an HTML document, not a plain-text manifest; it is read as one all the same, and gives no rules\n"},
		{[]string{"parse"}, ExitError, "sitetxt: parse: needs 1 argument, got 0\n"},
		{[]string{"parse", "-o", "xml", good}, ExitError, "sitetxt: unknown output format \"xml\" (want text, json, yaml, csv)\n"},
		{[]string{"parse", filepath.Join(dir, "missing.txt")}, ExitError, "sitetxt: cannot read " + filepath.Join(dir, "missing.txt") + ": no such file or directory\n"},
		{[]string{"parse", "--bogus", good}, ExitError, "sitetxt: parse: unknown flag --bogus (run sitetxt parse --help for its flags)\n"},
		{[]string{"lint", good}, ExitOK, ""},
		{[]string{"lint", good, bad}, ExitFindings, "sitetxt: warning: " + bad + ": input looks like an HTML document, not a plain-text manifest; it is read as one all the same, and gives no rules\n"},
		{[]string{"lint"}, ExitError, "sitetxt: lint: needs at least 1 argument, got 0\n"},
		{[]string{"nosuchcommand"}, ExitError, "sitetxt: unknown command \"nosuchcommand\" (run sitetxt help for the commands)\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, errOut, code := runCLI(t, "", tt.args...)
			if code != tt.code || errOut != tt.stderr {
				t.Errorf("sitetxt %s: exit %d, stderr %q; want exit %d, stderr %q", strings.Join(tt.args, " "), code, errOut, tt.code, tt.stderr)
			}
		})
	}
}

// TestParseCorpus runs "sitetxt parse -o json" on every real robots.txt in
// the shared corpus: each must exit 0 with valid JSON.
// TestLoadParseCorpus runs parse -o json on the shared corpus: a sample by
// default, every file in the slow tier (go test -tags slow).
func TestLoadParseCorpus(t *testing.T) {
	files, _ := filepath.Glob(shareddata.Path("corpus/robots/*.txt"))
	if len(files) == 0 {
		t.Skip("../shared/corpus/robots is absent")
	}
	if testing.Short() {
		files = files[:300]
	}
	files = shareddata.SampleEveryN(t, files, 64) // a whole command run per file
	ios := &IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard,
		Getenv: func(string) string { return "" }, IsTerminal: func(io.Writer) bool { return false }}
	for _, file := range files {
		var out strings.Builder
		ios.Out = &out
		if code := Run(ios, []string{"parse", "-o", "json", file}); code != ExitOK {
			t.Errorf("sitetxt parse -o json %s: exit %d", file, code)
			continue
		}
		if !json.Valid([]byte(out.String())) {
			t.Errorf("sitetxt parse -o json %s: invalid JSON", file)
		}
	}
}

func TestLintShowSource(t *testing.T) {
	chdirRoot(t)
	out, errOut, code := runCLI(t, "", "lint", "--show-source", "testdata/robots/messy.txt")
	if code != ExitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	golden(t, "lint/show-source_messy.txt", out)
}

func TestManifestType(t *testing.T) {
	tests := []struct{ given, name, data, want string }{
		{"auto", "site/data.txt", "Path: /x\n", "datatxt"},
		{"auto", "https://example.org/DATA.TXT", "", "datatxt"},
		{"auto", "list.yaml.txt", "path: x\n", "datatxt"},
		{"auto", "x.txt", "# c\n\n- path: a.csv\n", "datatxt"},
		{"auto", "robots.txt", "User-agent: *\n- x\n", "robots"},
		{"auto", "fict.org.txt", "Mobile-agent-server: / none\n", "robots"},
		{"robots", "data.txt", "- path: a\n", "robots"},
		{"datatxt", "robots.txt", "User-agent: *\n", "datatxt"},
		{"auto", "x.txt", "Path: /a.csv\nName: a\n", "datatxt"},
		{"auto", "x.txt", "# records\nUser-agent: *\nDisallow: /private/\n\nPATH : /a.csv\n", "datatxt"},
		{"auto", "x.txt", "User-agent: *\nDisallow: /path: x\nPathological: y\n", "robots"},
	}
	for _, tt := range tests {
		if got := manifestType(tt.given, tt.name, tt.data); got.Name != tt.want {
			t.Errorf("manifestType(%q, %q, %q) = %q, want %q", tt.given, tt.name, tt.data, got.Name, tt.want)
		}
	}
}

func TestLintKeepsGoingAfterAnUnreadableSource(t *testing.T) {
	chdirRoot(t)
	out, errOut, code := runCLI(t, "", "lint", "testdata/robots/messy.txt", "testdata/nonexistent.txt")
	if code != ExitError || !strings.Contains(out, "messy.txt:1:1:") || !strings.Contains(errOut, "cannot read testdata/nonexistent.txt") {
		t.Errorf("lint readable unreadable: exit %d, stdout %q, stderr %q; want exit 2, the readable file's findings and the error", code, out, errOut)
	}
}

func TestLintMarkupAndShadowed(t *testing.T) {
	html := "<!DOCTYPE html>\n<html><body>\nhello\n</body></html>\n"
	out, _, code := runCLI(t, html, "lint", "-q", "-")
	if code != ExitFindings || strings.Count(out, "\n") != 1 || !strings.Contains(out, "markup") && !strings.Contains(out, "HTML") {
		t.Errorf("lint of an HTML page: exit %d, output:\n%s\nwant exit 1 and only the markup error", code, out)
	}
	out, _, _ = runCLI(t, "Mobile-agents-server: / none\n", "lint", "-q", "-")
	if strings.Count(out, ":1:") != 1 || !strings.Contains(out, "Mobile-agent-server") {
		t.Errorf("lint of a misspelt Mobile-agent-server line reports it %d times, want once:\n%s", strings.Count(out, ":1:"), out)
	}
}

// TestLintProfile: lint reports what matters under --profile, portability
// notes on request, down to --severity, with a totals line that -q drops
// (issue 15, point 8).
func TestLintProfile(t *testing.T) {
	const robots = "User-agent: a\nDisallow: /x\n\nDisallow: /y\n\nUser-agent: a\nDisalow: /z\nDisallow: /*$*\n"
	tests := []struct {
		args []string
		out  string
	}{
		{[]string{"lint", "-"},
			"<stdin>:7:1: warning: field \"Disalow\" is not \"Disallow\"; only the google profile accepts it [misspelled-field]\n" +
				"<stdin>:8:13: warning: '$' inside a pattern matches a literal '$'; only a final '$' ends a match [dollar-inside]\n" +
				"0 errors, 2 warnings in 1 source; 2 portability notes that matter only under other profiles than rfc9309 left out (--portability shows them)\n"},
		{[]string{"lint", "--portability", "-"},
			"<stdin>:4:1: warning: Disallow line follows a blank line; the draft and norobots profiles ignore it, as records end at blank lines [rule-outside-record]\n" +
				"<stdin>:6:13: warning: User-agent \"a\" already has a group at line 1; rfc9309 and google merge them, draft and norobots use only the first [repeated-group]\n" +
				"<stdin>:7:1: warning: field \"Disalow\" is not \"Disallow\"; only the google profile accepts it [misspelled-field]\n" +
				"<stdin>:8:13: warning: '$' inside a pattern matches a literal '$'; only a final '$' ends a match [dollar-inside]\n" +
				"0 errors, 4 warnings in 1 source\n"},
		{[]string{"lint", "--profile", "GOOGLE", "-"},
			"<stdin>:8:13: warning: '$' inside a pattern matches a literal '$'; only a final '$' ends a match [dollar-inside]\n" +
				"0 errors, 1 warning in 1 source; 3 portability notes that matter only under other profiles than google left out (--portability shows them)\n"},
		{[]string{"lint", "--profile", "draft", "-"},
			"<stdin>:4:1: warning: Disallow line follows a blank line; the draft and norobots profiles ignore it, as records end at blank lines [rule-outside-record]\n" +
				"<stdin>:6:13: warning: User-agent \"a\" already has a group at line 1; rfc9309 and google merge them, draft and norobots use only the first [repeated-group]\n" +
				"<stdin>:7:1: warning: field \"Disalow\" is not \"Disallow\"; only the google profile accepts it [misspelled-field]\n" +
				"<stdin>:8:13: warning: '$' inside a pattern matches a literal '$'; only a final '$' ends a match [dollar-inside]\n" +
				"0 errors, 4 warnings in 1 source\n"},
		{[]string{"lint", "--severity", "error", "-"},
			"0 errors, 0 warnings in 1 source; 2 portability notes that matter only under other profiles than rfc9309 left out (--portability shows them); 2 warnings below --severity error left out\n"},
		{[]string{"lint", "-q", "--severity", "ERROR", "-"}, ""},
	}
	for _, tt := range tests {
		out, errOut, code := runCLI(t, robots, tt.args...)
		if out != tt.out || code != ExitOK || errOut != "" {
			t.Errorf("sitetxt %q = exit %d\n%s%s\nwant exit 0\n%s", tt.args, code, out, errOut, tt.out)
		}
	}
	if _, errOut, code := runCLI(t, robots, "lint", "--severity", "info", "-"); code != ExitError || !strings.Contains(errOut, "unknown severity") {
		t.Errorf("lint --severity info = exit %d, %q; want a usage error", code, errOut)
	}
}
