package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	buildMu  sync.Mutex
	binDir   string
	binPaths = map[string]string{}
)

// build builds the main package pkg once (without the race detector, as a
// user would) for the tests that run it as a process.
func build(t *testing.T, pkg string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a binary")
	}
	buildMu.Lock()
	defer buildMu.Unlock()
	if p, ok := binPaths[pkg]; ok {
		return p
	}
	if binDir == "" {
		dir, err := os.MkdirTemp("", "sitetxt-test")
		if err != nil {
			t.Fatal(err)
		}
		binDir = dir
	}
	name := filepath.Base(pkg)
	if pkg == "." {
		name = "sitetxt"
	}
	p := filepath.Join(binDir, name)
	if out, err := exec.Command("go", "build", "-o", p, pkg).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	binPaths[pkg] = p
	return p
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// TestREADMEMainCommand builds the binary and runs the README's main
// command, as a new user would from the repository root.
func TestREADMEMainCommand(t *testing.T) {
	bin := build(t, ".")
	root := filepath.Join("..", "..")
	f, err := os.Open(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var line string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if strings.Contains(sc.Text(), "# the main job") {
			line = strings.TrimSpace(sc.Text()[:strings.Index(sc.Text(), "#")])
			break
		}
	}
	const prefix = "go run ./cmd/sitetxt "
	if !strings.HasPrefix(line, prefix) {
		t.Fatalf("README has no %q line marked '# the main job'", prefix)
	}
	cmd := exec.Command(bin, strings.Fields(strings.TrimPrefix(line, prefix))...)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	// The README says the main command exits 1: /org/plans.html is
	// disallowed, and names its rule.
	if code != 1 || !strings.Contains(string(out), "disallowed /org/plans.html: testdata/robots/fict.org.txt:12: Disallow: /org/plans.html") {
		t.Errorf("%s: exit %d, output:\n%s", line, code, out)
	}
	t.Logf("%s:\n%s", line, out)
}

// TestREADMETour runs every command of the README's Tour that needs no
// network, through a shell, from the repository root, with the built
// sitetxt first on PATH: each must answer (exit 0 or 1) and print something.
func TestREADMETour(t *testing.T) {
	bin := build(t, ".")
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, "## Tour")
	if start < 0 {
		t.Fatal("README has no Tour")
	}
	block := text[start:]
	block = block[strings.Index(block, "```sh\n")+6:]
	block = block[:strings.Index(block, "```")]
	block = strings.ReplaceAll(block, "\\\n", " ")
	var cmds []string
	for _, l := range strings.Split(block, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "# ") && strings.Contains(l, "needs a network") {
			break
		}
		if l != "" && !strings.HasPrefix(l, "#") {
			cmds = append(cmds, l)
		}
	}
	if len(cmds) < 8 {
		t.Fatalf("found %d Tour commands, want at least 8", len(cmds))
	}
	for _, c := range cmds {
		t.Run(c, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", c)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
			out, err := cmd.Output()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code > 1 || len(out) == 0 {
				t.Errorf("exit %d, %d bytes of output", code, len(out))
			}
		})
	}
}

// TestREADMETestTimes: the README says how long its test command takes
// with an empty and with a warm build cache, each measured (wall time,
// the load it was measured at, and the CPU time the load does not
// change), and how to empty each cache; not a figure without its load
// (issue 50, item 6).
func TestREADMETestTimes(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	for _, want := range []string{
		"| empty (`GOCACHE=$(mktemp -d)`) |",
		"| warm, test results cleared (`go clean -testcache`) |",
		"| warm, nothing changed |",
		"| build cache | wall time | load average | CPU (user + system) |",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
	if strings.Contains(text, "near a minute") {
		t.Errorf("README.md still gives the test command's time unmeasured (\"near a minute\")")
	}
}
