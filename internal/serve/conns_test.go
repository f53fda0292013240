package serve

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// idleConn opens a connection to addr, makes one keep-alive request on it
// and leaves it idle; it returns the connection and its reader.
func idleConn(t testing.TB, addr string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	if _, err := fmt.Fprint(c, "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("idle connection: %v", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	c.SetReadDeadline(time.Time{})
	return c, br
}

// healthz asks addr for /healthz on a new connection, returning the
// status and the time it took, or an error after 30 s.
func healthz(addr string) (int, time.Duration, error) {
	start := time.Now()
	c, err := net.DialTimeout("tcp", addr, 30*time.Second)
	if err != nil {
		return 0, 0, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	fmt.Fprint(c, "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, time.Since(start), err
	}
	resp.Body.Close()
	return resp.StatusCode, time.Since(start), nil
}

// closedByServer reports whether the server has closed c (a read sees the
// end within 200 ms; a busy machine may miss it, so callers poll).
func closedByServer(c net.Conn, br *bufio.Reader) bool {
	c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	_, err := br.ReadByte()
	return err == io.EOF || err != nil && !strings.Contains(err.Error(), "timeout")
}

// TestConnsEvictIdle: past MaxIdleConns, an idle connection is closed;
// with every connection held (idle ones and a silent one), a new client
// is answered, an idle connection closed for it rather than the silent
// one.
func TestConnsEvictIdle(t *testing.T) {
	s := New(Config{Logger: quiet(), MaxConns: 5, MaxIdleConns: 3})
	addr := serveLoopback(t, s)
	var conns []net.Conn
	var readers []*bufio.Reader
	seen := map[int]bool{} // closed by the server: a closed connection stays closed
	// closed counts the connections seen closed, looking again until want
	// are or 30 s pass (under load a read's deadline may pass before the
	// end is read).
	closed := func(want int) int {
		for deadline := time.Now().Add(30 * time.Second); ; {
			for i := range conns {
				if !seen[i] && closedByServer(conns[i], readers[i]) {
					seen[i] = true
				}
			}
			if len(seen) >= want || time.Now().After(deadline) {
				return len(seen)
			}
		}
	}
	evicted := func(want int64) {
		t.Helper()
		// A connection falls idle just after its answer: wait for the
		// count, up to 30 s.
		for deadline := time.Now().Add(30 * time.Second); s.pool.Load().evicted.Load() < want && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		if n := s.pool.Load().evicted.Load(); n != want {
			t.Fatalf("%d connections closed for newer ones, want %d", n, want)
		}
	}
	for range 4 {
		c, br := idleConn(t, addr)
		defer c.Close()
		conns, readers = append(conns, c), append(readers, br)
	}
	evicted(1)
	if n := closed(1); n != 1 {
		t.Errorf("4 idle connections with MaxIdleConns 3: %d closed, want 1", n)
	}
	silent, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	time.Sleep(1100 * time.Millisecond) // silent past freshGrace
	// Held: 3 idle and the silent one, of 5; a fifth (just connected, so
	// not taken for silent), then a new client, which needs room: an idle
	// connection is closed for it.
	fifth, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer fifth.Close()
	if code, _, err := healthz(addr); err != nil || code != 200 {
		t.Fatalf("GET /healthz with every connection held = %d, %v; want 200", code, err)
	}
	evicted(2)
	if n := closed(2); n != 2 {
		t.Errorf("%d of the idle connections closed, want 2 (one for the idle bound, one for the new client)", n)
	}
	if closedByServer(silent, bufio.NewReader(silent)) {
		t.Errorf("the silent connection was closed before an idle one")
	}
}

// TestHostileIdleConns (slow tier) holds 1,024 idle keep-alive
// connections, the default MaxConns, and keeps renewing them (a client
// opening a new one whenever one is closed, about 100 a second): /healthz
// is still answered within a second, each of 20 times. Before
// (netutil.LimitListener), it was not answered for the 120 s idle
// timeout.
func TestHostileIdleConns(t *testing.T) {
	slowtest.Only(t, "holds 1,024 connections")
	s := New(Config{Logger: quiet()})
	addr := serveLoopback(t, s)
	var (
		mu    sync.Mutex
		conns []net.Conn
	)
	defer func() {
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	}()
	for range DefaultMaxConns {
		c, _ := idleConn(t, addr)
		conns = append(conns, c)
	}
	stop := make(chan struct{})
	renewed := make(chan int)
	go func() { // the attacker renews what it loses
		n := 0
		defer func() { renewed <- n }()
		for {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
			c, err := net.Dial("tcp", addr)
			if err != nil {
				continue
			}
			fmt.Fprint(c, "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
			n++
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	var worst time.Duration
	for i := range 20 {
		code, d, err := healthz(addr)
		if err != nil || code != 200 {
			t.Fatalf("GET /healthz %d under 1,024 idle connections: %d, %v", i, code, err)
		}
		worst = max(worst, d)
		time.Sleep(50 * time.Millisecond)
	}
	close(stop)
	n := <-renewed
	t.Logf("1,024 idle connections, %d renewed: /healthz answered 20 times, the slowest in %v; %d connections closed for newer ones",
		n, worst, s.pool.Load().evicted.Load())
	if worst > time.Second {
		t.Errorf("/healthz took %v under 1,024 idle connections; want within 1 s", worst)
	}
}

// TestHostileSlowUploads holds 45 chunked uploads to /v1/check that send
// a few bytes and stall (no Content-Length: before, each reserved the
// whole 1 MiB body's share of the budget, and every API call got 503 for
// the read timeout); a normal request is still answered, since the
// budget is charged as the bytes arrive.
func TestHostileSlowUploads(t *testing.T) {
	s := New(Config{Logger: quiet(), ReadTimeout: time.Minute})
	s.requests.wait = 2 * time.Second
	addr := serveLoopback(t, s)
	for i := range 45 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprint(c, "POST /v1/check HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
		fmt.Fprintf(c, "4\r\n{\"a%d\r\n", i%10) // 4 bytes of a body that never ends
	}
	// Wait until every upload is admitted (holds its base charge and the
	// bytes it sent): the request below must come after them all.
	for deadline := time.Now().Add(30 * time.Second); s.requests.usedBytes() < 45*requestBase; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("45 slow uploads not all admitted after 30 s (%d bytes of the budget held)", s.requests.usedBytes())
		}
	}
	body := checkBody("ExampleBot", "ftp://example.org/x")
	resp, err := http.Post("http://"+addr+"/v1/check", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("POST /v1/check while 45 slow uploads are open = %d %s, want 200", resp.StatusCode, b)
	}
}

// TestConnsMetrics: /metrics counts the connections held and those
// closed for newer ones.
func TestConnsMetrics(t *testing.T) {
	s := New(Config{Logger: quiet(), MaxConns: 4, MaxIdleConns: 1})
	addr := serveLoopback(t, s)
	for range 3 {
		c, _ := idleConn(t, addr)
		defer c.Close()
	}
	// The last connection falls idle just after its answer was sent: look
	// again for up to 30 s (a loaded machine may take more than the 2 s
	// this waited before).
	var body string
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, body = get(t, s.Handler(), "/metrics"); strings.Contains(body, "sitetxt_client_connections_evicted_total 2") || time.Now().After(deadline) {
			break
		}
	}
	for _, want := range []string{"sitetxt_client_connections 1", "sitetxt_client_connections_evicted_total 2"} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

// usedBytes returns how many bytes of the budget are held now.
func (b *budget) usedBytes() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}
