package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestURLNeverMisread: every command that takes URLs refuses one that is
// neither absolute nor a path the same way (exit 2, naming it, nothing on
// standard output), where check used to read "org" as a host.
func TestURLNeverMisread(t *testing.T) {
	chdirRoot(t)
	for _, args := range [][]string{
		{"check", "testdata/robots/fict.org.txt", "org/plans.html"},
		{"diff", "testdata/robots/fict.org.txt", "org/plans.html"},
		{"matrix", "testdata/robots/fict.org.txt", "org/plans.html"},
		{"agents", "testdata/mobileagent/fict.org.txt", "org/plans.html"},
		{"check", "testdata/robots/fict.org.txt", "/ok", "org/plans.html"},
	} {
		out, errOut, code := runCLI(t, "", args...)
		if code != ExitError || out != "" || !strings.Contains(errOut, `"org/plans.html" is neither an absolute URL nor a path`) || !strings.Contains(errOut, "did you mean /org/plans.html?") {
			t.Errorf("sitetxt %s = exit %d, stdout %q, stderr %q; want exit 2 naming the URL, nothing on stdout", strings.Join(args, " "), code, out, errOut)
		}
	}
	out, errOut, code := runCLI(t, "/a\norg/x\n", "check", "--urls", "-", "testdata/robots/fict.org.txt")
	if code != ExitError || !strings.Contains(errOut, "<stdin>:2:") {
		t.Errorf("check --urls - with a bad second line = exit %d, %q, %q; want exit 2 naming <stdin>:2", code, out, errOut)
	}
}

// TestCheckOneAgent: check answers for one agent; a repeated --agent is
// refused rather than silently answering for the last one.
func TestCheckOneAgent(t *testing.T) {
	chdirRoot(t)
	out, errOut, code := runCLI(t, "", "check", "--agent", "a", "--agent", "b", "testdata/robots/fict.org.txt", "/")
	if code != ExitError || out != "" || !strings.Contains(errOut, "--agent was given 2 times") {
		t.Errorf("check --agent a --agent b = exit %d, %q, %q; want exit 2 saying so", code, out, errOut)
	}
}

// TestNoEmptyReportBeforeError: when nothing could be read, the error and
// exit 2, and nothing on standard output.
func TestNoEmptyReportBeforeError(t *testing.T) {
	chdirRoot(t)
	for _, args := range [][]string{
		{"datasets", "testdata/datatxt"},
		{"audit", "--summary", "/nonexistent-sitetxt"},
		{"audit", "--summary", "-o", "json", "/nonexistent-sitetxt"},
	} {
		out, errOut, code := runCLI(t, "", args...)
		if code != ExitError || out != "" || errOut == "" {
			t.Errorf("sitetxt %s = exit %d, stdout %q, stderr %q; want exit 2, the error, nothing on stdout", strings.Join(args, " "), code, out, errOut)
		}
	}
}

// TestOddInputWarned: binary data and an HTML page get the same warning in
// check, lint and audit, where check alone used to warn about HTML and no
// command about binary data.
func TestOddInputWarned(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "random.bin")
	b := make([]byte, 2000)
	for i := range b {
		b[i] = byte(i*7919 + i*i*31) // deterministic, not text
	}
	html := filepath.Join(dir, "page.html")
	text := filepath.Join(dir, "nul.txt")
	for f, data := range map[string][]byte{bin: b, html: []byte("<!DOCTYPE html><html><body>Not found</body></html>\n"),
		text: []byte("User-agent: *\nDisallow: /a\x00b\nAllow: /caf\xe9\n")} {
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct{ file, want string }{{bin, "looks like binary data"}, {html, "looks like an HTML document"}, {text, ""}} {
		for _, args := range [][]string{{"check", tt.file, "/x"}, {"lint", tt.file}, {"audit", tt.file}} {
			_, errOut, _ := runCLI(t, "", args...)
			if tt.want == "" && strings.Contains(errOut, "not a plain-text manifest") || tt.want != "" && !strings.Contains(errOut, tt.want) {
				t.Errorf("sitetxt %s: stderr %q, want the warning %q", strings.Join(args, " "), errOut, tt.want)
			}
		}
	}
}

// TestQuietKeepsStats: -q silences notes, not the --stats asked for.
func TestQuietKeepsStats(t *testing.T) {
	chdirRoot(t)
	_, errOut, _ := runCLI(t, "", "audit", "-q", "--summary", "--stats", "testdata/robots")
	if !strings.Contains(errOut, "sitetxt: stats: audited") {
		t.Errorf("audit -q --summary --stats: stderr %q, want the stats", errOut)
	}
}

// TestCheckNamesTheAgent: check's text says once, before the answers, whom
// it answers for.
func TestCheckNamesTheAgent(t *testing.T) {
	chdirRoot(t)
	out, _, _ := runCLI(t, "", "check", "--agent", "Googlebot", "--profile", "google", "testdata/robots/fict.org.txt", "/a", "/b")
	if !strings.HasPrefix(out, "for Googlebot under google:\n") || strings.Count(out, "Googlebot") != 1 {
		t.Errorf("check --agent Googlebot = %q; want one header naming Googlebot", out)
	}
}
