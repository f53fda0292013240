package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// TestREADMEServe runs the README's "sitetxt serve" command as a process,
// with no Redis, on a free port: it answers /healthz and /v1/check, and on
// SIGTERM it stops and exits 0.
func TestREADMEServe(t *testing.T) {
	bin := build(t, ".")
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var line string
	for _, l := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(l, "sitetxt serve ") {
			line = l
			break
		}
	}
	if line == "" || strings.Contains(line, "--redis") {
		t.Fatalf("README has no 'sitetxt serve' command without --redis (found %q)", line)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", sitetest.FreePort(t))
	args := strings.Fields(strings.Replace(line, "127.0.0.1:8080", addr, 1))[1:]
	var stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var health string
	for i := 0; i < 100; i++ {
		if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			health = string(b)
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(health, `"redis":"none"`) {
		t.Fatalf("GET /healthz = %q, want ok with redis none; stderr:\n%s", health, stderr.String())
	}
	resp, err := http.Post("http://"+addr+"/v1/check", "application/json",
		strings.NewReader(`{"agent":"ExampleBot","urls":["http://127.0.0.1:1/private/x"]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), "not a public one") {
		t.Errorf("POST /v1/check = %d %s, want 200 with the loopback fetch refused", resp.StatusCode, b)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("sitetxt serve after SIGTERM: %v, want exit 0; stderr:\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "msg=stopped") {
		t.Errorf("stderr lacks the stop line:\n%s", stderr.String())
	}
}
