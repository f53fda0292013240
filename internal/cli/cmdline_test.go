package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMistyped: a mistyped command or flag is answered with what was
// probably meant, in one line of plain text (no "\x0a" escapes of cobra's
// multi-line suggestion), exit 2 (issue 35, item 5).
func TestMistyped(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"chek"}, `sitetxt: unknown command "chek" (did you mean check? run sitetxt help for the commands)` + "\n"},
		{[]string{"datset", "x"}, `sitetxt: unknown command "datset" (did you mean datasets? run sitetxt help for the commands)` + "\n"},
		{[]string{"xyzzy"}, `sitetxt: unknown command "xyzzy" (run sitetxt help for the commands)` + "\n"},
		{[]string{"check", "--agnet", "x", "-", "/"}, "sitetxt: check: unknown flag --agnet (did you mean --agent? run sitetxt check --help for its flags)\n"},
		{[]string{"audit", "--pth", "/x", "-"}, "sitetxt: audit: unknown flag --pth (did you mean --path? run sitetxt audit --help for its flags)\n"},
		{[]string{"check", "--qiuet", "-", "/"}, "sitetxt: check: unknown flag --qiuet (did you mean --quiet? run sitetxt check --help for its flags)\n"},
		{[]string{"check", "--color=sometimes", "-", "/"}, `sitetxt: --color "sometimes": want auto, always or never` + "\n"},
		{[]string{"--versoin"}, "sitetxt: unknown flag --versoin (did you mean --version? run sitetxt --help for its flags)\n"},
		{[]string{"help", "chek"}, `sitetxt: unknown help topic "chek" (did you mean check? run sitetxt help for the commands)` + "\n"},
		{[]string{"help", "xyzzy"}, `sitetxt: unknown help topic "xyzzy" (run sitetxt help for the commands)` + "\n"},
		{[]string{"check", "--profile", "goggle", "-", "/"},
			`sitetxt: unknown profile "goggle" (did you mean google? want rfc9309, google, draft, norobots)` + "\n"},
		{[]string{"audit", "../../testdata/robots"}, "sitetxt: ../../testdata/robots is a directory: audit --summary ../../testdata/robots counts over the files in it; audit FILE reports one file\n"},
		{[]string{"check", "--profile", "RFC9390", "-", "/"},
			`sitetxt: unknown profile "rfc9390" (did you mean rfc9309? want rfc9309, google, draft, norobots)` + "\n"},
	}
	for _, tt := range tests {
		out, errOut, code := runCLI(t, "", tt.args...)
		if code != ExitError || out != "" || errOut != tt.want {
			t.Errorf("sitetxt %s = exit %d, %q, %q; want exit 2 and %q", strings.Join(tt.args, " "), code, out, errOut, tt.want)
		}
	}
}

// TestHelpUsageFirst: --help starts with the usage line, then the prose.
func TestHelpUsageFirst(t *testing.T) {
	for _, args := range [][]string{{"check", "--help"}, {"help", "audit"}, {"--help"}} {
		out, _, code := runCLI(t, "", args...)
		lines := strings.SplitN(out, "\n", 4)
		if code != ExitOK || len(lines) < 4 || lines[0] != "Usage:" || !strings.HasPrefix(lines[1], "  sitetxt") || lines[2] != "" {
			t.Errorf("sitetxt %s: help starts %q, want Usage:, the usage line, a blank line, then the prose", strings.Join(args, " "), lines)
		}
		if !strings.Contains(out, "Flags:") {
			t.Errorf("sitetxt %s: help lacks the flags:\n%s", strings.Join(args, " "), out)
		}
	}
}

// TestColorFlag: --color=always colours into a pipe, --color=never not
// on a terminal; auto colours a terminal unless NO_COLOR or TERM=dumb.
func TestColorFlag(t *testing.T) {
	robots := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(robots, []byte("User-agent: *\nDisallow: /x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		terminal bool
		env      map[string]string
		flag     string
		colour   bool
	}{
		{true, nil, "", true},
		{true, nil, "--color=auto", true},
		{true, map[string]string{"TERM": "dumb"}, "", false},
		{true, map[string]string{"NO_COLOR": "1"}, "", false},
		{true, nil, "--color=never", false},
		{true, map[string]string{"NO_COLOR": "1"}, "--color=always", true},
		{false, nil, "", false},
		{false, nil, "--color=ALWAYS", true},
	} {
		args := []string{"check", robots, "/x"}
		if tt.flag != "" {
			args = append([]string{tt.flag}, args...)
		}
		var out string
		if tt.terminal {
			out, _, _ = runTerminal(t, tt.env, args...)
		} else {
			out, _, _ = runCLI(t, "", args...)
		}
		if got := strings.Contains(out, "\x1b["); got != tt.colour {
			t.Errorf("sitetxt %s (terminal %v, env %v): colour %v, want %v", strings.Join(args, " "), tt.terminal, tt.env, got, tt.colour)
		}
	}
}

// TestManPages: "sitetxt man DIR" writes a page per command from the
// command tree, each naming its command and its flags.
func TestManPages(t *testing.T) {
	dir := t.TempDir()
	_, errOut, code := runCLI(t, "", "man", dir)
	if code != ExitOK || !strings.Contains(errOut, "man pages written to "+dir) {
		t.Fatalf("sitetxt man = exit %d, %q", code, errOut)
	}
	root := NewRootCmd(System())
	for _, c := range root.Commands() {
		if !c.IsAvailableCommand() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, "sitetxt-"+c.Name()+".1"))
		if err != nil {
			t.Errorf("no man page for %s: %v", c.Name(), err)
			continue
		}
		if !strings.Contains(string(b), ".TH \"SITETXT\" \"1\"") || !strings.Contains(string(b), "sitetxt-"+c.Name()+" - ") {
			t.Errorf("sitetxt-%s.1 does not look like its man page:\n%.300s", c.Name(), b)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "sitetxt-check.1"))
	if !strings.Contains(string(b), "\\fB--agent\\fP=\"*\"") || strings.Contains(string(b), "\"\\fI\"") {
		t.Errorf("sitetxt-check.1 lacks --agent with its default \"*\" (a '*' read as Markdown starts italics)")
	}
}

// TestOneErrorStyle: every error is one line on standard error, "sitetxt: "
// then a message starting in lower case (or a quote, a name, a path) and
// with no trailing period, whichever part of sitetxt or cobra found it.
func TestOneErrorStyle(t *testing.T) {
	chdirRoot(t)
	style := regexp.MustCompile(`^sitetxt: [^A-Z].*[^.]$`)
	for _, args := range [][]string{
		{"chek"}, {"check"}, {"check", "--agnet", "x"}, {"check", "-o", "yaml", "-", "/"},
		{"check", "--profile", "nope", "-", "/"}, {"check", "no-such-file.txt", "/"}, {"check", "--timeout", "x", "-", "/"},
		{"lint", "-Z"}, {"help", "nope"}, {"completion", "tcsh"}, {"agents", "-"}, {"datasets", "--base", "/x", "-"},
		{"audit", "--path", "https://x/", "-"}, {"man"}, {"check", "--agent", "a", "--agent", "b", "-", "/"},
	} {
		_, errOut, code := runCLI(t, "", args...)
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		if code != ExitError || len(lines) != 1 || !style.MatchString(lines[0]) {
			t.Errorf("sitetxt %s = exit %d, stderr %q; want exit 2 and one line in the error style", strings.Join(args, " "), code, errOut)
		}
	}
}
