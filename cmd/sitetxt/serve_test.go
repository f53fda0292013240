package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/sitetxt/sitetxt/internal/servetest"
)

// TestREADMEServe runs the README's "sitetxt serve" command as a process,
// with no Redis, on a port the kernel picks (the README's 127.0.0.1:8080
// made 127.0.0.1:0): it answers /healthz and /v1/check, and on
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
	if line == "" || strings.Contains(line, "--redis") || !strings.Contains(line, "127.0.0.1:8080") {
		t.Fatalf("README has no 'sitetxt serve' command on 127.0.0.1:8080 without --redis (found %q)", line)
	}
	args := strings.Fields(strings.Replace(line, "127.0.0.1:8080", "127.0.0.1:0", 1))[1:]
	p, err := servetest.Start(t, bin, args...)
	if err != nil {
		t.Fatal(err)
	}
	addr := p.Addr
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	health, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(health), `"redis":"none"`) {
		t.Fatalf("GET /healthz = %q, want ok with redis none; stderr:\n%s", health, p.Log())
	}
	resp, err = http.Post("http://"+addr+"/v1/check", "application/json",
		strings.NewReader(`{"agent":"ExampleBot","urls":["http://127.0.0.1:1/private/x"]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), "not a public one") {
		t.Errorf("POST /v1/check = %d %s, want 200 with the loopback fetch refused", resp.StatusCode, b)
	}
	p.Signal(syscall.SIGTERM)
	if err := p.Wait(); err != nil {
		t.Errorf("sitetxt serve after SIGTERM: %v, want exit 0; stderr:\n%s", err, p.Log())
	}
	if !strings.Contains(p.Log(), "msg=stopped") {
		t.Errorf("stderr lacks the stop line:\n%s", p.Log())
	}
}
