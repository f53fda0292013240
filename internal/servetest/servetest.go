// Package servetest runs "sitetxt serve" processes for tests. A process
// listens on a port the kernel chooses (--listen 127.0.0.1:0) and Start
// learns which from its "serving" log line: a port the test picked and
// freed for the process could meanwhile be given to a server of another
// package tested beside it (go test runs packages in parallel), and the
// process would then fail to listen, or the test would talk to the wrong
// server.
package servetest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sync"
	"testing"
	"time"
)

// ReadyWithin bounds how long Start waits for the "serving" line: a
// process forked on a loaded two-core machine running the race detector
// can take seconds to get there.
const ReadyWithin = 60 * time.Second

// Process is a running "sitetxt serve".
type Process struct {
	Addr string    // host:port it listens on, from its "serving" line
	Cmd  *exec.Cmd // Cmd.Process.Pid for its memory; Wait, not Cmd.Wait, to wait for its end
	log  stderr
	done chan struct{} // closed when the process has exited
	err  error         // Cmd.Wait's, once done is closed
}

// Start runs bin with args, which must make it serve on port 0 and log
// at level info (the "serving" line), e.g. "serve", "--listen",
// "127.0.0.1:0", in either log format. It returns once the process
// listens, or an error with its standard error if it exits first or
// does not listen within ReadyWithin. The process is killed when the test
// ends. Start may be called from any goroutine.
func Start(t testing.TB, bin string, args ...string) (*Process, error) {
	p := &Process{Cmd: exec.Command(bin, args...), done: make(chan struct{})}
	p.log.addr = make(chan string, 1)
	p.Cmd.Stderr = &p.log
	if err := p.Cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		p.err = p.Cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(p.Kill)
	select {
	case p.Addr = <-p.log.addr:
		return p, nil
	case <-p.done:
		return nil, fmt.Errorf("%s exited before it listened: %v; stderr:\n%s", bin, p.err, p.Log())
	case <-time.After(ReadyWithin):
		p.Kill()
		return nil, fmt.Errorf("%s did not listen within %v; stderr:\n%s", bin, ReadyWithin, p.Log())
	}
}

// Log returns what the process has written to standard error.
func (p *Process) Log() string { return p.log.String() }

// Signal sends sig to the process.
func (p *Process) Signal(sig os.Signal) error { return p.Cmd.Process.Signal(sig) }

// Wait waits for the process to exit and returns how (exec.Cmd.Wait's
// error).
func (p *Process) Wait() error {
	<-p.done
	return p.err
}

// Kill kills the process and waits for it to exit.
func (p *Process) Kill() {
	p.Cmd.Process.Kill()
	<-p.done
}

// serving finds the address in the "serving" line of either log format:
// msg=serving addr=127.0.0.1:41005 or "msg":"serving","addr":"[::1]:41005".
var serving = regexp.MustCompile(`msg"?[=:]"?serving"?[ ,]"?addr"?[=:]"?([^" ]+)`)

// stderr keeps a process's standard error, written by exec's goroutine,
// and sends the address of the first "serving" line on addr.
type stderr struct {
	mu    sync.Mutex
	b     bytes.Buffer
	seen  int         // bytes of b looked at for the line
	addr  chan string // set before the process starts; gets one address
	found bool
}

func (s *stderr) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Write(p)
	for !s.found {
		i := bytes.IndexByte(s.b.Bytes()[s.seen:], '\n')
		if i < 0 {
			break
		}
		line := s.b.Bytes()[s.seen : s.seen+i]
		s.seen += i + 1
		if m := serving.FindSubmatch(line); m != nil {
			s.addr <- string(m[1])
			s.found = true
		}
	}
	return len(p), nil
}

func (s *stderr) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
