package cli

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// findChromium returns the path of a Chromium to run headless, or skips
// the test, saying which check is not run.
func findChromium(t *testing.T, what string) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skipf("Chromium is not installed (Debian package chromium): skipping %s", what)
	return ""
}

// chromiumDOM opens url in headless Chromium (its profile under dir) and
// returns the DOM once the page's scripts have run: virtual time runs up
// to 10 s of the page's timers and waits for its requests, so the dump
// shows what the script wrote after its answers came.
func chromiumDOM(t *testing.T, chrome, dir, url string, extra ...string) string {
	t.Helper()
	return runChromium(t, chrome, dir, append(extra, "--dump-dom", url))
}

// chromiumScreenshot opens url as chromiumDOM does, in a window of size
// ("1280,900"), and writes what it shows, scroll bars hidden, to out
// (PNG).
func chromiumScreenshot(t *testing.T, chrome, dir, url, size, out string) {
	t.Helper()
	runChromium(t, chrome, dir, []string{"--hide-scrollbars", "--window-size=" + size, "--screenshot=" + out, url})
}

// runChromium runs headless Chromium with args after the flags every run
// takes (no sandbox, GPU, network of its own or first-run work; virtual
// time up to 10 s) and returns its standard output.
func runChromium(t *testing.T, chrome, dir string, args []string) string {
	t.Helper()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--virtual-time-budget=10000", "--user-data-dir=" + filepath.Join(dir, "profile")}
	cmd := exec.Command(chrome, append(base, args...)...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("chromium: %v", err)
		}
	case <-time.After(90 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatal("chromium did not finish within 90 s")
	}
	return stdout.String()
}
