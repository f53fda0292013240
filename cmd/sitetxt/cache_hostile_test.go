package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// TestHostileCacheDir plants in the cache directory what someone with
// write access to it could (a symbolic link to /dev/zero, a FIFO, a
// sparse 1 GiB file) and runs `sitetxt fetch` over it: each entry is a miss,
// the manifests are fetched again, and the process ends at once with
// bounded memory. Before issue 13, the link grew to 4.8 GiB in 30 s and the
// FIFO hung forever.
func TestHostileCacheDir(t *testing.T) {
	slowtest.Only(t, "a hostile cache directory in a child process")
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links and FIFOs: unix only")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
		case "/data.txt":
			io.WriteString(w, "- path: iris.csv\n  name: iris\n")
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	// The DirCache's file name for a key: the first 16 bytes of its SHA-256.
	entry := func(dir, key string) string {
		sum := sha256.Sum256([]byte(key))
		return filepath.Join(dir, hex.EncodeToString(sum[:16])+".cache")
	}
	sparse := filepath.Join(t.TempDir(), "sparse")
	if err := os.WriteFile(sparse, []byte("sitetxt-fetch-cache 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(sparse, 1<<30); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		robots, datas func(path string) error
	}{
		{"a link to /dev/zero and a FIFO",
			func(p string) error { return os.Symlink("/dev/zero", p) },
			func(p string) error { return syscall.Mkfifo(p, 0o600) }},
		{"a 1 GiB file and a link to it",
			func(p string) error { return os.Link(sparse, p) },
			func(p string) error { return os.Symlink(sparse, p) }},
	}
	bin := build(t, "./testdata/peakrss")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := tt.robots(entry(dir, srv.URL+"/robots.txt")); err != nil {
				t.Skipf("cannot plant: %v", err)
			}
			if err := tt.datas(entry(dir, srv.URL+"/data.txt")); err != nil {
				t.Skipf("cannot plant: %v", err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "fetch", "--cache-dir", dir, srv.URL)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			start := time.Now()
			err := cmd.Run()
			took := time.Since(start)
			if ctx.Err() != nil {
				t.Fatalf("sitetxt fetch over %s still running after 60 s", tt.name)
			}
			if err != nil {
				t.Errorf("sitetxt fetch over %s: %v; stderr %q", tt.name, err, errOut.String())
			}
			var kb int64
			if i := strings.LastIndex(errOut.String(), "peak-rss: "); i >= 0 {
				fmt.Sscanf(errOut.String()[i+len("peak-rss: "):], "%d kB", &kb)
			}
			t.Logf("exit ok, peak RSS %d MiB, %v", kb>>10, took)
			if kb<<10 > 256<<20 || kb == 0 {
				t.Errorf("peak RSS %d kB, want a report under 256 MiB", kb)
			}
			if !strings.Contains(out.String(), "fetched") || strings.Contains(out.String(), "cached copy") {
				t.Errorf("sitetxt fetch over %s did not fetch again:\n%s", tt.name, out.String())
			}
		})
	}
}

// TestHostileCacheKills kills "sitetxt fetch --cache-dir" with SIGKILL at
// random moments, 100 times, each on a site not yet cached (a robots.txt
// of 500 KiB, so writes take a while), then lets a minute pass for the
// temporary files left (their times set back) and runs it once more: the
// directory opens with no .tmp-* left. Before, every kill between the
// write and the rename left one for good (about 1 in 120 kills). A cache
// directory others may write to is not used, with a warning.
func TestHostileCacheKills(t *testing.T) {
	slowtest.Only(t, "100 killed child processes")
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL: unix only")
	}
	body := strings.Repeat("Disallow: /private/x\n", 500<<10/21)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\n"+body)
			return
		}
		http.NotFound(w, r)
	}))
	defer site.Close()
	bin := build(t, ".")
	dir := filepath.Join(t.TempDir(), "cache")
	tmps := func() []string {
		m, _ := filepath.Glob(filepath.Join(dir, ".tmp-*"))
		return m
	}
	left := 0
	for i := range 100 {
		// A new origin each time (a port of its own): always a miss, a write.
		ln := httptest.NewServer(site.Config.Handler)
		cmd := exec.Command(bin, "fetch", "--cache-dir", dir, ln.URL)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(5+i%40) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		ln.Close()
		left = len(tmps())
	}
	// Orphans as a kill leaves them, in case the kills left none.
	for i := range 3 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf(".tmp-planted%d", i)), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-2 * time.Minute)
	for _, p := range tmps() {
		os.Chtimes(p, past, past)
	}
	var errOut bytes.Buffer
	cmd := exec.Command(bin, "fetch", "--cache-dir", dir, site.URL)
	cmd.Stderr = &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("sitetxt fetch: %v; stderr %s", err, errOut.String())
	}
	t.Logf("100 kills left %d temporary files; after a minute the next run left %d", left, len(tmps()))
	if m := tmps(); len(m) != 0 {
		t.Errorf("%d temporary files left after the directory was opened again: %v", len(m), m)
	}
	// A cache directory others may write to: not used, and said so.
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	errOut.Reset()
	cmd = exec.Command(bin, "fetch", "--cache-dir", dir, site.URL)
	cmd.Stderr = &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("sitetxt fetch with a 0777 cache directory: %v; stderr %s", err, errOut.String())
	}
	if !strings.Contains(errOut.String(), "writable by other users") {
		t.Errorf("a 0777 cache directory was used silently; stderr %q", errOut.String())
	}
}
