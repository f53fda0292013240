package cli

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/redistest"
)

func TestServeRedisFlagErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("\n"), 0o600)
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--redis", "redis://127.0.0.1:1/0", "--redis-cluster", "127.0.0.1:7000"}, "give one of --redis, --redis-cluster and --redis-sentinel"},
		{[]string{"--redis-cluster", "127.0.0.1"}, `--redis-cluster: "127.0.0.1": want host:port`},
		{[]string{"--redis-cluster", "127.0.0.1:7000,127.0.0.1:99999"}, "want host:port"},
		{[]string{"--redis-cluster", "redis://:pw@127.0.0.1:7000"}, "not on the command line"},
		{[]string{"--redis-cluster", "rediss://127.0.0.1:7000,redis://127.0.0.1:7001"}, "one scheme"},
		{[]string{"--redis-cluster", "http://127.0.0.1:7000"}, "want host:port, redis://host:port or rediss://host:port"},
		{[]string{"--redis-sentinel", "127.0.0.1:26379"}, "want MASTER@ADDR"},
		{[]string{"--redis-sentinel", "@127.0.0.1:26379"}, "want MASTER@ADDR"},
		{[]string{"--redis-sentinel", "m@127.0.0.1"}, "--redis-sentinel"},
		{[]string{"--redis-cluster", "127.0.0.1:7000", "--redis-password-file", filepath.Join(dir, "none")}, "--redis-password-file"},
		{[]string{"--redis-cluster", "127.0.0.1:7000", "--redis-password-file", empty}, "is empty"},
	} {
		_, stderr, code := runCLI(t, "", append([]string{"serve"}, tc.args...)...)
		if code != ExitError || !strings.Contains(stderr, tc.msg) {
			t.Errorf("sitetxt serve %s = exit %d, %q; want exit 2 mentioning %q", strings.Join(tc.args, " "), code, stderr, tc.msg)
		}
	}
}

func TestSeedAddrs(t *testing.T) {
	addrs, tlsConf, user, err := seedAddrs("rediss://fleet@10.0.0.5:7000, rediss://10.0.0.6:7000")
	if err != nil || strings.Join(addrs, " ") != "10.0.0.5:7000 10.0.0.6:7000" || tlsConf == nil || user != "fleet" {
		t.Errorf("seedAddrs(rediss://...) = %v, %v, %q, %v; want two addresses, TLS, user fleet", addrs, tlsConf, user, err)
	}
	addrs, tlsConf, user, err = seedAddrs("[::1]:7000,127.0.0.1:7001")
	if err != nil || len(addrs) != 2 || tlsConf != nil || user != "" {
		t.Errorf("seedAddrs(host:port,...) = %v, %v, %q, %v; want two addresses, no TLS", addrs, tlsConf, user, err)
	}
}

// TestServeRedisPassword: a Redis that wants a password is up for serve
// given it in --redis-password-file or $REDIS_PASSWORD, and without it
// /healthz says failing, the password refused ("auth"), in our words.
func TestServeRedisPassword(t *testing.T) {
	srv := redistest.Start(t)
	if _, err := redistest.Command(srv.Addr, "CONFIG", "SET", "requirepass", "s3cret pass"); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "password")
	os.WriteFile(file, []byte("s3cret pass\n"), 0o600)
	for _, tc := range []struct {
		name string
		file string
		env  string
		want string
	}{
		{"file", file, "", `"redis":"up"`},
		{"environment", "", "s3cret pass", `"redis":"up"`},
		{"none", "", "", `"redis":"failing","redis_cause":"auth"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := startServe(t, func(o *serveOptions) {
				o.Redis.URL, o.Redis.PasswordFile, o.RedisTimeout = srv.URL(), tc.file, 5*time.Second
				o.IO.Getenv = func(k string) string {
					if k == "REDIS_PASSWORD" {
						return tc.env
					}
					return ""
				}
			})
			resp, err := http.Get(rs.base + "/healthz")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.Contains(string(body), tc.want) || strings.Contains(string(body), "s3cret") {
				t.Errorf("GET /healthz = %s; want %s, and no password", body, tc.want)
			}
		})
	}
}
