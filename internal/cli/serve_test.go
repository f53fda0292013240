package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/internal/sitetest"
)

func TestServeUsageErrors(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "token")
	os.WriteFile(empty, []byte("\n"), 0o600)
	short := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(short, []byte("fifteen bytes..\n"), 0o600)
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
		{[]string{"serve", "--pace-lines", "sometimes"}, "--pace-lines"},
		{[]string{"serve", "--pace-default", "-1s"}, "must not be negative"},
		{[]string{"serve", "--pace-horizon", "-1s"}, "must not be negative"},
		{[]string{"serve", "--pace-secret-file", short}, "at least 16"},
		{[]string{"serve", "--pace-secret-file", filepath.Join(t.TempDir(), "none")}, "--pace-secret-file"},
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
	rs := startServe(t, nil)
	resp, err := http.Post(rs.base+"/v1/check", "application/json", strings.NewReader(`{"agent":"ExampleBot","urls":["ftp://x/"]}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"reason":"not an http or https URL"`) {
		t.Errorf("POST /v1/check = %d %s", resp.StatusCode, body)
	}
	if err := rs.stop(); err != nil {
		t.Errorf("serveRun() after cancel = %v, want nil", err)
	}
	for _, want := range []string{`"msg":"serving"`, `"msg":"request"`, `"msg":"stopped"`} {
		if !strings.Contains(rs.log.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, rs.log.String())
		}
	}
}

// TestServePaceSecretFile: two serve processes given one
// --pace-secret-file take each other's tickets; a third, with another
// secret, refuses them.
func TestServePaceSecretFile(t *testing.T) {
	site := sitetest.New(t, map[string]string{"/robots.txt": "User-agent: *\nDisallow: /private/\n"})
	dir := t.TempDir()
	secret, other := filepath.Join(dir, "secret"), filepath.Join(dir, "other")
	os.WriteFile(secret, []byte("the fleet's secret, 32 bytes long\n"), 0o600)
	os.WriteFile(other, []byte("another fleet's secret, as long\n"), 0o600)
	start := func(file string) *runningServe {
		return startServe(t, func(o *serveOptions) { o.AllowPrivate, o.SecretFile = true, file })
	}
	a, b, c := start(secret), start(secret), start(other)
	post := func(url, body string) (int, map[string]any) {
		resp, err := http.Post(url, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	_, acq := post(a.base+"/v1/acquire", `{"url":"`+site.URL+`/x","agent":"ExampleBot"}`)
	report := `{"url":"` + site.URL + `/x","agent":"ExampleBot","status":200,"ticket":"` + fmt.Sprint(acq["ticket"]) + `"}`
	for _, tc := range []struct {
		name string
		rs   *runningServe
		code int
	}{{"the same secret", b, 200}, {"another secret", c, 403}} {
		if code, out := post(tc.rs.base+"/v1/report", report); code != tc.code {
			t.Errorf("a ticket of process 1 reported to a process with %s: %d %v; want %d", tc.name, code, out, tc.code)
		}
	}
}

// runningServe is a "sitetxt serve" started by startServe.
type runningServe struct {
	base string      // http://127.0.0.1:port
	log  *syncBuffer // its standard error: the JSON log
	stop func() error
}

// startServe runs serveRun with the options the README's command gives
// (loopback, JSON log), changed by set, until stop: stop ends it as
// SIGTERM does and returns what serveRun returned. The test's end stops
// it too.
func startServe(t *testing.T, set func(*serveOptions)) *runningServe {
	t.Helper()
	rs := &runningServe{log: &syncBuffer{}}
	ios := &IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: rs.log,
		Getenv: func(string) string { return "" }, IsTerminal: func(io.Writer) bool { return false }}
	addr := make(chan string, 1)
	opts := &serveOptions{IO: ios, Listen: "127.0.0.1:0", Profile: "rfc9309", Timeout: 5e9, ReqTimeout: 5e9, MaxURLs: 10, MaxBody: 1 << 20,
		Grace: 5e9, LogFormat: "json", LogLevel: "info", ready: func(a string) { addr <- a }}
	if set != nil {
		set(opts)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveRun(ctx, opts) }()
	var once sync.Once
	var err error
	rs.stop = func() error {
		once.Do(func() { cancel(); err = <-done })
		return err
	}
	t.Cleanup(func() { rs.stop() })
	select {
	case a := <-addr:
		rs.base = "http://" + a
	case err := <-done:
		done <- err // for stop, at the test's end
		t.Fatalf("serveRun() = %v before it was ready", err)
	}
	return rs
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

// TestServeRedisDownLogsOnce: Redis that stops answering (CLIENT PAUSE,
// so each command runs past --redis-timeout, the "context deadline
// exceeded" of before) is one warning line naming the server and the
// cause in words, however many requests meet it, and one line when it is
// back; decisions go on meanwhile. The deadline is 2 s, not the default
// 250 ms, which a loaded machine can miss outside the pause (a second
// pair of lines).
func TestServeRedisDownLogsOnce(t *testing.T) {
	srv := redistest.Start(t)
	sites := make([]*httptest.Server, 5) // five origins, each its own robots.txt to look up
	for i := range sites {
		sites[i] = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
		}))
		defer sites[i].Close()
	}
	const timeout, pause = 2 * time.Second, 5 * time.Second
	rs := startServe(t, func(o *serveOptions) {
		o.Redis.URL, o.RedisTimeout, o.AllowPrivate = srv.URL(), timeout, true
	})
	base := rs.base
	check := func(site *httptest.Server, path string) {
		t.Helper()
		resp, err := http.Post(base+"/v1/check", "application/json", strings.NewReader(`{"agent":"ExampleBot","urls":["`+site.URL+path+`"]}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), `"allowed":`+strconv.FormatBool(!strings.HasPrefix(path, "/private/"))) {
			t.Errorf("POST /v1/check %s = %d %s", path, resp.StatusCode, body)
		}
	}
	check(sites[0], "/a")
	paused := time.Now()
	if err := srv.Pause(pause); err != nil {
		t.Fatal(err)
	}
	for _, site := range sites[1:4] {
		check(site, "/private/x") // each asks Redis, or finds it backed off
	}
	// Redis answers again once the pause is over, and is asked again once
	// the backoff is: ask until it is back, for up to 30 s after that.
	time.Sleep(time.Until(paused.Add(pause)))
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		check(sites[4], "/b")
		if strings.Contains(rs.log.String(), "redis reachable again") || time.Now().After(deadline) {
			break
		}
	}
	rs.stop()
	logs := rs.log.String()
	down := strings.Count(logs, "redis unreachable")
	if down != 1 || strings.Count(logs, "redis reachable again") != 1 {
		t.Errorf("log has %d 'redis unreachable' and %d 'reachable again' lines, want 1 each:\n%s", down, strings.Count(logs, "redis reachable again"), logs)
	}
	for _, want := range []string{`"redis":"` + srv.Addr + `"`, `"cause":"no answer within 2s (--redis-timeout)"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %s:\n%s", want, logs)
		}
	}
	if strings.Contains(logs, `"context deadline exceeded"`) {
		t.Errorf("log has a bare context deadline exceeded:\n%s", logs)
	}
}

// TestServeRedisDownAtStart: a Redis that is not there when serve starts
// is one warning line (not one from the start and one from the cache),
// and decisions are answered.
func TestServeRedisDownAtStart(t *testing.T) {
	redisAddr := "127.0.0.1:" + strconv.Itoa(sitetest.RefusedPort(t))
	rs := startServe(t, func(o *serveOptions) {
		o.Redis.URL, o.RedisTimeout = "redis://"+redisAddr+"/0", 250*time.Millisecond
	})
	resp, err := http.Post(rs.base+"/v1/check", "application/json", strings.NewReader(`{"agent":"ExampleBot","urls":["http://127.0.0.1:1/x"]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	rs.stop()
	logs := rs.log.String()
	if n := strings.Count(logs, "redis unreachable"); n != 1 || !strings.Contains(logs, `"redis":"`+redisAddr+`"`) || resp.StatusCode != 200 {
		t.Errorf("status %d; log has %d 'redis unreachable' lines, want 1 naming %s:\n%s", resp.StatusCode, n, redisAddr, logs)
	}
}

// TestServeHost: --host names what serve answers to; a request by its
// address is then a 421, one naming the host is answered.
func TestServeHost(t *testing.T) {
	rs := startServe(t, func(o *serveOptions) { o.Hosts = []string{"Robots.Internal"} })
	for _, tc := range []struct {
		host string
		code int
	}{{"", http.StatusMisdirectedRequest}, {"robots.internal:8080", 200}, {"attacker.example", http.StatusMisdirectedRequest}} {
		req, _ := http.NewRequest("GET", rs.base+"/healthz", nil)
		if tc.host != "" {
			req.Host = tc.host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("GET /healthz with Host %q under --host Robots.Internal = %d, want %d", tc.host, resp.StatusCode, tc.code)
		}
	}
}
