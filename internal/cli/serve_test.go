package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestServeUsageErrors(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "token")
	os.WriteFile(empty, []byte("\n"), 0o600)
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"serve", "--profile", "bing"}, "unknown profile"},
		{[]string{"serve", "--max-urls", "0"}, "must be positive"},
		{[]string{"serve", "--log-format", "xml"}, "unknown --log-format"},
		{[]string{"serve", "--token-file", empty}, "is empty"},
		{[]string{"serve", "--token-file", filepath.Join(t.TempDir(), "none")}, "--token-file"},
		{[]string{"serve", "--redis", "http://x"}, "--redis"},
		{[]string{"serve", "--listen", "256.0.0.1:99999"}, "--listen"},
		{[]string{"serve", "extra"}, "needs 0 argument"},
	} {
		_, stderr, code := runCLI(t, "", tc.args...)
		if code != ExitError || !strings.Contains(stderr, tc.msg) {
			t.Errorf("sitetxt %s = exit %d, %q; want exit 2 mentioning %q", strings.Join(tc.args, " "), code, stderr, tc.msg)
		}
	}
}

// TestServeRun: the README's command, with no Redis, answers, and stops
// cleanly when its context ends (as on SIGTERM).
func TestServeRun(t *testing.T) {
	var errOut syncBuffer
	ios := &IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: &errOut,
		Getenv: func(string) string { return "" }, IsTerminal: func(io.Writer) bool { return false }}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr := make(chan string, 1)
	opts := &serveOptions{IO: ios, Listen: "127.0.0.1:0", Profile: "rfc9309", Timeout: 5e9, ReqTimeout: 5e9, MaxURLs: 10, MaxBody: 1 << 20,
		Grace: 5e9, LogFormat: "json", LogLevel: "info", ready: func(a string) { addr <- a }}
	done := make(chan error, 1)
	go func() { done <- serveRun(ctx, opts) }()
	base := "http://" + <-addr
	resp, err := http.Post(base+"/v1/check", "application/json", strings.NewReader(`{"agent":"ExampleBot","urls":["ftp://x/"]}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"reason":"not an http or https URL"`) {
		t.Errorf("POST /v1/check = %d %s", resp.StatusCode, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serveRun() after cancel = %v, want nil", err)
	}
	for _, want := range []string{`"msg":"serving"`, `"msg":"request"`, `"msg":"stopped"`} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, errOut.String())
		}
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
