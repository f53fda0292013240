package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionFromBuild builds sitetxt as a user's go build or go install
// does (VCS stamping on) and checks that --version names the revision Go
// recorded, with the Go version (issue 35, item 5).
func TestVersionFromBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin := filepath.Join(t.TempDir(), "sitetxt")
	if out, err := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -buildvcs=true: %v\n%s", err, out)
	}
	info, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	var rev, goVersion string
	for _, l := range strings.Split(string(info), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 2 && strings.HasPrefix(f[1], "go1"):
			goVersion = f[1]
		case len(f) == 2 && f[0] == "build" && strings.HasPrefix(f[1], "vcs.revision="):
			rev = strings.TrimPrefix(f[1], "vcs.revision=")
		}
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	if !strings.HasPrefix(got, "sitetxt version ") || !strings.HasSuffix(got, ", "+goVersion+"\n") {
		t.Errorf("sitetxt --version = %q, want the version and %s", got, goVersion)
	}
	if rev == "" {
		t.Skipf("go build recorded no VCS revision here (not a git clone, or a git worktree): --version = %q", got)
	}
	if !strings.Contains(got, "(revision "+rev[:12]) {
		t.Errorf("sitetxt --version = %q, want the revision %s", got, rev[:12])
	}
}
