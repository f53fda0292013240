package main

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// run runs sitetxt with args in a child process (testdata/peakrss) and
// returns its exit code, output, peak resident memory in
// bytes and wall time.
func run(t *testing.T, stdin io.Reader, args ...string) (code int, stdout, stderr string, rss int64, took time.Duration) {
	t.Helper()
	cmd := exec.Command(build(t, "./testdata/peakrss"), args...)
	cmd.Stdin = stdin
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	took = time.Since(start)
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	stderr = errOut.String()
	if i := strings.LastIndex(stderr, "\npeak-rss: "); i >= 0 {
		var kb int64
		fmt.Sscanf(stderr[i+len("\npeak-rss: "):], "%d kB", &kb)
		rss, stderr = kb<<10, stderr[:i]
	} else {
		t.Fatalf("the child did not report its memory; stderr %q", stderr)
	}
	return code, out.String(), stderr, rss, took
}

// TestHostileInputs runs the binary on inputs a hostile site could serve
// and checks that it exits normally with bounded memory.
func TestHostileInputs(t *testing.T) {
	slowtest.Only(t, "hostile inputs in a child process")
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	random := make([]byte, 64<<20)
	rand.New(rand.NewSource(1)).Read(random)
	randomFile := write("random.txt", random)
	random = nil
	millionLines := write("million.txt", []byte(strings.Repeat("Disallow: /x\n", 1_000_000)))
	blank := write("blank.txt", bytes.Repeat([]byte("\n"), 64<<20))
	rules := write("rules.txt", append([]byte("User-agent: *\n"), bytes.Repeat([]byte("Disallow: /x*y$\n"), 4<<20)...))
	// Patterns of nothing but '*' (16,000 each, 64 MiB): none may cost a
	// slice entry per '*'.
	starLine := "Disallow: /" + strings.Repeat("*", 16000) + "\n"
	stars := write("stars.txt", []byte("User-agent: *\n"+strings.Repeat(starLine, (64<<20)/len(starLine))))
	nul := write("nul.txt", bytes.Repeat([]byte("User-agent: *\x00\nDisallow: /\x00a\n"), 1000))
	utf8 := write("utf8.txt", bytes.Repeat([]byte("User-agent: \xff\xfe*\nDisallow: /\xc3\x28\n"), 1000))

	const maxRSS = 256 << 20
	tests := []struct {
		name string
		args []string
		// limit overrides maxRSS (no input needs it since compiled
		// wildcard patterns cost no slice entry per '*': the 4 Mi rules,
		// 512,001 of them compiled under google on top of the 64 MiB they
		// were read from, peaked at 189 MiB on 2026-11-22).
		limit int64
		// findings is set where exit 1 (a disallowed URL) is the answer.
		findings bool
	}{
		{"64 MiB of random bytes", []string{"parse", "-o", "json", randomFile}, 0, false},
		{"64 MiB of random bytes, lint", []string{"lint", randomFile}, 0, false},
		{"1,000,000 lines", []string{"parse", "-o", "json", millionLines}, 0, false},
		{"64 Mi blank lines under google (no size limit)", []string{"check", "--profile", "google", blank, "/x"}, 0, false},
		{"4 Mi rules under google (no size limit)", []string{"diff", rules, "/a"}, 0, false},
		{"64 MiB of '*' patterns under google", []string{"check", "--profile", "google", stars, "/x"}, 0, true},
		{"64 MiB of '*' patterns under every profile", []string{"diff", stars, "/x", "/a"}, 0, false},
		{"random bytes under every profile", []string{"diff", randomFile, "/", "/a%2Fb", "/robots.txt?x"}, 0, false},
		{"NUL bytes", []string{"parse", nul}, 0, false},
		{"invalid UTF-8", []string{"parse", "-o", "yaml", utf8}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut, rss, took := run(t, nil, tt.args...)
			t.Logf("exit %d, %d bytes out, peak RSS %d MiB, %v", code, len(out), rss>>20, took)
			if code == 2 || code == 1 && !tt.findings && tt.args[0] != "lint" && tt.args[0] != "diff" {
				t.Errorf("exit %d, stderr %q", code, errOut)
			}
			limit := int64(maxRSS)
			if tt.limit > 0 {
				limit = tt.limit
			}
			if rss > limit {
				t.Errorf("peak RSS %d MiB, want under %d MiB", rss>>20, limit>>20)
			}
		})
	}
}

// endless is a reader that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "Disallow: /x\n"[i%13]
	}
	return len(p), nil
}

// TestHostileEndlessStdin checks that an endless stream on standard input stops
// at the read limit with an error diagnostic.
func TestHostileEndlessStdin(t *testing.T) {
	slowtest.Only(t, "an endless standard input")
	code, _, errOut, rss, took := run(t, endless{}, "lint", "-")
	t.Logf("exit %d, peak RSS %d MiB, %v", code, rss>>20, took)
	if code != 1 {
		t.Errorf("lint - on an endless stream: exit %d, want 1 (an error diagnostic), stderr %q", code, errOut)
	}
	if rss > 256<<20 {
		t.Errorf("peak RSS %d MiB, want under 256 MiB", rss>>20)
	}
}
