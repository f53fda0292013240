package redistest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// Cluster is a Redis Cluster of real redis-servers on loopback: three
// primaries, each with one replica, made with redis-cli --cluster create.
// A node that does not hear from another for a second takes it for
// failed (cluster-node-timeout 1000), so that a replica is promoted a
// few seconds after its primary is killed.
type Cluster struct {
	Nodes []*Server // the six nodes, in the order given to redis-cli
}

// StartCluster starts a Cluster, each node with the extra arguments
// given ("--cluster-require-full-coverage", "no", say), or skips t with a
// message when redis-server or redis-cli (Debian packages redis-server
// and redis-tools) is not installed. It returns once every slot is
// served, every node says cluster_state:ok and every replica has synced;
// the nodes stop when the test ends.
func StartCluster(t testing.TB, extra ...string) *Cluster {
	t.Helper()
	server, cli := Path(), lookPath("redis-cli")
	if server == "" || cli == "" {
		t.Skip("redis-server or redis-cli is not installed (Debian packages redis-server, redis-tools); skipping the test that needs a real Redis Cluster")
	}
	dir := t.TempDir()
	c := &Cluster{}
	for range 6 {
		s := &Server{path: server}
		err := s.startFree(t, func(port int) []string {
			return append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
				"--protected-mode", "no", "--cluster-enabled", "yes", "--cluster-port", strconv.Itoa(sitetest.FreePort(t)),
				"--cluster-config-file", filepath.Join(dir, fmt.Sprintf("nodes-%d.conf", port)),
				"--cluster-node-timeout", "1000", "--dir", dir,
				// A replica syncs at once (not 5 s later, waiting for others)
				// and may be promoted however long ago it heard from its primary.
				"--repl-diskless-sync-delay", "0", "--cluster-replica-validity-factor", "0"}, extra...)
		})
		if err != nil {
			t.Fatal(err)
		}
		c.Nodes = append(c.Nodes, s)
	}
	args := append([]string{"--cluster", "create"}, c.Addrs()...)
	out, err := exec.Command(cli, append(args, "--cluster-replicas", "1", "--cluster-yes")...).CombinedOutput()
	if err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	if err := c.WaitOK(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	if err := c.waitSynced(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	return c
}

// waitSynced waits until every replica has synced with its primary.
func (c *Cluster) waitSynced(timeout time.Duration) error {
	for deadline := time.Now().Add(timeout); ; time.Sleep(50 * time.Millisecond) {
		synced := 0
		for _, s := range c.Nodes {
			info, err := Command(s.Addr, "INFO", "replication")
			if err == nil && (strings.Contains(info, "role:master") || strings.Contains(info, "master_link_status:up")) {
				synced++
			}
		}
		if synced == len(c.Nodes) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redis cluster: %d of %d nodes synced within %v", synced, len(c.Nodes), timeout)
		}
	}
}

func lookPath(name string) string {
	p, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	return p
}

// Addrs returns the nodes' addresses.
func (c *Cluster) Addrs() []string {
	var out []string
	for _, s := range c.Nodes {
		out = append(out, s.Addr)
	}
	return out
}

// alive returns the nodes not stopped.
func (c *Cluster) alive() []*Server {
	var out []*Server
	for _, s := range c.Nodes {
		if s.cmd != nil {
			out = append(out, s)
		}
	}
	return out
}

// Primaries returns the nodes that are primaries now, as a live node's
// CLUSTER NODES says, in the order of Nodes.
func (c *Cluster) Primaries() ([]*Server, error) {
	var lines string
	var err error
	for _, s := range c.alive() {
		if lines, err = Command(s.Addr, "CLUSTER", "NODES"); err == nil {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	primary := map[string]bool{}
	for _, l := range strings.Split(lines, "\n") {
		f := strings.Fields(l)
		if len(f) > 2 && strings.Contains(f[2], "master") && !strings.Contains(f[2], "fail") {
			addr, _, _ := strings.Cut(f[1], "@")
			primary[addr] = true
		}
	}
	var out []*Server
	for _, s := range c.Nodes {
		if primary[s.Addr] {
			out = append(out, s)
		}
	}
	return out, nil
}

// WaitOK waits until every live node says cluster_state:ok with all 16,384
// slots served, and three primaries are alive.
func (c *Cluster) WaitOK(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		err := c.ok()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redis cluster not ok within %v: %v", timeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (c *Cluster) ok() error {
	for _, s := range c.alive() {
		info, err := Command(s.Addr, "CLUSTER", "INFO")
		if err != nil {
			return err
		}
		if !strings.Contains(info, "cluster_state:ok") || !strings.Contains(info, "cluster_slots_ok:16384") {
			return fmt.Errorf("node %s: %s", s.Addr, strings.Join(strings.Fields(info)[:3], " "))
		}
	}
	p, err := c.Primaries()
	if err != nil {
		return err
	}
	live := 0
	for _, s := range p {
		if s.cmd != nil {
			live++
		}
	}
	if live != 3 {
		return fmt.Errorf("%d live primaries, want 3", live)
	}
	return nil
}

// Keys returns how many keys each primary holds (DBSIZE), by address.
func (c *Cluster) Keys() (map[string]int, error) {
	p, err := c.Primaries()
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, s := range p {
		r, err := Command(s.Addr, "DBSIZE")
		if err != nil {
			return nil, err
		}
		out[s.Addr], _ = strconv.Atoi(r)
	}
	return out, nil
}

// Command sends one command to the Redis at addr on a new connection and
// returns its reply: a simple or bulk string, or a number, as text, the
// elements of a flat array one a line; an error reply is an error.
func Command(addr string, args ...string) (string, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := io.WriteString(c, b.String()); err != nil {
		return "", err
	}
	br := bufio.NewReader(c)
	r, err := readReply(br)
	if err != nil {
		return "", fmt.Errorf("%s: %w", strings.Join(args, " "), err)
	}
	return r, nil
}

// readReply reads one reply of Command's.
func readReply(br *bufio.Reader) (string, error) {
	line, err := br.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	switch {
	case line == "":
		return "", io.ErrUnexpectedEOF
	case line[0] == '-':
		return "", errors.New(line[1:])
	case line[0] == '*':
		n, err := strconv.Atoi(line[1:])
		if err != nil {
			return "", err
		}
		var elems []string
		for range n {
			e, err := readReply(br)
			if err != nil {
				return "", err
			}
			elems = append(elems, e)
		}
		return strings.Join(elems, "\n"), nil
	case line[0] == '$':
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < 0 {
			return "", err
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(br, buf); err != nil {
			return "", err
		}
		return string(buf[:n]), nil
	}
	return line[1:], nil
}
