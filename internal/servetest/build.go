package servetest

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Build builds the sitetxt command from this repository's source into
// the test's directory and returns its path. It builds in the main
// module's root, so that a test of another module in the repository
// (integrations/colly) gets the command of the source beside it.
func Build(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("servetest: cannot find the repository's source")
	}
	bin := filepath.Join(t.TempDir(), "sitetxt")
	build := exec.Command("go", "build", "-o", bin, "./cmd/sitetxt")
	build.Dir = filepath.Join(filepath.Dir(file), "..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/sitetxt: %v\n%s", err, out)
	}
	return bin
}
