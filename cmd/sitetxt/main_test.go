package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEMainCommand builds the binary and runs the README's main
// command, as a new user would from the repository root.
func TestREADMEMainCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
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
	bin := filepath.Join(t.TempDir(), "sitetxt")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
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
	// The main command shows a decision; 0 and 1 are both answers.
	if code > 1 || len(out) == 0 {
		t.Errorf("%s: exit %d, output:\n%s", line, code, out)
	}
	t.Logf("%s:\n%s", line, out)
}
