package cli

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// TestNotes: limits and defaults are never silent; each says so once on
// standard error, and -q silences notes (issue 15, point 9).
func TestNotes(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.txt")
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for b.Len() < 520<<10 {
		b.WriteString("Disallow: /some/long/path/to/fill/the/file\n")
	}
	if err := os.WriteFile(big, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	longLine := filepath.Join(dir, "long.txt")
	if err := os.WriteFile(longLine, []byte("User-agent: *\nDisallow: /"+strings.Repeat("a", 20000)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow: /x\n"))
	}))
	defer srv.Close()
	tests := []struct {
		name string
		args []string
		note string
	}{
		{"over 500 KiB", []string{"check", big, "/x"}, "only the first"},
		{"long line", []string{"check", longLine, "/x"}, "1 line longer than the line limit"},
		{"product token", []string{"check", "--agent", "FooBot/2.1 (+https://foo.example/bot)", big, "/x"}, `read as the crawler name "FooBot"`},
		{"cache-dir is a file", []string{"check", "--cache-dir", notDir, srv.URL + "/", "/x"}, "is not a directory"},
		{"matrix product token", []string{"matrix", "--agent", "Mozilla/5.0 (compatible; A/1)", longLine, "/x"}, `crawler name "Mozilla"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, _ := runCLI(t, "", tt.args...)
			if !strings.Contains(stderr, "sitetxt: note: ") || !strings.Contains(stderr, tt.note) {
				t.Errorf("sitetxt %q: stderr %q, want a note with %q", tt.args, stderr, tt.note)
			}
			if n := strings.Count(stderr, tt.note); n != 1 {
				t.Errorf("sitetxt %q: the note is printed %d times, want once", tt.args, n)
			}
			_, stderr, _ = runCLI(t, "", append([]string{"-q"}, tt.args...)...)
			if strings.Contains(stderr, "note:") {
				t.Errorf("sitetxt -q %q: stderr %q, want no note", tt.args, stderr)
			}
		})
	}
}

// TestHostileEndlessStdin: an endless standard input stops at the limit
// with a warning, as SOURCE and as a stream of URLs (issue 13, point 6).
// It reads 64 MiB, so it runs in the slow tier (go test -tags slow).
func TestHostileEndlessStdin(t *testing.T) {
	slowtest.Only(t, "reads 64 MiB")
	endless := &repeatReader{s: "Disallow: /x\n"}
	var out, errOut strings.Builder
	ios := &IOStreams{In: endless, Out: &out, ErrOut: &errOut, Getenv: func(string) string { return "" }}
	code := Run(ios, []string{"check", "-", "/x"})
	if code == ExitError || !strings.Contains(errOut.String(), "sitetxt: warning: <stdin>: input is longer than") {
		t.Errorf("check - on endless input: exit %d, stderr %q; want a warning that reading stopped", code, errOut.String())
	}
	// One endless line of URLs: an error at the line limit, exit 2.
	out.Reset()
	errOut.Reset()
	ios.In = &repeatReader{s: "/aaaaaaaaaaaaaaaa"}
	fict := filepath.Join("..", "..", "testdata", "robots", "fict.org.txt")
	code = Run(ios, []string{"check", "--urls", "-", fict})
	if code != ExitError || !strings.Contains(errOut.String(), "cannot read <stdin>") {
		t.Errorf("check --urls - on an endless line: exit %d, stderr %q; want exit 2 and why", code, errOut.String())
	}
}

type repeatReader struct {
	s string
	i int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = r.s[r.i]
		r.i = (r.i + 1) % len(r.s)
	}
	return len(p), nil
}

// TestTLSFlags: --ca-file trusts a test server's certificate; without it
// the fetch fails with the TLS cause, exit 2; --insecure warns.
func TestTLSFlags(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/.well-known/") {
			http.NotFound(w, r) // no key directory
			return
		}
		w.Write([]byte("User-agent: *\nDisallow: /x\n"))
	}))
	defer srv.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(ca, pemBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"untrusted", []string{"check", "--no-cache", srv.URL + "/", "/x"}, ExitError, "certificate"},
		{"ca-file", []string{"check", "--no-cache", "--ca-file", ca, srv.URL + "/", "/x"}, ExitFindings, ""},
		{"insecure", []string{"check", "-q", "--no-cache", "--insecure", srv.URL + "/", "/x"}, ExitFindings, "sitetxt: warning: --insecure"},
		{"bad ca-file", []string{"check", "--ca-file", filepath.Join(t.TempDir(), "none.pem"), srv.URL + "/", "/x"}, ExitError, "--ca-file"},
		{"fetch ca-file", []string{"fetch", "--no-cache", "--ca-file", ca, srv.URL + "/"}, ExitOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, "", tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.stderr) || (tt.stderr == "" && stderr != "") {
				t.Errorf("sitetxt %q = exit %d, %q, stderr %q; want exit %d and %q on stderr", tt.args, code, stdout, stderr, tt.code, tt.stderr)
			}
		})
	}
}

// TestUsageExitCodes: unknown help topics and shells are usage errors.
func TestUsageExitCodes(t *testing.T) {
	for _, args := range [][]string{{"help", "bogus"}, {"completion", "tcsh"}, {"bogus"}, {"check", "--bogus"}} {
		stdout, stderr, code := runCLI(t, "", args...)
		if code != ExitError || !strings.HasPrefix(stderr, "sitetxt: ") || stdout != "" {
			t.Errorf("sitetxt %q = exit %d, %q, stderr %q; want exit 2, an error and no help page", args, code, stdout, stderr)
		}
	}
	for _, args := range [][]string{{"help"}, {"help", "check"}, {"completion", "bash"}} {
		if _, stderr, code := runCLI(t, "", args...); code != ExitOK {
			t.Errorf("sitetxt %q = exit %d, %s; want 0", args, code, stderr)
		}
	}
}
