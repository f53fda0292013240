package serve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/sitetxt/sitetxt/internal/sitetest"
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
	s := New(Config{Logger: quiet()})
	h := s.Handler()
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
		if tt.code == 404 {
			for _, p := range s.routes {
				if method, path, _ := strings.Cut(p, " "); method == "POST" && !strings.Contains(w.Body.String(), path) {
					t.Errorf("the 404 does not name %s: %s", p, w.Body.String())
				}
			}
		}
	}
}

// TestOneOriginOneFetch: spellings of one origin (leading zeros in the
// port, the default port, case, a final dot, IPv4 in inet_aton's forms,
// IPv4-mapped IPv6, an internationalised name in Unicode and in
// Punycode, full-width letters) share one fetch, and the Host header
// sent is the canonical one.
func TestOneOriginOneFetch(t *testing.T) {
	for _, tc := range []struct {
		name  string
		hosts []string
		want  string // the Host header
	}{
		{"address", []string{"127.0.0.1:%s", "127.0.0.1:0%s", "127.0.0.1:000%s", "127.0.0.1.:%s", "[::ffff:127.0.0.1]:%s",
			"[::ffff:7f00:1]:%s", "127.1:%s", "0x7f.0.0.1:%s", "0177.0.0.1:%s", "2130706433:%s", "127.000.000.001:%s"}, "127.0.0.1:%s"},
		{"name", []string{"bücher.example", "BÜCHER.Example.", "xn--bcher-kva.example:80", "XN--BCHER-KVA.EXAMPLE:0080", "b%C3%BCcher.example"}, "xn--bcher-kva.example"},
		{"width", []string{"ｅｘａｍｐｌｅ.org", "example.org", "EXAMPLE.ORG.", "example。org", "example.org:080"}, "example.org"},
		{"zone IDs", zoneSpellings(1000), "[::1]:%s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var n atomic.Int64
			hosts := make(chan string, 100)
			site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n.Add(1)
				select {
				case hosts <- r.Host:
				default: // more fetches than the test expects: counted, not waited for
				}
				time.Sleep(50 * time.Millisecond) // the spellings arrive while it is in flight
				io.WriteString(w, siteRobots)
			}))
			defer site.Close()
			_, port, _ := net.SplitHostPort(site.Listener.Addr().String())
			tr := newTransport(true)
			tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, network, site.Listener.Addr().String()) // every name is this site
			}
			h := New(Config{AllowPrivate: true, Logger: quiet(), Transport: tr}).Handler()
			var urls []string
			for _, hp := range tc.hosts {
				if strings.Contains(hp, "%s") {
					hp = fmt.Sprintf(hp, port)
				}
				urls = append(urls, "HTTP://"+hp+"/public", "http://"+hp+"/private/x")
			}
			code, resp, body := post(t, h, checkBody("ExampleBot", urls...), "")
			if code != 200 || len(resp.Results) != len(urls) {
				t.Fatalf("POST = %d %s", code, body)
			}
			for i, d := range resp.Results {
				if d.Error != "" || d.Fetch == nil || d.Fetch.Meaning != "parse" || d.Allowed != (i%2 == 0) {
					t.Errorf("result for %s = %+v, want decided from the site's robots.txt", d.URL, d)
				}
			}
			if got := n.Load(); got != 1 {
				t.Errorf("%d spellings of one origin fetched robots.txt %d times, want 1", len(tc.hosts), got)
			}
			want := tc.want
			if strings.Contains(want, "%s") {
				want = fmt.Sprintf(want, port)
			}
			if got := <-hosts; got != want {
				t.Errorf("Host header sent = %q, want the canonical %q", got, want)
			}
		})
	}
}

// zoneSpellings returns n spellings of [::1]:PORT with IPv6 zone IDs
// (RFC 6874: "%25" then the zone), each its own, as the format strings
// of TestOneOriginOneFetch: %s stands for the port, %% for %.
func zoneSpellings(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("[::1%%%%25z%d]:%%s", i)
	}
	return out
}

// TestTesterQueryOneFetch: 30 tester requests naming a site's robots.txt
// with a different query each (robots.txt has none: RFC 9309 2.3) make
// one fetch.
func TestTesterQueryOneFetch(t *testing.T) {
	site, n := newSite(t, nil, nil)
	h := New(Config{AllowPrivate: true, Logger: quiet()}).Handler()
	for i := range 30 {
		code, body := postJSON(t, h, "/v1/test", map[string]any{"site": fmt.Sprintf("%s/robots.txt?q=%d", site.URL, i), "urls": []string{"/private/x"}})
		if code != 200 || !strings.Contains(string(body), `"file":"`+site.URL+`/robots.txt"`) {
			t.Fatalf("POST /v1/test site=robots.txt?q=%d = %d %.300s", i, code, body)
		}
	}
	if got := n.Load(); got != 1 {
		t.Errorf("30 queries on one robots.txt fetched it %d times, want 1", got)
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

// TestGuardRanges: every block of the IANA special-purpose registries
// that is not global (its first and last address), each IPv4 one also
// in every IPv6 form that embeds it, the reserved IPv6 space and this
// host's own addresses are refused by the dialer's Control hook, which
// runs before any connection is attempted; public addresses pass. (No
// address here is dialled: the hook is called as the dialer calls it.)
func TestGuardRanges(t *testing.T) {
	own := map[netip.Addr]bool{netip.MustParseAddr("8.8.4.4"): true, netip.MustParseAddr("2606:4700::6810:1"): true}
	g := guard(func() map[netip.Addr]bool { return own })
	check := func(a netip.Addr, want bool) {
		t.Helper()
		err := g("tcp", netip.AddrPortFrom(a, 80).String(), nil)
		var re *ErrRefused
		if got := errors.As(err, &re); got != want {
			t.Errorf("guard(%s) = %v, want refused %v", a, err, want)
		}
	}
	// The blocks of the IANA IPv4 and IPv6 Special-Purpose Address
	// Registries whose "Globally Reachable" is False or N/A (written here
	// from the registries, not from the guard's table), multicast, and
	// the limited broadcast address. (::ffff:0:0/96 and 2002::/16 are
	// judged by the IPv4 address they embed: their first and last embed
	// 0.0.0.0 and 255.255.255.255.)
	blocks := []string{
		"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
		"192.0.0.0/24", "192.0.0.0/29", "192.0.0.8/32", "192.0.0.170/32", "192.0.0.171/32", "192.0.2.0/24",
		"192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24",
		"224.0.0.0/4", "240.0.0.0/4", "255.255.255.255/32",
		"::1/128", "::/128", "::ffff:0:0/96", "64:ff9b:1::/48", "100::/64", "100:0:0:1::/64", "2001::/23", "2001::/32",
		"2001:2::/48", "2001:10::/28", "2001:db8::/32", "2002::/16", "3fff::/20", "5f00::/16", "fc00::/7", "fe80::/10", "ff00::/8",
	}
	for _, b := range blocks {
		p := netip.MustParsePrefix(b)
		for _, a := range []netip.Addr{p.Masked().Addr(), lastAddr(p)} {
			check(a, true)
			if a.Is4() {
				b := a.As4()
				check(netip.AddrFrom16([16]byte{10: 0xff, 11: 0xff, 12: b[0], 13: b[1], 14: b[2], 15: b[3]}), true)              // IPv4-mapped
				check(netip.AddrFrom16([16]byte{12: b[0], 13: b[1], 14: b[2], 15: b[3]}), true)                                  // IPv4-compatible
				check(netip.AddrFrom16([16]byte{0: 0, 1: 0x64, 2: 0xff, 3: 0x9b, 12: b[0], 13: b[1], 14: b[2], 15: b[3]}), true) // NAT64
				check(netip.AddrFrom16([16]byte{0: 0x20, 1: 0x02, 2: b[0], 3: b[1], 4: b[2], 5: b[3], 15: 1}), true)             // 6to4
			}
		}
	}
	for _, a := range []string{
		"255.255.255.255", "169.254.169.254", "100.100.100.200", "192.0.0.170", "2001::1", "2001:2::1", "2001:db8:1::1",
		"::2", "::8.8.8.8", "::ffff:0:8.8.8.8", "fec0::1", "200::1", "4000::1", "e000::1", "100::1", "64:ff9b:1::808:808",
		"8.8.4.4", "::ffff:8.8.4.4", "2606:4700::6810:1", // this host's own, as the test says
	} {
		check(netip.MustParseAddr(a), true)
	}
	for _, a := range []string{"8.8.8.8", "1.1.1.1", "192.31.196.1", "2606:4700::1111", "2002:808:808::1", "64:ff9b::808:808", "::ffff:8.8.8.8", "2a00:1450::1"} {
		check(netip.MustParseAddr(a), false)
	}
}

// lastAddr returns the last address of p.
func lastAddr(p netip.Prefix) netip.Addr {
	if p.Addr().Is4() {
		b := p.Masked().Addr().As4()
		for i := p.Bits(); i < 32; i++ {
			b[i/8] |= 0x80 >> (i % 8)
		}
		return netip.AddrFrom4(b)
	}
	b := p.Masked().Addr().As16()
	for i := p.Bits(); i < 128; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	return netip.AddrFrom16(b)
}

// TestGuardNoConnection: through the transport serve fetches with, a
// loopback site named by address, by name, in IPv4-mapped and other
// spellings is never connected to: the listener accepts nothing.
func TestGuardNoConnection(t *testing.T) {
	var accepted atomic.Int64
	addr := sitetest.Raw(t, func(c net.Conn) {
		accepted.Add(1)
		c.Close()
	})
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: newTransport(false), Timeout: 5 * time.Second}
	for _, host := range []string{"127.0.0.1", "localhost", "[::ffff:127.0.0.1]", "127.1", "0x7f000001", "[::1]"} {
		resp, err := client.Get(fmt.Sprintf("http://%s:%s/robots.txt", host, port))
		if err == nil {
			resp.Body.Close()
			t.Errorf("GET via %s: %s, want refused", host, resp.Status)
		}
	}
	if n := accepted.Load(); n != 0 {
		t.Errorf("the loopback listener accepted %d connections, want 0", n)
	}
}

// TestBannerNotEchoed: a service that is not HTTP (here it sends a Redis
// error line) is "did not answer over HTTP"; its bytes are not echoed.
func TestBannerNotEchoed(t *testing.T) {
	addr := sitetest.Raw(t, func(c net.Conn) {
		io.WriteString(c, "-ERR wrong number of arguments SECRETBANNER\r\n")
		c.Close()
	})
	h := New(Config{AllowPrivate: true, Logger: quiet()}).Handler()
	code, _, body := post(t, h, checkBody("ExampleBot", "http://"+addr+"/x"), "")
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
	fmt.Fprintf(c, "POST /v1/check HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"agent\":")
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "HTTP/1.1 408") {
		t.Errorf("slow body: status line %q, %v; want 408", line, err)
	}
}

// TestClientLeavesFetchesStop: a client that sends URLs on 2,000
// distinct origins (half of them sites that never answer, half that
// answer slowly) and hangs up after a second leaves no fetch behind: soon
// after, neither serve nor the sites hold a connection (serve keeps none
// alive), and at no moment more than the process-wide cap were open.
func TestClientLeavesFetchesStop(t *testing.T) {
	var open, peak atomic.Int64
	site := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.Host, "slow-") {
			select {
			case <-time.After(300 * time.Millisecond):
				io.WriteString(w, siteRobots)
			case <-r.Context().Done():
			}
			return
		}
		<-r.Context().Done() // never answers
	}))
	var atSite atomic.Int64 // connections the site holds
	site.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		switch st {
		case http.StateNew:
			atSite.Add(1)
		case http.StateClosed, http.StateHijacked:
			atSite.Add(-1)
		}
	}
	site.Start()
	defer site.Close()
	addr := site.Listener.Addr().String()
	tr := newTransport(true)
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr) // every origin is this loopback site
		if err != nil {
			return nil, err
		}
		n := open.Add(1) // serve's outbound connections: counted from the dial to the close
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		return &closeCounted{Conn: c, open: &open}, nil
	}
	const cap = 16
	h := New(Config{AllowPrivate: true, Logger: quiet(), Transport: tr, MaxFetches: cap,
		FetchTimeout: time.Minute, RequestTimeout: time.Minute}).Handler()
	urls := make([]string, 2000)
	for i := range urls {
		urls[i] = fmt.Sprintf("http://site-%d.test/x", i)
		if i%2 == 0 {
			urls[i] = fmt.Sprintf("http://slow-%d.test/x", i)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req := jsonRequestWithContext(ctx, "POST", "/v1/check", strings.NewReader(checkBody("ExampleBot", urls...)))
	h.ServeHTTP(httptest.NewRecorder(), req)
	time.Sleep(3 * time.Second)
	// The closes reach the site's server asynchronously: on a busy
	// machine, look again for up to 30 s more. Serve keeps no connection
	// alive, so all end; a fetch left behind would hold one to a site that
	// never answers for the fetch timeout of a minute.
	for deadline := time.Now().Add(30 * time.Second); (open.Load() > 0 || atSite.Load() > 0) && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	for what, n := range map[string]int64{"serve holds": open.Load(), "the sites hold": atSite.Load()} {
		if n > cap {
			t.Errorf("after the client left, %s %d connections, more than the cap of %d", what, n, cap)
		} else if n > 0 {
			t.Errorf("after the client left, %s %d connections, want 0 (a fetch went on)", what, n)
		}
	}
	if p := peak.Load(); p > cap {
		t.Errorf("at the peak %d connections were open, more than the cap of %d", p, cap)
	}
}

// closeCounted is a connection that counts itself out of open when closed.
type closeCounted struct {
	net.Conn
	open *atomic.Int64
	once sync.Once
}

func (c *closeCounted) Close() error {
	c.once.Do(func() { c.open.Add(-1) })
	return c.Conn.Close()
}

// TestSharedFetchSurvives: when one of two requests waiting for the same
// robots.txt leaves, the fetch goes on for the other, which gets its
// decision; one request to the site in all. It runs in a synctest bubble
// with the site in process, so that synctest.Wait tells when each request
// waits for the fetch (before, a 100 ms sleep hoped the second had joined
// it: under load it had not, and fetched again).
func TestSharedFetchSurvives(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		var n atomic.Int64
		site := &sitetest.InProcess{Handler: func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/robots.txt" {
				http.NotFound(w, r)
				return
			}
			n.Add(1)
			select {
			case <-release:
				io.WriteString(w, siteRobots)
			case <-r.Context().Done(): // the fetch was canceled, as a connection is closed
			}
		}}
		h := New(Config{AllowPrivate: true, Logger: quiet(), Transport: site}).Handler()
		leaving, leave := context.WithCancel(context.Background())
		go h.ServeHTTP(httptest.NewRecorder(), jsonRequestWithContext(leaving, "POST", "/v1/check",
			strings.NewReader(checkBody("ExampleBot", "http://a.example/public"))))
		synctest.Wait() // the first request waits for robots.txt
		stays := make(chan checkResponse, 1)
		go func() {
			_, resp, _ := post(t, h, checkBody("ExampleBot", "http://a.example/private/x"), "")
			stays <- resp
		}()
		synctest.Wait() // the second waits for the same fetch
		leave()
		synctest.Wait()
		close(release)
		resp := <-stays
		if len(resp.Results) != 1 || resp.Results[0].Fetch == nil || resp.Results[0].Fetch.Meaning != "parse" || resp.Results[0].Allowed {
			t.Errorf("the request that stayed got %+v, want the site's rules (disallowed)", resp.Results)
		}
		if got := n.Load(); got != 1 {
			t.Errorf("robots.txt requests = %d, want 1 (the fetch the two shared)", got)
		}
	})
}

// TestRelativeURLMessage: a path gets advice for an HTTP client, not the
// library's "set Client.BaseURL".
func TestRelativeURLMessage(t *testing.T) {
	h := New(Config{Logger: quiet()}).Handler()
	_, resp, body := post(t, h, checkBody("Bot", "/private/x"), "")
	if len(resp.Results) != 1 || strings.Contains(body, "BaseURL") || !strings.Contains(resp.Results[0].Error, "not an absolute http(s) URL") {
		t.Errorf("POST with a path = %s, want the absolute-URL advice", body)
	}
}
