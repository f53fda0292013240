// Package redistest starts a real redis-server for tests: on a free
// loopback port, without persistence, stopped when the test ends. Tests
// that use it skip, saying why, where redis-server is not installed (the
// Debian package redis-server; .ci/run installs it).
package redistest

import (
	"bufio"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// Server is a running redis-server (or redis-sentinel).
type Server struct {
	Addr string // 127.0.0.1:port
	cmd  *exec.Cmd
	path string
	port int
	// args are the server's own, after its port (a cluster node's, a
	// Sentinel's configuration file); ready is the line it writes once it
	// accepts connections.
	args  []string
	ready string
}

// Path returns the redis-server executable, or "" when there is none.
func Path() string {
	p, err := exec.LookPath("redis-server")
	if err != nil {
		return ""
	}
	return p
}

// Start starts redis-server on a free loopback port, or skips t with a
// message when it is not installed.
func Start(t testing.TB) *Server {
	t.Helper()
	p := Path()
	if p == "" {
		t.Skip("redis-server is not installed (Debian package redis-server); skipping the test that needs a real Redis")
	}
	s := &Server{path: p}
	if err := s.startFree(t, nil); err != nil {
		t.Fatal(err)
	}
	return s
}

// startFree starts s on a free loopback port, the args given by args for
// that port, and stops it when the test ends. The port is free when
// FreePort returns it, but a server of another package tested beside
// this one may take it before redis-server binds it; redis-server then
// exits, and another port is tried.
func (s *Server) startFree(t testing.TB, args func(port int) []string) error {
	var err error
	for range 5 {
		s.port = sitetest.FreePort(t)
		if args != nil {
			s.args = args(s.port)
		}
		if err = s.start(); err == nil {
			break
		}
	}
	if err != nil {
		return err
	}
	s.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port))
	t.Cleanup(s.Stop)
	return nil
}

// URL returns redis://Addr/0.
func (s *Server) URL() string { return "redis://" + s.Addr + "/0" }

func (s *Server) start() error {
	args := s.args
	if args == nil {
		args = []string{"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "no"}
	}
	ready := s.ready
	if ready == "" {
		ready = "Ready to accept connections"
	}
	cmd := exec.Command(s.path, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("redis-server: %v", err)
	}
	isReady := make(chan bool, 1)
	var said []string // its output until it is ready or exits
	go func() {
		sc := bufio.NewScanner(out)
		sent := false
		for sc.Scan() {
			if !sent && strings.Contains(sc.Text(), ready) {
				isReady <- true
				sent = true
			} else if !sent {
				said = append(said, sc.Text())
			}
		}
		if !sent {
			isReady <- false
		}
	}()
	select {
	case ok := <-isReady:
		if !ok {
			cmd.Process.Kill()
			cmd.Wait()
			return fmt.Errorf("redis-server on port %d exited before it was ready:\n%s", s.port, strings.Join(said, "\n"))
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		return fmt.Errorf("redis-server on port %d not ready within 30s", s.port)
	}
	s.cmd = cmd
	return nil
}

// Stop kills redis-server (its data is gone: it keeps none on disk).
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.cmd = nil
}

// Restart stops redis-server and starts it again on the same port, empty.
// It may be called from any goroutine.
func (s *Server) Restart() error {
	s.Stop()
	var err error
	for i := 0; i < 50; i++ { // the port may take a moment to be free
		if err = s.start(); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// Pause makes redis-server answer no client for d (CLIENT PAUSE): a Redis
// that is there and does not answer, as one that is overloaded. It returns
// once the pause has begun, so a command sent after it is not answered
// until d has passed since.
func (s *Server) Pause(d time.Duration) error {
	c, err := net.DialTimeout("tcp", s.Addr, 10*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	ms := strconv.FormatInt(d.Milliseconds(), 10)
	if _, err := fmt.Fprintf(c, "*3\r\n$6\r\nCLIENT\r\n$5\r\nPAUSE\r\n$%d\r\n%s\r\n", len(ms), ms); err != nil {
		return err
	}
	reply, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if reply != "+OK\r\n" {
		return fmt.Errorf("CLIENT PAUSE %s: %q", ms, reply)
	}
	return nil
}
