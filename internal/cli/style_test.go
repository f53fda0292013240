package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runTerminal runs sitetxt as if its output streams were terminals, with
// the given environment.
func runTerminal(t *testing.T, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	ios := &IOStreams{
		In: strings.NewReader(""), Out: &out, ErrOut: &errOut,
		Getenv:     func(k string) string { return env[k] },
		IsTerminal: func(io.Writer) bool { return true },
	}
	code = Run(ios, args)
	return out.String(), errOut.String(), code
}

func TestColour(t *testing.T) {
	dir := t.TempDir()
	robots := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(robots, []byte("User-agent: *\nDisallow: /x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		env    map[string]string
		colour bool
	}{
		{"terminal", nil, true},
		{"NO_COLOR", map[string]string{"NO_COLOR": "1"}, false},
	}
	for _, tt := range tests {
		for _, cmd := range []string{"check", "diff", "matrix"} {
			t.Run(tt.name+"/"+cmd, func(t *testing.T) {
				out, _, _ := runTerminal(t, tt.env, cmd, robots, "/x", "/y")
				if got := strings.Contains(out, "\x1b["); got != tt.colour {
					t.Errorf("sitetxt %s on a terminal with %v: colour = %v, want %v\n%q", cmd, tt.env, got, tt.colour, out)
				}
			})
		}
	}
	// Not a terminal: never colour.
	out, _, _ := runCLI(t, "", "check", robots, "/x")
	if strings.Contains(out, "\x1b[") {
		t.Errorf("check into a pipe printed colour: %q", out)
	}
}

func TestProgressBar(t *testing.T) {
	dir := t.TempDir()
	robots := filepath.Join(dir, "robots.txt")
	urls := filepath.Join(dir, "urls.txt")
	if err := os.WriteFile(robots, []byte("User-agent: *\nDisallow: /x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(urls, []byte(strings.Repeat("/a\n/x\n", 12500)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runTerminal(t, nil, "check", "-o", "json", "--urls", urls, robots)
	if code != ExitFindings || strings.Count(out, "\n") != 25000 {
		t.Fatalf("exit %d, %d lines of output", code, strings.Count(out, "\n"))
	}
	if !strings.Contains(errOut, "checking URLs") {
		t.Errorf("no progress bar on a terminal's standard error: %q", errOut)
	}
	_, errOut, _ = runCLI(t, "", "check", "-o", "json", "--urls", urls, robots)
	if errOut != "" {
		t.Errorf("progress shown on a pipe: %q", errOut)
	}
}

func TestCheckGolden(t *testing.T) {
	chdirRoot(t)
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"fict.org.txt", append([]string{"check", "-q", "--agent", "UnhipBot/0.1", "testdata/robots/fict.org.txt"}, fictURLs...)},
		{"fict.org.other.json", append([]string{"check", "-o", "json", "testdata/robots/fict.org.txt"}, fictURLs...)},
		{"messy.google.txt", []string{"check", "--profile", "google", "--agent", "FooBot", "testdata/robots/messy.txt", "/early", "/typo", "/public", "/a", ""}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, "", tt.args...)
			if code == ExitError || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			golden(t, "check/"+tt.name, out)
		})
	}
}
