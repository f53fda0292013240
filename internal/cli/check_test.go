package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/shareddata"
)

// runCheckCLI runs sitetxt with args and stdin in memory.
func runCheckCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	ios := &IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut,
		Getenv: func(string) string { return "" }, IsTerminal: func(io.Writer) bool { return false }}
	code := Run(ios, args)
	return code, out.String(), errOut.String()
}

const fict = "../../testdata/robots/fict.org.txt"

func TestCheckCommand(t *testing.T) {
	tests := []struct {
		name     string
		stdin    string
		args     []string
		code     int
		out, err string
	}{
		{"allowed    and disallowed", "", []string{"check", fict, "/org/plans.html", "/org/x", "/robots.txt"}, ExitFindings,
			"for \"*\" (the rules for every crawler) under rfc9309:\n" +
				"disallowed /org/plans.html: " + fict + ":12: Disallow: /org/plans.html\n" +
				"allowed    /org/x: " + fict + ":13: Allow: /org/\n" +
				"allowed    /robots.txt: /robots.txt is always allowed\n", ""},
		{"all allowed", "", []string{"check", "--agent", "WebCrawler/3.0", "--profile", "draft", fict, "http://www.fict.org/"}, ExitOK,
			"for WebCrawler/3.0 under draft:\n" +
				"allowed    http://www.fict.org/: no rule matched (group at " + fict + ":7)\n", ""},
		{"no group", "User-agent: a\nDisallow: /\n", []string{"check", "--agent", "b", "-", "/x"}, ExitOK,
			"for b under rfc9309:\nallowed    /x: no group applies\n", ""},
		{"json", "", []string{"check", "-o", "json", "--agent", "unhipbot", fict, "/x", ""}, ExitFindings,
			`{"url":"/x","agent":"unhipbot","profile":"rfc9309","allowed":false,"reason":"rule matched","rule":{"directive":"Disallow","pattern":"/","file":"` + fict + `","line":5,"column":1},"group":{"agents":["unhipbot"],"file":"` + fict + `","line":4,"column":1}}` + "\n" +
				`{"url":"","agent":"unhipbot","profile":"rfc9309","allowed":false,"reason":"rule matched","rule":{"directive":"Disallow","pattern":"/","file":"` + fict + `","line":5,"column":1},"group":{"agents":["unhipbot"],"file":"` + fict + `","line":4,"column":1}}` + "\n", ""},
		{"json no rule", "", []string{"check", "-o", "json", "--profile", "google", fict, "/org/about.html?<x>"}, ExitOK,
			`{"url":"/org/about.html?<x>","agent":"*","profile":"google","allowed":true,"reason":"rule matched","rule":{"directive":"Allow","pattern":"/org/","file":"` + fict + `","line":13,"column":1},"group":{"agents":["*"],"file":"` + fict + `","line":11,"column":1}}` + "\n", ""},
		{"urls from stdin", "/org/x\r\n\n  \t\n# comment\n  #x\n/\n", []string{"check", "--urls", "-", fict}, ExitFindings,
			"for \"*\" (the rules for every crawler) under rfc9309:\n" +
				"allowed    /org/x: " + fict + ":13: Allow: /org/\n" +
				"disallowed /: " + fict + ":16: Disallow: /\n", ""},
		{"google implied rule", "User-agent: *\nAllow: /d/index.html\nDisallow: /\n", []string{"check", "--profile", "google", "-", "/d/"}, ExitOK,
			"for \"*\" (the rules for every crawler) under google:\nallowed    /d/: <stdin>:2: Allow: /d/$ (implied by Allow: /d/index.html)\n", ""},
		{"no url", "", []string{"check", fict}, ExitError, "", "sitetxt: check: no URL given (name URLs after SOURCE or use --urls)\n"},
		{"bad profile", "", []string{"check", "--profile", "x", fict, "/"}, ExitError, "", "sitetxt: unknown profile \"x\" (want rfc9309, google, draft, norobots)\n"},
		{"bad output", "", []string{"check", "-o", "yaml", fict, "/"}, ExitError, "", "sitetxt: unknown output format \"yaml\" (want text, json, csv)\n"},
		{"missing source", "", []string{"check", "nonexistent.txt", "/"}, ExitError, "", "sitetxt: cannot read nonexistent.txt: no such file or directory\n"},
		{"missing urls file", "", []string{"check", "--urls", "nonexistent.txt", fict}, ExitError, "", "sitetxt: cannot read nonexistent.txt: no such file or directory\n"},
		{"both stdin", "", []string{"check", "--urls", "-", "-"}, ExitError, "", "sitetxt: check: SOURCE and --urls cannot both be standard input\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCheckCLI(t, tt.stdin, tt.args...)
			if code != tt.code || out != tt.out || errOut != tt.err {
				t.Errorf("sitetxt %q\n= %d\n%s%s\nwant %d\n%s%s", tt.args, code, out, errOut, tt.code, tt.out, tt.err)
			}
		})
	}
}

// TestCheckGoogleVectors runs every Google vector through the command line:
// check --profile google --agent UA -o json SOURCE URL.
func TestCheckGoogleVectors(t *testing.T) {
	data, err := os.ReadFile(shareddata.Path("conformance", "google-robotstxt.json"))
	if os.IsNotExist(err) {
		t.Skipf("conformance data not found (%v); skipping", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct {
		ID        string `json:"id"`
		RobotsTxt string `json:"robotstxt"`
		UserAgent string `json:"user_agent"`
		URL       string `json:"url"`
		Allowed   bool   `json:"allowed"`
	}
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i, v := range vs {
		t.Run(v.ID, func(t *testing.T) {
			src := filepath.Join(dir, "robots"+string(rune('a'+i%26))+".txt")
			if err := os.WriteFile(src, []byte(v.RobotsTxt), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := runCheckCLI(t, "", "check", "--profile", "google", "--agent="+v.UserAgent, "-o", "json", "--", src, v.URL)
			want := ExitOK
			if !v.Allowed {
				want = ExitFindings
			}
			var got decisionJSON
			if err := json.Unmarshal([]byte(out), &got); err != nil || code != want || got.Allowed != v.Allowed || got.URL != v.URL || got.Agent != v.UserAgent {
				t.Errorf("check --agent=%q %q = %d %s%s (%v), want exit %d allowed %v", v.UserAgent, v.URL, code, out, errOut, err, want, v.Allowed)
			}
		})
	}
}

// TestCheckNotesCutAgent: a --agent that is more than a crawler name (a
// version, a whole User-Agent header) gets a note saying which name is
// used; a bare name and "*" get none; under google, which compares the
// string whole, a whole header gets a note saying it matches no group.
func TestCheckNotesCutAgent(t *testing.T) {
	const src = "User-agent: Mozilla\nDisallow: /\n"
	tests := []struct {
		args []string
		note string
	}{
		{[]string{"--agent", "Mozilla/5.0 (compatible; Googlebot/2.1)"}, `sitetxt: note: --agent "Mozilla/5.0 (compatible; Googlebot/2.1)" is read as the crawler name "Mozilla"` + "\n"},
		{[]string{"--agent", "MJ12bot/v1.4; +http://mj12bot.com/"}, `sitetxt: note: --agent "MJ12bot/v1.4; +http://mj12bot.com/" is read as the crawler name "MJ12bot"` + "\n"},
		{[]string{"--agent", "MJ12bot/v1.4"}, ""},
		{[]string{"--agent", "MJ12bot"}, ""},
		{[]string{}, ""},
		{[]string{"--agent", "Googlebot", "--profile", "google"}, ""},
		{[]string{"--agent", "Mozilla/5.0 (compatible; Googlebot/2.1)", "--profile", "google"}, `sitetxt: note: --agent "Mozilla/5.0 (compatible; Googlebot/2.1)": under google it is compared whole with each User-agent line's product token (letters, '-' and '_'), as Google's parser does, so it matches no group and only "*" applies; Google matches the product token: give it ("Mozilla" here, or the crawler's own token in the header)` + "\n"},
	}
	for _, tt := range tests {
		_, stderr, _ := runCLI(t, src, append(append([]string{"check"}, tt.args...), "-", "/x")...)
		if stderr != tt.note {
			t.Errorf("check %v: stderr = %q, want %q", tt.args, stderr, tt.note)
		}
	}
}

// TestCheckUsageWhereALineApplies: check prints a usage block, in text and
// JSON, only for a URL a Content-Usage or Content-Signal line applies to;
// a file with usage lines for other crawlers adds nothing to the others'
// answers (issue 50: a batch's JSON was twice the size with all-unknown
// blocks).
func TestCheckUsageWhereALineApplies(t *testing.T) {
	chdirRoot(t)
	for _, tc := range []struct {
		agent, url string
		usage      bool
	}{
		{"Applebot-Extended", "/news/today", false}, // its group's only usage line is for /archive/old, which it may not fetch
		{"Google-Extended", "/news/today", true},
		{"ExampleBot", "/news/today", true}, // the * group's lines
	} {
		for _, format := range []string{"text", "json"} {
			stdout, stderr, _ := runCLI(t, "", "check", "-o", format, "--agent", tc.agent, "testdata/robots/aipref.txt", tc.url)
			got := strings.Contains(stdout, `"usage":`) || strings.Contains(stdout, "  usage: ")
			if got != tc.usage {
				t.Errorf("check -o %s --agent %s %s: usage shown = %v, want %v\n%s%s", format, tc.agent, tc.url, got, tc.usage, stdout, stderr)
			}
		}
	}
}
