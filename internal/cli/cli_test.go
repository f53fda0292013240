package cli

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenDir is resolved before any test changes directory.
var goldenDir, _ = filepath.Abs(filepath.Join("..", "..", "testdata", "golden"))

// runCLI runs sitetxt in memory and returns its output and exit code.
func runCLI(t testing.TB, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	ios := &IOStreams{
		In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut,
		Getenv:     func(string) string { return "" },
		IsTerminal: func(io.Writer) bool { return false },
	}
	code = Run(ios, args)
	return out.String(), errOut.String(), code
}

// golden compares got with the golden file testdata/golden/name, or
// rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(goldenDir, name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/cli -update)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run go test ./internal/cli -update to accept):\n%s", path, got)
	}
}

// chdirRoot runs the test from the repository root, so file names in
// golden output read as a user would type them.
func chdirRoot(t *testing.T) {
	t.Helper()
	t.Chdir(filepath.Join("..", ".."))
}
