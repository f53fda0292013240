package cli

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sitetxt/sitetxt/internal/sitetest"
	"github.com/sitetxt/sitetxt/termsafe"

	"github.com/sitetxt/sitetxt/robots"
)

// hostileRobots is a robots.txt a hostile site could serve: terminal
// escapes (set the title, clear the screen), a BEL, DEL, an 8-bit CSI (C1),
// a right-to-left override and a NUL, in fields, values, patterns,
// agents, comments and lines without a colon.
const hostileRobots = "User-agent: *\x1b]0;PWNED\x07\n" +
	"Disallow: /x\x1b[2J\n" +
	"\x1b]0;PWNED\x07\x1b[2J /x\n" +
	"Allow: /\u202egnp.exe\n" +
	"Disallow: /c1\u009b31m\n" +
	"Disallow: /del\x7f # \x1b[31mred\n" +
	"Disallow: /%1B%5B2J\n" +
	"Disallow: /bad\xff\xfe\n" +
	"Sitemap: http://h/\x1b[2J\n" +
	"Mobile-agent-server: /\x1b[2J atp://h\x1b:1\n" +
	"Crawl-delay: \x1b[2J\n" +
	"\n" +
	"User-agent: evil\x1b[2Jbot\u202e\n" +
	"Disallow: /\x00nul\n"

// hostileDataTxt is a data.txt in record form with the same escapes in
// names, paths and unknown fields.
const hostileDataTxt = "Path: /data/\x1b[2Jset.csv\n" +
	"Name: \x1b]0;PWNED\x07 \u202eevil\n" +
	"Description: \u009b2J\n" +
	"X-\x1b[2J: y\n"

// hostileURLs are URLs with the same escapes.
var hostileURLs = []string{"/x\x1b[2J", "/\u202egnp.exe", "/c1\u009b31m", "/del\x7f", "/\x1b[2J", "/%1B%5B2J", "/bad\xff"}

// rawForTerminal returns the first character of s that must not reach a
// terminal as it is (any C0 control but the line feed, DEL, C1, a bidi
// control, a line or paragraph separator, a byte that is not UTF-8), or "".
func rawForTerminal(s string) string {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n') || c == 0x7f {
				return s[i : i+1]
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || termsafe.Hidden(r) {
			return s[i : i+n]
		}
		i += n
	}
	return ""
}

// TestHostileTerminal feeds every command a hostile robots.txt or data.txt
// and hostile URLs and agents, from files, standard input and a hostile
// server, in text output: nothing on standard output or standard error may
// act on a terminal (issue 13, point 3).
func TestHostileTerminal(t *testing.T) {
	dir := t.TempDir()
	robotsFile := filepath.Join(dir, "robots\x1b[2J.txt")
	dataFile := filepath.Join(dir, "data.txt")
	if err := os.WriteFile(robotsFile, []byte(hostileRobots), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dataFile, []byte(hostileDataTxt), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Header().Set("Content-Type", "text/plain\x1b[2J")
			io.WriteString(w, hostileRobots)
		case "/data.txt":
			io.WriteString(w, hostileDataTxt)
		default:
			http.Error(w, "\x1b[2J", http.StatusInternalServerError)
		}
	}))
	defer srv.Close()
	site := srv.URL + "/"
	urls := append([]string(nil), hostileURLs...)
	stdinURLs := strings.Join(hostileURLs, "\n") + "\n"
	agent := "evil\x1b[2Jbot\u202e"
	runs := []struct {
		name  string
		stdin string
		args  []string
	}{
		{"check", "", append([]string{"check", "--agent", agent, robotsFile}, urls...)},
		{"check draft", "", append([]string{"check", "--profile", "draft", robotsFile}, urls...)},
		{"check google", "", append([]string{"check", "--profile", "google", "--agent", agent, robotsFile}, urls...)},
		{"check stdin urls", stdinURLs, []string{"check", "--urls", "-", robotsFile}},
		{"check site", "", append([]string{"check", "--no-cache", site}, urls...)},
		{"check bad url list", "", []string{"check", "--urls", filepath.Join(dir, "no\x1b[2J"), robotsFile}},
		{"diff", "", append([]string{"diff", "--agent", agent, robotsFile}, urls...)},
		{"diff site", "", append([]string{"diff", "--no-cache", site}, urls...)},
		{"matrix", "", append([]string{"matrix", "--agent", agent, "--agent", "*", robotsFile}, urls...)},
		{"matrix draft", "", append([]string{"matrix", "--profile", "draft", "--agent", agent, robotsFile}, urls...)},
		{"agents", "", append([]string{"agents", "--agent", agent, robotsFile}, urls...)},
		{"agents site", "", append([]string{"agents", "--no-cache", site}, urls...)},
		{"lint", "", []string{"lint", robotsFile, dataFile}},
		{"lint show-source", "", []string{"lint", "--show-source", robotsFile, dataFile}},
		{"lint stdin", hostileRobots, []string{"lint", "-"}},
		{"lint site", "", []string{"lint", "--no-cache", site}},
		{"lint datatxt site", "", []string{"lint", "--no-cache", "--type", "datatxt", site}},
		{"parse", "", []string{"parse", robotsFile}},
		// CSV is text too: a terminal shows it.
		{"parse csv", "", []string{"parse", "-o", "csv", robotsFile}},
		{"parse csv datatxt", hostileDataTxt, []string{"parse", "-o", "csv", "-"}},
		{"check csv", "", append([]string{"check", "-o", "csv", "--agent", agent, robotsFile}, urls...)},
		{"lint csv", "", []string{"lint", "-o", "csv", robotsFile, dataFile}},
		{"audit csv", "", []string{"audit", "-o", "csv", "--path", "/\x1b[2J", robotsFile}},
		{"datasets csv", "", []string{"datasets", "-o", "csv", "--base", "https://h/data.txt", dataFile}},
		{"explain", "", []string{"explain", "--agent", agent, robotsFile}},
		{"explain star", "", []string{"explain", robotsFile}},
		{"summary", "", []string{"summary", robotsFile}},
		{"parse stdin", hostileDataTxt, []string{"parse", "-"}},
		{"parse site", "", []string{"parse", "--no-cache", site}},
		{"audit", "", []string{"audit", "--path", "/\x1b[2J", robotsFile}},
		{"audit site", "", []string{"audit", "--no-cache", site}},
		{"audit summary", "", []string{"audit", "--summary", robotsFile, dir}},
		{"audit summary list", robotsFile + "\n" + filepath.Join(dir, "no\x1b[2J") + "\n", []string{"audit", "--summary", "-"}},
		{"datasets", "", []string{"datasets", "--base", "https://h/data.txt", dataFile}},
		{"datasets site", "", []string{"datasets", "--no-cache", site}},
		{"fetch", "", []string{"fetch", "--no-cache", site}},
		{"fetch down", "", []string{"fetch", "--no-cache", srv.URL + "/down\x1b[2J/"}},
		{"unknown flag", "", []string{"check", "--\x1b[2J"}},
		{"unknown command", "", []string{"\x1b[2J"}},
		{"bad profile", "", []string{"check", "--profile", "\x1b[2J", robotsFile, "/"}},
		{"bad output", "", []string{"lint", "-o", "\x1b[2J", robotsFile}},
		{"missing file", "", []string{"lint", filepath.Join(dir, "\x1b[2J")}},
	}
	for _, tt := range runs {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, tt.stdin, tt.args...)
			if stdout == "" && stderr == "" {
				t.Fatalf("sitetxt %q printed nothing (exit %d): the test shows nothing", tt.args, code)
			}
			if r := rawForTerminal(stdout); r != "" {
				t.Errorf("sitetxt %q: standard output holds %q raw:\n%s", tt.args, r, stdout)
			}
			if r := rawForTerminal(stderr); r != "" {
				t.Errorf("sitetxt %q: standard error holds %q raw:\n%s", tt.args, r, stderr)
			}
		})
	}
}

// TestHostileJSONExact: JSON output keeps what the site wrote, byte for
// byte, while text output escapes it.
func TestHostileJSONExact(t *testing.T) {
	const robots = "User-agent: *\nDisallow: /x\x1b[2J\nAllow: /\u202egnp.exe\n"
	stdout, _, _ := runCLI(t, robots, "check", "-o", "json", "-", "/x\x1b[2J", "/\u202egnp.exe")
	var got []decisionJSON
	for _, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		var d decisionJSON
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		got = append(got, d)
	}
	if len(got) != 2 || got[0].URL != "/x\x1b[2J" || got[0].Rule == nil || got[0].Rule.Pattern != "/x\x1b[2J" {
		t.Errorf("check -o json = %+v; want the URL and pattern /x ESC [2J exactly", got)
	}
	if len(got) == 2 && (got[1].Rule == nil || got[1].Rule.Pattern != "/\u202egnp.exe") {
		t.Errorf("check -o json second decision = %+v; want the pattern with U+202E exactly", got[1])
	}
	text, _, _ := runCLI(t, robots, "check", "-", "/x\x1b[2J")
	if want := "for \"*\" (the rules for every crawler) under rfc9309:\n" + `disallowed /x\x1b[2J: <stdin>:2: Disallow: /x\x1b[2J` + "\n"; text != want {
		t.Errorf("check text = %q, want %q", text, want)
	}
}

func TestVisible(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"/plain/path?q=1", "/plain/path?q=1"},
		{"caf\u00e9 \u65e5\u672c", "caf\u00e9 \u65e5\u672c"},
		{"\x1b]0;PWNED\x07\x1b[2J/x", `\x1b]0;PWNED\x07\x1b[2J/x`},
		{"a\tb\nc\rd\x00", `a\x09b\x0ac\x0dd\x00`},
		{"del\x7f", `del\x7f`},
		{"c1\u0085\u009b", `c1\u0085\u009b`},
		{"\u202eevil\u202c \u2066x\u2069 \u200f\u061c", `\u202eevil\u202c \u2066x\u2069 \u200f\u061c`},
		{"sep\u2028\u2029", `sep\u2028\u2029`},
		{"bad\xff\xfe\x9b", `bad\xff\xfe\x9b`},
		{`back\slash`, `back\slash`},
	}
	for _, tt := range tests {
		if got := visible(tt.in); got != tt.want {
			t.Errorf("visible(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzVisible(f *testing.F) {
	for _, s := range []string{"", "a", "\x1b[2J", "\u202e", "\xff", "\u009b", hostileRobots} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := visible(s)
		if r := rawForTerminal(strings.ReplaceAll(out, "\n", "")); r != "" || strings.Contains(out, "\n") {
			t.Errorf("visible(%q) = %q holds %q", s, out, r)
		}
		if rawForTerminal(s) == "" && !strings.Contains(s, "\n") && out != s {
			t.Errorf("visible(%q) = %q, want it unchanged", s, out)
		}
	})
}

func TestCSVCell(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""}, {"/a", "/a"}, {"=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"}, {"+1", "'+1"},
		{"-2", "'-2"}, {"@SUM(1)", "'@SUM(1)"}, {"\tx", `\x09x`}, {"\rx", `\x0dx`}, {"a=b", "a=b"},
		// CSV is text too: a site's ESC, BEL and C1 bytes are escaped as
		// text output escapes them.
		{"\x1b]0;PWNED\x07", `\x1b]0;PWNED\x07`}, {"a\u009bb", `a\u009bb`}, {"=\x1b[2J", `'=\x1b[2J`},
	} {
		if got := csvCell(tt.in); got != tt.want {
			t.Errorf("csvCell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// contractRuns are, for every command that prints results, a run with
// output format FORMAT, on files of the repository.
func contractRuns(dir string) map[string][]string {
	fict := filepath.Join("..", "..", "testdata", "robots", "fict.org.txt")
	messy := filepath.Join("..", "..", "testdata", "robots", "messy.txt")
	agents := filepath.Join("..", "..", "testdata", "mobileagent", "fict.org.txt")
	return map[string][]string{
		"check":  {"check", "-o", "FORMAT", "--agent", "unhipbot", fict, "/", "/org/x"},
		"diff":   {"diff", "-o", "FORMAT", fict, "/", "/robots.txt", "/%7Emak/mak.html"},
		"matrix": {"matrix", "-o", "FORMAT", "--agent", "unhipbot", "--agent", "excite", fict, "/", "/org/x"},
		"agents": {"agents", "-o", "FORMAT", agents, "http://www.fict.org/", "http://www.fict.org/home/"},
		"lint":   {"lint", "-o", "FORMAT", messy},
		"parse":  {"parse", "-o", "FORMAT", fict},
		"audit": {"audit", "-o", "FORMAT", "--path", "/org/x",
			filepath.Join("..", "..", "testdata", "robots", "aipref.txt"), fict},
		"audit summary": {"audit", "--summary", "-o", "FORMAT", filepath.Join("..", "..", "testdata", "robots")},
	}
}

// documentRuns are the commands that print one document per source, with
// no rows: their JSON follows the contract too.
func documentRuns() map[string][]string {
	fict := filepath.Join("..", "..", "testdata", "robots", "fict.org.txt")
	return map[string][]string{
		"explain": {"explain", "-o", "FORMAT", "--agent", "excite", fict},
		"summary": {"summary", "-o", "FORMAT", fict, fict},
	}
}

var snake = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// checkKeys walks a decoded JSON value: every key is snake_case, and no
// position is nested ("pos", "start", "end" objects).
func checkKeys(t *testing.T, where string, v any) {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if !snake.MatchString(k) {
				t.Errorf("%s: key %q is not snake_case", where, k)
			}
			if k == "pos" || k == "start" || k == "end" || k == "position" {
				t.Errorf("%s: nested position %q; positions are flat fields", where, k)
			}
			checkKeys(t, where+"."+k, x)
		}
	case []any:
		for _, x := range v {
			checkKeys(t, where, x)
		}
	}
}

// TestContractJSON: -o json is JSON Lines of compact objects with
// snake_case keys and flat positions, in every command; -o JSON is the same.
func TestContractJSON(t *testing.T) {
	runs := contractRuns(t.TempDir())
	for name, args := range documentRuns() {
		runs[name] = args
	}
	for name, args := range runs {
		t.Run(name, func(t *testing.T) {
			run := func(format string) (string, int) {
				a := append([]string(nil), args...)
				for i := range a {
					if a[i] == "FORMAT" {
						a[i] = format
					}
				}
				out, errOut, code := runCLI(t, "", a...)
				if code == ExitError {
					t.Fatalf("sitetxt %q: exit 2, %s", a, errOut)
				}
				return out, code
			}
			out, code := run("json")
			if upper, ucode := run("JSON"); upper != out || ucode != code {
				t.Errorf("-o JSON differs from -o json")
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) == 0 || lines[0] == "" {
				t.Fatalf("no output")
			}
			for _, l := range lines {
				var v any
				if err := json.Unmarshal([]byte(l), &v); err != nil {
					t.Fatalf("line %q is not JSON: %v", l, err)
				}
				if _, ok := v.(map[string]any); !ok {
					t.Errorf("line %q is not an object", l)
				}
				if strings.HasPrefix(l, "{\n") || strings.Contains(l, "\n") {
					t.Errorf("line %q is not compact", l)
				}
				checkKeys(t, name, v)
			}
		})
	}
}

// TestContractCSV: every command that prints rows offers csv, with a
// header and rows of the same width, and says allowed/disallowed.
func TestContractCSV(t *testing.T) {
	for name, args := range contractRuns(t.TempDir()) {
		t.Run(name, func(t *testing.T) {
			a := append([]string(nil), args...)
			for i := range a {
				if a[i] == "FORMAT" {
					a[i] = "Csv"
				}
			}
			out, errOut, code := runCLI(t, "", a...)
			if code == ExitError {
				t.Fatalf("sitetxt %q: exit 2, %s", a, errOut)
			}
			if strings.ContainsAny(out, "\x1b\x07\u009b") {
				t.Errorf("sitetxt %q -o csv wrote a raw control byte of the site's to the terminal", a)
			}
			rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			if err != nil || len(rows) < 2 {
				t.Fatalf("sitetxt %q: %d rows, %v:\n%s", a, len(rows), err, out)
			}
			for _, row := range rows {
				for _, c := range row {
					if c == "Yes" || c == "No" || c == "yes" || c == "no" {
						t.Errorf("cell %q: verdicts are allowed/disallowed", c)
					}
				}
			}
		})
	}
}

// TestContractVerdictWords: text output says allowed/disallowed, never
// Yes/No.
func TestContractVerdictWords(t *testing.T) {
	yesNo := regexp.MustCompile(`(?i)\b(yes|no)\b`)
	for name, args := range contractRuns(t.TempDir()) {
		if name == "lint" || name == "parse" || name == "audit summary" { // no verdicts: diagnostics, trees, counts
			continue
		}
		t.Run(name, func(t *testing.T) {
			a := append([]string(nil), args...)
			for i := range a {
				if a[i] == "FORMAT" {
					a[i] = "TEXT"
				}
			}
			out, _, _ := runCLI(t, "", a...)
			if !strings.Contains(out, "allowed") {
				t.Errorf("sitetxt %q says neither allowed nor disallowed:\n%s", a, out)
			}
			// The decision's reasons (robots.ReasonNoRule, ReasonNoGroup)
			// say "no" as a word, not as a verdict.
			out = strings.NewReplacer(robots.ReasonNoRule, "", robots.ReasonNoGroup, "").Replace(out)
			if m := yesNo.FindString(out); m != "" {
				t.Errorf("sitetxt %q says %q:\n%s", a, m, out)
			}
		})
	}
}

// TestContractCaseInsensitive: flag values are case-insensitive.
func TestContractCaseInsensitive(t *testing.T) {
	fict := filepath.Join("..", "..", "testdata", "robots", "fict.org.txt")
	for _, args := range [][]string{
		{"check", "--profile", "GOOGLE", fict, "/org/about.html"},
		{"check", "--profile", "Draft", "-o", "Json", fict, "/org/about.html"},
		{"lint", "--type", "ROBOTS", fict},
		{"diff", "--profiles", "RFC9309,Google", fict, "/org/about.html"},
		{"matrix", "-o", "CSV", "--profile", "NoRobots", fict, "/org/about.html"},
	} {
		if _, errOut, code := runCLI(t, "", args...); code == ExitError {
			t.Errorf("sitetxt %q = exit 2, %s; want the value read as lower case", args, errOut)
		}
	}
}

// TestContractFetchFailure: a source that cannot be fetched exits 2 in
// every command, says the cause on standard error, and check, diff,
// matrix and agents still print the decisions the standard derives.
func TestContractFetchFailure(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	refused := fmt.Sprintf("http://127.0.0.1:%d/", sitetest.RefusedPort(t))
	for _, site := range []struct{ url, cause string }{
		{srv.URL + "/", "HTTP 503"},
		{refused, "refused"},
	} {
		for _, tt := range []struct {
			args []string
			out  string // a substring of standard output
		}{
			{[]string{"check", site.url, "/a"}, "disallowed /a: unreachable"},
			{[]string{"check", "-o", "json", site.url, "/a"}, `"allowed":false,"reason":"unreachable`},
			{[]string{"diff", site.url, "/a"}, "disallowed"},
			{[]string{"matrix", site.url, "/a"}, "disallowed"},
			{[]string{"agents", site.url, "/a"}, "disallowed"},
			{[]string{"lint", site.url}, ""},
			{[]string{"parse", site.url}, ""},
			{[]string{"fetch", site.url}, "unreachable"},
		} {
			args := append([]string{tt.args[0], "--no-cache", "--timeout", "5s"}, tt.args[1:]...)
			stdout, stderr, code := runCLI(t, "", args...)
			if code != ExitError || !strings.Contains(stdout, tt.out) || !strings.Contains(stderr, site.cause) {
				t.Errorf("sitetxt %q = exit %d\n%s%s\nwant exit 2, %q on standard output and the cause %q on standard error",
					args, code, stdout, stderr, tt.out, site.cause)
			}
		}
	}
	// The fetch part of the decision object says what happened.
	stdout, _, _ := runCLI(t, "", "check", "--no-cache", "-o", "json", srv.URL+"/", "/a")
	var d decisionJSON
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	if d.Fetch == nil || d.Fetch.Status != 503 || d.Fetch.Meaning != "disallow-all" || d.Fetch.Error == "" || d.Reason == "" {
		t.Errorf("check -o json on a 503 = %s; want fetch.status 503, meaning disallow-all, an error and a reason", stdout)
	}
}

// TestStreamFlush: with URLs from a pipe, each answer is written before
// the next URL is read, so sitetxt works as a co-process (issue 15, 5).
func TestStreamFlush(t *testing.T) {
	for _, format := range []string{"text", "json", "csv"} {
		for _, cmd := range []string{"check", "diff", "matrix"} {
			t.Run(cmd+"/"+format, func(t *testing.T) {
				dir := t.TempDir()
				robots := filepath.Join(dir, "robots.txt")
				if err := os.WriteFile(robots, []byte("User-agent: *\nDisallow: /a\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				inR, inW := io.Pipe()
				outR, outW := io.Pipe()
				ios := &IOStreams{In: inR, Out: outW, ErrOut: io.Discard,
					Getenv: func(string) string { return "" }, IsTerminal: func(io.Writer) bool { return false }}
				done := make(chan int, 1)
				go func() {
					done <- Run(ios, []string{cmd, "-o", format, "--urls", "-", robots})
					outW.Close()
				}()
				lines := bufio.NewReader(outR)
				if format == "csv" || cmd != "check" && format == "text" { // a header line first
					if _, err := lines.ReadString('\n'); err != nil {
						t.Fatal(err)
					}
				}
				for _, u := range []string{"/a", "/b", "# a comment", "", "/c"} {
					if _, err := io.WriteString(inW, u+"\n"); err != nil {
						t.Fatal(err)
					}
					if u == "" || u[0] == '#' {
						continue // skipped: no answer to wait for
					}
					line, err := lines.ReadString('\n')
					if cmd == "check" && format == "text" && strings.HasPrefix(line, "for ") {
						line, err = lines.ReadString('\n') // the agent header comes with the first answer
					}
					if err != nil || !strings.Contains(line, u) {
						t.Fatalf("after writing %q read %q, %v; want its answer at once", u, line, err)
					}
					if cmd == "matrix" && format == "text" && u == "/a" {
						lines.ReadString('\n') // the why: line
					}
				}
				inW.Close()
				rest, _ := io.ReadAll(lines)
				want := ExitFindings // /a is disallowed
				if cmd == "diff" {
					want = ExitOK // and every profile agrees
				}
				if code := <-done; code != want || len(rest) != 0 {
					t.Errorf("exit %d, then %q; want exit %d and nothing more", code, rest, want)
				}
			})
		}
	}
}
