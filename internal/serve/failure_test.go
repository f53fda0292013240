package serve

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// TestFailuresLookAlike: a stranger cannot tell why a robots.txt could
// not be fetched below HTTP: a service that sends a banner (a Redis
// error line), a closed port, a port that never answers, a reset, a TLS
// handshake with a server that is not TLS, a name the resolver (at an
// internal address) does not know all get the same words, with no
// banner, address, resolver or cause in the answer; the server's log
// keeps the detail.
func TestFailuresLookAlike(t *testing.T) {
	banner := sitetest.Raw(t, func(c net.Conn) {
		// The banner answers the request, as a Redis would: sent before
		// the request it would be an unsolicited response, which the
		// client reports in other words, by timing.
		http.ReadRequest(bufio.NewReader(c))
		io.WriteString(c, "-ERR wrong number of arguments SECRETBANNER\r\n")
		c.Close()
	})
	silent := sitetest.Raw(t, func(c net.Conn) {
		time.Sleep(5 * time.Second)
		c.Close()
	})
	reset := sitetest.Raw(t, func(c net.Conn) {
		c.(*net.TCPConn).SetLinger(0)
		c.Close()
	})
	plain, _ := newSite(t, nil, nil)
	closed := fmt.Sprintf("127.0.0.1:%d", sitetest.RefusedPort(t))
	tr := newTransport(true)
	dial := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if strings.HasPrefix(addr, "intranet.example") {
			// What the resolver says of a name it does not know, naming itself.
			return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: "intranet.example", Server: "10.9.8.7:53", IsNotFound: true}}
		}
		return dial(ctx, network, addr)
	}
	var logs bytes.Buffer
	var mu sync.Mutex
	h := New(Config{AllowPrivate: true, Transport: tr, FetchTimeout: 500 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&lockedWriter{w: &logs, mu: &mu}, nil))}).Handler()
	cases := map[string]string{
		"banner": "http://" + banner + "/x", "closed port": "http://" + closed + "/x", "no answer": "http://" + silent + "/x",
		"reset": "http://" + reset + "/x", "tls to plain": strings.Replace(plain.URL, "http:", "https:", 1) + "/x",
		"unknown name": "http://intranet.example/x",
	}
	var names, urls []string
	for name, u := range cases {
		names, urls = append(names, name), append(urls, u)
	}
	code, resp, body := post(t, h, checkBody("ExampleBot", urls...), "")
	if code != 200 || len(resp.Results) != len(urls) {
		t.Fatalf("POST = %d %s", code, body)
	}
	for i, d := range resp.Results {
		if d.Fetch == nil || d.Fetch.Error != noAnswer || d.Reason != "unreachable: everything is disallowed (RFC 9309 2.3.1.4)" || d.Allowed {
			t.Errorf("%s: fetch %+v, reason %q; want disallowed, %q and the reason without its cause", names[i], d.Fetch, d.Reason, noAnswer)
		}
	}
	for _, leak := range []string{"SECRETBANNER", "ERR", "10.9.8.7", "refused", "reset", "timeout", "within", "tls", "TLS", "no such host", "malformed"} {
		if strings.Contains(body, leak) {
			t.Errorf("the answer says %q: %s", leak, body)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, detail := range []string{"malformed HTTP", "10.9.8.7", "connection refused", "no answer within"} {
		if !strings.Contains(logs.String(), detail) {
			t.Errorf("the server's log lacks %q:\n%s", detail, logs.String())
		}
	}
}

// TestStaleCopyPublic: when a site that served robots.txt becomes
// unreachable and its expired copy stands in (RFC 9309 2.4), the answer
// follows the copy (status 200) and still tells the failure in public
// words.
func TestStaleCopyPublic(t *testing.T) {
	var down atomic.Bool
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			c, _, _ := http.NewResponseController(w).Hijack()
			io.WriteString(c, "SSH-2.0-OpenSSH_9.2 SECRETBANNER\r\n")
			c.Close()
			return
		}
		w.Header().Set("Cache-Control", "max-age=0")
		io.WriteString(w, siteRobots)
	}))
	defer site.Close()
	h := New(Config{AllowPrivate: true, Logger: quiet()}).Handler()
	post(t, h, checkBody("ExampleBot", site.URL+"/private/x"), "")
	down.Store(true)
	_, resp, body := post(t, h, checkBody("ExampleBot", site.URL+"/private/x"), "")
	if len(resp.Results) != 1 {
		t.Fatalf("answer %s", body)
	}
	d := resp.Results[0]
	if d.Allowed || d.Rule == nil || d.Fetch == nil || d.Fetch.Status != 200 || d.Fetch.Error != noAnswer || strings.Contains(body, "SECRETBANNER") {
		t.Errorf("decision from a stale copy = %s; want the copy's rule, status 200, %q and no banner", body, noAnswer)
	}
}

// TestSharedFailurePublic: a failure one serve stored in Redis for the
// fleet is told by another in the same public words.
func TestSharedFailurePublic(t *testing.T) {
	srv := redistest.Start(t)
	banner := sitetest.Raw(t, func(c net.Conn) {
		io.WriteString(c, "-ERR unknown command SECRETBANNER\r\n")
		c.Close()
	})
	var results []Result
	for range 2 {
		rc, err := rediscache.Open(srv.URL(), rediscache.Options{Logger: quiet(), Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		h := New(Config{AllowPrivate: true, Logger: quiet(), Cache: rc, Redis: rc}).Handler()
		_, resp, body := post(t, h, checkBody("ExampleBot", "http://"+banner+"/x"), "")
		if len(resp.Results) != 1 || strings.Contains(body, "SECRETBANNER") {
			t.Fatalf("answer %s", body)
		}
		results = append(results, resp.Results[0])
	}
	for i, d := range results {
		if d.Fetch == nil || d.Fetch.Error != noAnswer {
			t.Errorf("serve %d: fetch %+v, want %q", i+1, d.Fetch, noAnswer)
		}
	}
}

// TestHostileRedisReplies: serve with a Redis that answers every command
// with an array (the wrong type for each), or every GET with a 200 MB
// value: decisions still come, from direct fetches, well within the
// request's time (before: 45 s per new site), and /healthz says Redis is
// failing and the class of the cause (health_test.go: the details).
func TestHostileRedisReplies(t *testing.T) {
	chunk := strings.Repeat("x", 1<<20)
	for _, tc := range []struct {
		name  string
		reply func(cmd []string, w io.Writer)
	}{
		{"arrays", func(cmd []string, w io.Writer) { io.WriteString(w, "*2\r\n$1\r\na\r\n$1\r\nb\r\n") }},
		{"200 MB values", func(cmd []string, w io.Writer) {
			switch strings.ToUpper(cmd[0]) {
			case "GET":
				fmt.Fprintf(w, "$%d\r\n", 200<<20)
				for range 200 {
					if _, err := io.WriteString(w, chunk); err != nil {
						return
					}
				}
			case "PING":
				io.WriteString(w, "+PONG\r\n")
			case "SET": // a value stored, a lease taken
				io.WriteString(w, "+OK\r\n")
			default:
				io.WriteString(w, ":1\r\n")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc, err := rediscache.Open(redistest.Fake(t, tc.reply), rediscache.Options{Logger: quiet()})
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			site, n := newSite(t, nil, nil)
			h := New(Config{AllowPrivate: true, Logger: quiet(), Redis: rc, Cache: rc}).Handler()
			start := time.Now()
			code, resp, body := post(t, h, checkBody("ExampleBot", site.URL+"/private/x", site.URL+"/public"), "")
			took := time.Since(start)
			if code != 200 || len(resp.Results) != 2 || resp.Results[0].Allowed || !resp.Results[1].Allowed {
				t.Fatalf("POST /v1/check with a Redis answering %s = %d %s", tc.name, code, body)
			}
			t.Logf("a new site decided in %v with a Redis answering %s (%d fetch)", took, tc.name, n.Load())
			if took > 10*time.Second {
				t.Errorf("a new site took %v to decide, want well within the request's time", took)
			}
			_, health := get(t, h, "/healthz")
			if !strings.Contains(health, `"redis":"failing","redis_cause":"bad-reply"`) {
				t.Errorf("GET /healthz = %s; want redis failing, a bad reply", health)
			}
		})
	}
}
