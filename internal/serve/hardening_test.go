package serve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestAgentBounded: an agent longer than MaxAgent is a 400 naming the
// limit, and the answer does not echo it.
func TestAgentBounded(t *testing.T) {
	h := New(Config{AllowPrivate: true, Logger: quiet()}).Handler()
	agent := strings.Repeat("A", 100<<10)
	urls := make([]string, 100)
	for i := range urls {
		urls[i] = fmt.Sprintf("http://127.0.0.1:1/%d", i)
	}
	code, _, body := post(t, h, checkBody(agent, urls...), "")
	if code != http.StatusBadRequest || !strings.Contains(body, fmt.Sprint(DefaultMaxAgent)) || len(body) > 1000 {
		t.Errorf("POST /v1/check with a 100 KB agent = %d, %d bytes %.200q; want 400 naming %d, short", code, len(body), body, DefaultMaxAgent)
	}
	code, resp, _ := post(t, h, checkBody(strings.Repeat("B", DefaultMaxAgent), "ftp://x/"), "")
	if code != 200 || len(resp.Results) != 1 {
		t.Errorf("POST /v1/check with an agent of exactly %d bytes = %d, want 200", DefaultMaxAgent, code)
	}
}

// TestNotRoutedIsJSON: an unknown path is a JSON 404, a wrong method a
// JSON 405 with Allow.
func TestNotRoutedIsJSON(t *testing.T) {
	h := New(Config{Logger: quiet()}).Handler()
	for _, tt := range []struct {
		method, path string
		code         int
	}{{"GET", "/nope", 404}, {"GET", "/v1/check", 405}, {"DELETE", "/healthz", 405}} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(tt.method, tt.path, nil))
		if w.Code != tt.code || w.Header().Get("Content-Type") != "application/json" || !strings.HasPrefix(w.Body.String(), `{"error":`) {
			t.Errorf("%s %s = %d %q (%s), want %d JSON", tt.method, tt.path, w.Code, w.Body.String(), w.Header().Get("Content-Type"), tt.code)
		}
		if tt.code == 405 && w.Header().Get("Allow") == "" {
			t.Errorf("%s %s: 405 without Allow", tt.method, tt.path)
		}
	}
}

// TestOneOriginOneFetch: spellings of one origin share one fetch.
func TestOneOriginOneFetch(t *testing.T) {
	site, n := newSite(t, nil, nil)
	h := New(Config{AllowPrivate: true, Logger: quiet()}).Handler()
	port := site.URL[strings.LastIndexByte(site.URL, ':')+1:]
	var urls []string
	for _, hp := range []string{"127.0.0.1:" + port, "127.0.0.1:0" + port, "127.0.0.1:000" + port, "127.0.0.1.:" + port, "[::ffff:127.0.0.1]:" + port} {
		urls = append(urls, "HTTP://"+hp+"/public")
	}
	code, resp, body := post(t, h, checkBody("ExampleBot", urls...), "")
	if code != 200 || len(resp.Results) != len(urls) {
		t.Fatalf("POST = %d %s", code, body)
	}
	if got := n.Load(); got != 1 {
		t.Errorf("%d spellings of one origin fetched robots.txt %d times, want 1", len(urls), got)
	}
}

// TestLongHostNotStored: a 300 KB host name is a bad URL: answered as an
// error, nothing fetched or remembered, the answer a small multiple of
// the request.
func TestLongHostNotStored(t *testing.T) {
	s := New(Config{Logger: quiet()})
	u := "http://" + strings.Repeat("a", 300<<10) + ".example/x"
	req := checkBody("ExampleBot", u)
	code, resp, body := post(t, s.Handler(), req, "")
	if code != 200 || len(resp.Results) != 1 || resp.Results[0].Error == "" {
		t.Fatalf("POST with a 300 KB host = %d, %d results", code, len(resp.Results))
	}
	if len(body) > 3*len(req) {
		t.Errorf("answer %d bytes for a request of %d", len(body), len(req))
	}
	if !strings.Contains(resp.Results[0].Error, "at most 253") {
		t.Errorf("error %.120q, want the limit named", resp.Results[0].Error)
	}
}

// TestGuardRanges: every special-purpose block is refused before any
// connection (the dialer's Control hook fails); public addresses pass.
func TestGuardRanges(t *testing.T) {
	g := guard(map[netip.Addr]bool{netip.MustParseAddr("203.0.113.200"): true, netip.MustParseAddr("8.8.4.4"): true})
	refused := []string{
		"0.1.2.3", "10.1.2.3", "100.64.0.1", "127.0.0.1", "169.254.169.254", "172.16.0.1", "192.0.0.8",
		"192.0.2.1", "192.88.99.1", "192.168.1.1", "198.18.0.1", "198.51.100.7", "203.0.113.9", "224.0.0.1", "240.0.0.1", "255.255.255.255",
		"::", "::1", "::ffff:10.0.0.1", "::10.0.0.1", "::127.0.0.1", "64:ff9b::a00:1", "64:ff9b:1::1", "100::1",
		"2001::1", "2001:2::1", "2001:db8::1", "2002:a00:1::1", "2002:7f00:1::", "3fff::1", "5f00::1", "fc00::1", "fd12::1", "fe80::1", "ff02::1",
		"8.8.4.4", // one of this host's own addresses (as the test says)
	}
	for _, a := range refused {
		if err := g("tcp", net.JoinHostPort(a, "80"), nil); err == nil {
			t.Errorf("guard(%s) = nil, want refused", a)
		}
	}
	for _, a := range []string{"8.8.8.8", "1.1.1.1", "2606:4700::1111", "2002:808:808::1", "64:ff9b::808:808", "::ffff:8.8.8.8"} {
		if err := g("tcp", net.JoinHostPort(a, "80"), nil); err != nil {
			t.Errorf("guard(%s) = %v, want allowed", a, err)
		}
	}
}

// TestBannerNotEchoed: a service that is not HTTP (here it sends a Redis
// error line) is "did not answer over HTTP"; its bytes are not echoed.
func TestBannerNotEchoed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			io.WriteString(c, "-ERR wrong number of arguments SECRETBANNER\r\n")
			c.Close()
		}
	}()
	h := New(Config{AllowPrivate: true, Logger: quiet()}).Handler()
	code, _, body := post(t, h, checkBody("ExampleBot", "http://"+ln.Addr().String()+"/x"), "")
	if code != 200 || strings.Contains(body, "SECRETBANNER") || strings.Contains(body, "ERR") || !strings.Contains(body, "did not answer over HTTP") {
		t.Errorf("POST for a non-HTTP service = %d %s; want the public message and no banner", code, body)
	}
}

// TestSlowBody408: a client too slow to send its body gets 408.
func TestSlowBody408(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Logger: quiet(), ReadTimeout: 300 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Serve(ctx, ln, time.Second)
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /v1/check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"agent\":")
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "HTTP/1.1 408") {
		t.Errorf("slow body: status line %q, %v; want 408", line, err)
	}
}

// TestClientLeavesFetchesStop: a client that sends URLs on 2,000 distinct
// origins and hangs up after a second leaves no fetch behind: 3 s later
// the sites hold no connection from serve, and at no moment more than the
// process-wide cap.
func TestClientLeavesFetchesStop(t *testing.T) {
	var open, peak atomic.Int64
	site := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // never answers: a slow site
	}))
	site.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		switch st {
		case http.StateNew:
			if n := open.Add(1); n > peak.Load() {
				peak.Store(n)
			}
		case http.StateClosed, http.StateHijacked:
			open.Add(-1)
		}
	}
	site.Start()
	defer site.Close()
	addr := site.Listener.Addr().String()
	tr := newTransport(true)
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr) // every origin is this loopback site
	}
	const cap = 16
	h := New(Config{AllowPrivate: true, Logger: quiet(), Transport: tr, MaxFetches: cap}).Handler()
	urls := make([]string, 2000)
	for i := range urls {
		urls[i] = fmt.Sprintf("http://site-%d.test/x", i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req := httptest.NewRequestWithContext(ctx, "POST", "/v1/check", strings.NewReader(checkBody("ExampleBot", urls...)))
	h.ServeHTTP(httptest.NewRecorder(), req)
	time.Sleep(3 * time.Second)
	if n := open.Load(); n > 0 {
		t.Errorf("3 s after the client left, %d connections to the sites are open, want 0", n)
	}
	if p := peak.Load(); p > cap {
		t.Errorf("at the peak %d connections were open, more than the cap of %d", p, cap)
	}
}

// TestRelativeURLMessage: a path gets advice for an HTTP client, not the
// library's "set Client.BaseURL".
func TestRelativeURLMessage(t *testing.T) {
	h := New(Config{Logger: quiet()}).Handler()
	_, resp, body := post(t, h, checkBody("Bot", "/private/x"), "")
	if len(resp.Results) != 1 || strings.Contains(body, "BaseURL") || !strings.Contains(resp.Results[0].Error, "not an absolute URL") {
		t.Errorf("POST with a path = %s, want the absolute-URL advice", body)
	}
}
