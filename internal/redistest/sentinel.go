package redistest

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Sentinels are a primary, its replica and three Sentinels watching the
// primary as SentinelMaster, which they take for down after a second
// without an answer and replace by the replica (a quorum of two).
type Sentinels struct {
	Primary, Replica *Server
	Sentinels        []*Server
}

// SentinelMaster is the name the Sentinels know the primary by.
const SentinelMaster = "sitetxt"

// StartSentinels starts Sentinels, or skips t with a message when
// redis-server or redis-sentinel (Debian packages redis-server and
// redis-sentinel) is not installed. It returns once every Sentinel
// knows the replica; the servers stop when the test ends.
func StartSentinels(t testing.TB) *Sentinels {
	t.Helper()
	sentinel := lookPath("redis-sentinel")
	if Path() == "" || sentinel == "" {
		t.Skip("redis-server or redis-sentinel is not installed (Debian packages redis-server, redis-sentinel); skipping the test that needs Sentinels")
	}
	st := &Sentinels{Primary: Start(t), Replica: &Server{path: Path()}}
	dir := t.TempDir() // the replica writes the copy it syncs there
	err := st.Replica.startFree(t, func(port int) []string {
		return []string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
			"--protected-mode", "no", "--replicaof", "127.0.0.1", strconv.Itoa(st.Primary.port), "--dir", dir}
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		s := &Server{path: sentinel, ready: "+monitor master"}
		err := s.startFree(t, func(port int) []string {
			conf := filepath.Join(dir, fmt.Sprintf("sentinel-%d.conf", i))
			os.WriteFile(conf, []byte(fmt.Sprintf("port %d\nbind 127.0.0.1\nprotected-mode no\ndir %s\n"+
				"sentinel monitor %s 127.0.0.1 %d 2\nsentinel down-after-milliseconds %[3]s 1000\nsentinel failover-timeout %[3]s 5000\n",
				port, dir, SentinelMaster, st.Primary.port)), 0o600)
			return []string{conf}
		})
		if err != nil {
			t.Fatal(err)
		}
		st.Sentinels = append(st.Sentinels, s)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		known := 0
		for _, s := range st.Sentinels {
			if field(s.Addr, "num-slaves") == "1" && field(s.Addr, "num-other-sentinels") == "2" {
				known++
			}
		}
		if known == len(st.Sentinels) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Sentinels did not all learn of the replica and of each other within 30 s")
		}
	}
}

// field returns a field of SENTINEL MASTER at the Sentinel at addr.
func field(addr, name string) string {
	r, err := Command(addr, "SENTINEL", "MASTER", SentinelMaster)
	if err != nil {
		return ""
	}
	f := strings.Split(r, "\n")
	for i := 0; i+1 < len(f); i += 2 {
		if f[i] == name {
			return f[i+1]
		}
	}
	return ""
}

// Addrs returns the Sentinels' addresses.
func (st *Sentinels) Addrs() []string {
	var out []string
	for _, s := range st.Sentinels {
		out = append(out, s.Addr)
	}
	return out
}

// PrimaryAddr returns the address the Sentinels name as the primary's.
func (st *Sentinels) PrimaryAddr() (string, error) {
	var err error
	for _, s := range st.Sentinels {
		var r string
		if r, err = Command(s.Addr, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", SentinelMaster); err == nil {
			host, port, _ := strings.Cut(r, "\n")
			return net.JoinHostPort(host, port), nil
		}
	}
	return "", err
}
