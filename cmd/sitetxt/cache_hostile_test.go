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
