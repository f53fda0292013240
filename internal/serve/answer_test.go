package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// hostileRobots is a robots.txt made to be echoed: one group of 20,000
// User-agent lines (ExampleBot among them) whose only rule has a 16 KB
// pattern that matches every path, and 100 usage lines.
func hostileRobots() string {
	var b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&b, "User-agent: bot-%05d\n", i)
	}
	b.WriteString("User-agent: ExampleBot\nDisallow: /" + strings.Repeat("*", 16000) + "\n")
	for range 100 {
		b.WriteString("Content-Usage: train-ai=n\n")
	}
	return b.String()
}

// TestEchoBounded: a site whose robots.txt is made to be echoed (a group
// of 20,000 agents, a 16 KB pattern, 100 usage lines) does not make
// every result of a request large: each result stays under 12 KiB and
// says what it shortened, while its verdict and positions are whole.
func TestEchoBounded(t *testing.T) {
	body := hostileRobots()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) }))
	defer site.Close()
	h := New(Config{AllowPrivate: true, Logger: quiet()}).Handler()
	urls := make([]string, 500)
	for i := range urls {
		urls[i] = fmt.Sprintf("%s/page/%d", site.URL, i)
	}
	req := checkBody("ExampleBot", urls...)
	code, resp, out := post(t, h, req, "")
	if code != 200 || len(resp.Results) != len(urls) {
		t.Fatalf("POST = %d, %d results", code, len(resp.Results))
	}
	if per := len(out) / len(urls); per > 12<<10 {
		t.Errorf("answer of %d bytes for %d URLs (%d a result, the request %d bytes), want under 12 KiB a result", len(out), len(urls), per, len(req))
	}
	d := resp.Results[0]
	if d.Allowed || d.Rule == nil || d.Rule.Line != 20002 || d.Group == nil || d.Group.Line != 1 {
		t.Fatalf("result = %+v, want disallowed by line 20002 in the group at line 1", d)
	}
	want := []string{"rule.pattern", "group.agents"}
	if d.Usage != nil {
		want = append(want, "usage.content_usage.lines")
	}
	if strings.Join(d.Truncated, " ") != strings.Join(want, " ") || len(d.Rule.Pattern) > maxEchoPattern {
		t.Errorf("truncated = %q (pattern %d bytes), want %q", d.Truncated, len(d.Rule.Pattern), want)
	}
}

// TestAnswerInOrder: results come in the order of the URLs whatever
// order they are decided in (sites answering slowly, quickly, and not
// at all), more URLs than the window of results decided ahead.
func TestAnswerInOrder(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var i int
		fmt.Sscanf(r.Host, "s%d.test", &i)
		time.Sleep(time.Duration(i%7) * 3 * time.Millisecond)
		if i%5 == 0 {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, siteRobots)
	}))
	defer site.Close()
	tr := newTransport(true)
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, site.Listener.Addr().String())
	}
	h := New(Config{AllowPrivate: true, Logger: quiet(), Transport: tr}).Handler()
	urls := make([]string, 3*answerWindow+7)
	for i := range urls {
		urls[i] = fmt.Sprintf("http://s%d.test/private/%d", i%150, i)
	}
	code, resp, body := post(t, h, checkBody("ExampleBot", urls...), "")
	if code != 200 || len(resp.Results) != len(urls) {
		t.Fatalf("POST = %d, %d results: %.300s", code, len(resp.Results), body)
	}
	for i, d := range resp.Results {
		if d.URL != urls[i] || d.Allowed != (i%150%5 == 0) {
			t.Errorf("result %d = %s allowed %v, want %s allowed %v", i, d.URL, d.Allowed, urls[i], i%150%5 == 0)
		}
	}
	if !strings.HasPrefix(body, `{"results":[{"url":`) || !strings.HasSuffix(body, "}]}\n") {
		t.Errorf("answer %.40q...%q, want one JSON object", body, body[len(body)-10:])
	}
}

// serveLoopback runs s on a loopback listener until the test ends and
// returns its address.
func serveLoopback(t *testing.T, s *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Serve(ctx, ln, time.Second); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String()
}

// logLines collects the access log lines of a Server.
type logLines struct {
	mu    sync.Mutex
	lines []map[string]any
}

func (l *logLines) Write(b []byte) (int, error) {
	var m map[string]any
	if json.Unmarshal(b, &m) == nil && m["msg"] == "request" {
		l.mu.Lock()
		l.lines = append(l.lines, m)
		l.mu.Unlock()
	}
	return len(b), nil
}

// wait returns the first n request lines, waiting up to 10 s for them.
func (l *logLines) wait(t *testing.T, n int) []map[string]any {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		l.mu.Lock()
		got := l.lines
		l.mu.Unlock()
		if len(got) >= n {
			return got[:n]
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d request log lines, want %d", len(got), n)
		}
	}
}

// TestCutLogged: the access log says what a client really received. A
// client that reads the head of a large answer and hangs up is logged
// with 499 (the status it did not get whole), the status that was sent,
// and the bytes the connection wrote, fewer than the whole answer; one
// that hangs up before the answer is logged with 499 too; one that reads
// it all is logged with 200 and every byte.
func TestCutLogged(t *testing.T) {
	block := make(chan struct{})
	slow, _ := newSite(t, block, nil)
	defer close(block)
	var logs logLines
	s := New(Config{AllowPrivate: true, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	addr := serveLoopback(t, s)
	urls := make([]string, 5000)
	for i := range urls {
		urls[i] = fmt.Sprintf("ftp://%d.example/%s", i, strings.Repeat("x", 100))
	}
	req := checkBody("ExampleBot", urls...)
	send := func() (net.Conn, *bufio.Reader) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "POST /v1/check HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(req), req)
		return c, bufio.NewReader(c)
	}

	// Reads it all.
	c, br := send()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := io.ReadAll(resp.Body)
	c.Close()
	line := logs.wait(t, 1)[0]
	if line["status"] != float64(200) || line["bytes"].(float64) < float64(len(whole)) {
		t.Errorf("log of a whole answer: %v, want status 200 and at least %d bytes", line, len(whole))
	}

	// Reads 1 KB and hangs up.
	c, br = send()
	c.(*net.TCPConn).SetReadBuffer(4 << 10)
	io.ReadFull(br, make([]byte, 1<<10))
	c.(*net.TCPConn).SetLinger(0)
	c.Close()
	line = logs.wait(t, 2)[1]
	t.Logf("whole answer %d bytes; the cut one logged %v", len(whole), line)
	if line["status"] != float64(statusClientGone) || line["sent_status"] != float64(200) || line["bytes"].(float64) >= float64(len(whole)) {
		t.Errorf("log of an answer cut after 1 KB: %v, want status 499, sent_status 200, fewer than %d bytes", line, len(whole))
	}

	// Hangs up while its URL is being decided.
	req = checkBody("ExampleBot", slow.URL+"/x")
	c, _ = send()
	time.Sleep(200 * time.Millisecond)
	c.Close()
	line = logs.wait(t, 3)[2]
	if line["status"] != float64(statusClientGone) {
		t.Errorf("log of a client gone before its answer: %v, want status 499", line)
	}
}

// TestBusy: a request the memory budget cannot take now waits, then gets
// 503 with Retry-After; once the request holding the memory ends, the
// next one is served.
func TestBusy(t *testing.T) {
	block, started := make(chan struct{}), make(chan struct{}, 1)
	site, _ := newSite(t, block, started)
	s := New(Config{AllowPrivate: true, Logger: quiet(), MaxMemory: 8 << 20}) // a quarter for requests: one at a time
	s.requests.wait = 200 * time.Millisecond
	h := s.Handler()
	first := make(chan int, 1)
	go func() {
		code, _, _ := post(t, h, checkBody("ExampleBot", site.URL+"/x"), "")
		first <- code
	}()
	<-started // the first request holds the budget while it waits for robots.txt
	w := httptest.NewRecorder()
	h.ServeHTTP(w, jsonRequest("POST", "/v1/check", strings.NewReader(checkBody("ExampleBot", "ftp://x/"))))
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" || !strings.HasPrefix(w.Body.String(), `{"error":`) {
		t.Errorf("a request past the budget = %d %q (Retry-After %q), want 503 JSON with Retry-After", w.Code, w.Body.String(), w.Header().Get("Retry-After"))
	}
	close(block)
	if code := <-first; code != 200 {
		t.Errorf("the request holding the budget = %d, want 200", code)
	}
	if code, _, _ := post(t, h, checkBody("ExampleBot", "ftp://x/"), ""); code != 200 {
		t.Errorf("a request after the budget freed = %d, want 200", code)
	}
}
