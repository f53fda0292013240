package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/jsonview"
)

var fictURLs = []string{
	"http://www.fict.org/", "http://www.fict.org/index.html", "http://www.fict.org/robots.txt",
	"http://www.fict.org/server.html", "http://www.fict.org/services/fast.html",
	"http://www.fict.org/services/slow.html", "http://www.fict.org/orgo.gif",
	"http://www.fict.org/org/about.html", "http://www.fict.org/org/plans.html",
	"http://www.fict.org/%7Ejim/jim.html", "http://www.fict.org/%7Emak/mak.html",
}

func TestDiffGolden(t *testing.T) {
	chdirRoot(t)
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"fict.org", append([]string{"diff", "testdata/robots/fict.org.txt"}, fictURLs...), ExitFindings},
		{"fict.org.json", append([]string{"diff", "-o", "json", "--agent", "excite", "testdata/robots/fict.org.txt"}, fictURLs...), ExitOK},
		{"messy", []string{"diff", "--agent", "FooBot", "testdata/robots/messy.txt", "/early", "/typo", "/a"}, ExitFindings},
		{"two profiles", []string{"diff", "--profiles", "google,draft", "testdata/robots/1996-webcrawler-infoseek.txt", "--agent", "infoseek", "/tmp/ok.html", "/tmp/x"}, ExitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, "", tt.args...)
			if code != tt.code || errOut != "" {
				t.Fatalf("sitetxt %s: exit %d, stderr %q; want exit %d", strings.Join(tt.args, " "), code, errOut, tt.code)
			}
			golden(t, "diff/"+tt.name, out)
		})
	}
}

func TestDiffJSON(t *testing.T) {
	out, _, code := runCLI(t, "User-agent: *\nDisallow: /a\nAllow: /a/b\n", "diff", "-o", "json", "-", "/a/b", "/c")
	if code != ExitFindings {
		t.Fatalf("exit %d, want %d", code, ExitFindings)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d lines, want 2", len(lines))
	}
	var v jsonview.Comparison[decisionJSON]
	if err := json.Unmarshal([]byte(lines[0]), &v); err != nil {
		t.Fatal(err)
	}
	if v.Agree || len(v.Verdicts) != 4 || len(v.Why) != 2 || !strings.Contains(v.Why[0], "first vs longest match") {
		t.Errorf("diff /a/b = %+v", v)
	}
	if err := json.Unmarshal([]byte(lines[1]), &v); err != nil || !v.Agree || len(v.Why) != 0 {
		t.Errorf("diff /c = %+v, %v", v, err)
	}
}

func TestDiffUsage(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"diff", "-"}, "sitetxt: diff: no URL given (name URLs after SOURCE or use --urls)\n"},
		{[]string{"diff", "--profiles", "rfc9309,bogus", "-", "/"}, "sitetxt: unknown profile \"bogus\" (want rfc9309, google, draft, norobots)\n"},
		{[]string{"diff", "--urls", "-", "-"}, "sitetxt: diff: SOURCE and --urls cannot both be standard input\n"},
	}
	for _, tt := range tests {
		_, errOut, code := runCLI(t, "", tt.args...)
		if code != ExitError || errOut != tt.stderr {
			t.Errorf("sitetxt %s: exit %d, stderr %q; want exit 2, %q", strings.Join(tt.args, " "), code, errOut, tt.stderr)
		}
	}
}

// TestMatrixFict prints the 1997 draft's fict.org matrix: the table must
// be the draft's own (unhipbot, webcrawler & excite, other).
func TestMatrixFict(t *testing.T) {
	chdirRoot(t)
	args := append([]string{"matrix", "--profile", "draft", "--agent", "unhipbot", "--agent", "webcrawler", "--agent", "excite", "--agent", "other", "testdata/robots/fict.org.txt"}, fictURLs...)
	for _, format := range []string{"text", "json", "csv"} {
		t.Run(format, func(t *testing.T) {
			out, errOut, code := runCLI(t, "", append([]string{"-o", format}, args...)...)
			if code != ExitFindings || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			golden(t, "matrix/fict.org."+format, out)
		})
	}
	// The draft's matrix, row by row: unhipbot, webcrawler, excite, other;
	// a for allowed (the draft's Yes), d for disallowed (No).
	want := []string{"daad", "daad", "aaaa", "daaa", "daaa", "daaa", "daad", "daaa", "daad", "daad", "daaa"}
	out, _, _ := runCLI(t, "", append([]string{"-o", "csv"}, args...)...)
	rows := strings.Split(strings.TrimSpace(out), "\n")[1:]
	for i, row := range rows {
		cells := strings.Split(row, ",")
		var got strings.Builder
		for _, c := range cells[1:] {
			got.WriteByte(c[0])
		}
		if got.String() != want[i] {
			t.Errorf("matrix row %s = %s, want %s", cells[0], got.String(), want[i])
		}
	}
}

func TestMatrixDefaultAgent(t *testing.T) {
	out, _, code := runCLI(t, "User-agent: *\nDisallow: /x\n", "matrix", "-", "/x", "/y")
	want := "*           URL\ndisallowed  /x\n  why: *: <stdin>:2: Disallow: /x\nallowed     /y\n"
	if out != want || code != ExitFindings {
		t.Errorf("matrix = %q (exit %d), want %q (exit 1)", out, code, want)
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"diff", "--profiles", "google,google", "-", "/"}, "sitetxt: diff: profile \"google\" is named twice\n"},
		{[]string{"diff", "--profiles", "google", "-", "/"}, "sitetxt: diff: needs at least two profiles to compare, got 1\n"},
		{[]string{"matrix", "--agent", "a", "--agent", "a", "-", "/"}, "sitetxt: matrix: agent \"a\" is named twice\n"},
		{[]string{"check", "http://", "/x"}, "sitetxt: \"http://\" is not an http(s) URL with a host\n"},
		{[]string{"check", "ftp://x/robots.txt", "/x"}, "sitetxt: \"ftp://x/robots.txt\" is not an http(s) URL with a host\n"},
		{[]string{"check", "--timeout", "-5s", "https://example.org/", "/x"}, "sitetxt: --timeout -5s: want a duration of 0 (the default) or more\n"},
		{[]string{"fetch", "--timeout", "-1s", "example.org"}, "sitetxt: --timeout -1s: want a duration of 0 (the default) or more\n"},
		{[]string{"fetch", ""}, "sitetxt: \"\" is not a site (want a URL such as https://example.org/)\n"},
		{[]string{"check", "--profile", "bogus", "-", "/"}, "sitetxt: unknown profile \"bogus\" (want rfc9309, google, draft, norobots)\n"},
	}
	for _, tt := range tests {
		_, errOut, code := runCLI(t, "", tt.args...)
		if code != ExitError || errOut != tt.stderr {
			t.Errorf("sitetxt %s: exit %d, stderr %q; want exit 2, %q", strings.Join(tt.args, " "), code, errOut, tt.stderr)
		}
	}
}
