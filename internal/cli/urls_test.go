package cli

import (
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
