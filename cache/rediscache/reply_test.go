package rediscache_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// TestBadReplies asks a Redis that answers wrongly (a loopback server
// speaking RESP, redistest.Fake): an array or a number where a string is
// due, a 200 MB value, a value announced at 100 TB, a line that never
// ends, an array of 100 million elements. Each Get is a miss answered
// from the local copy within a second, allocating at most a few MiB, and
// Health says "failing" with the cause. Before, the driver read the
// 200 MB value whole (325 MiB RSS in serve) and waited for the announced
// one.
func TestBadReplies(t *testing.T) {
	chunk := strings.Repeat("x", 1<<20)
	for _, tc := range []struct {
		name  string
		reply func(w io.Writer)
		want  string // in Health's detail
	}{
		{"array for a string", func(w io.Writer) { io.WriteString(w, "*2\r\n$1\r\na\r\n$1\r\nb\r\n") }, "not a string"},
		{"number for a string", func(w io.Writer) { io.WriteString(w, ":42\r\n") }, "not a string"},
		{"200 MB value", func(w io.Writer) {
			io.WriteString(w, fmt.Sprintf("$%d\r\n", 200<<20))
			for range 200 {
				if _, err := io.WriteString(w, chunk); err != nil {
					return
				}
			}
			io.WriteString(w, "\r\n")
		}, "more than"},
		{"value announced at 100 TB", func(w io.Writer) { io.WriteString(w, "$100000000000000\r\n") }, "more than"},
		{"endless line", func(w io.Writer) {
			io.WriteString(w, "+")
			for range 200 {
				if _, err := io.WriteString(w, chunk); err != nil {
					return
				}
			}
		}, "line longer"},
		{"100 million elements", func(w io.Writer) { io.WriteString(w, "*100000000\r\n") }, "elements"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := redistest.Fake(t, func(cmd []string, w io.Writer) {
				switch strings.ToUpper(cmd[0]) {
				case "GET":
					tc.reply(w)
				case "PING":
					io.WriteString(w, "+PONG\r\n")
				default:
					io.WriteString(w, "+OK\r\n")
				}
			})
			c, err := rediscache.Open(url, rediscache.Options{Logger: slog.New(slog.DiscardHandler), Timeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.Put("k", []byte("the local copy")) // locally, and SET (answered +OK)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			v, ok := c.Get("k")
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			if !ok || string(v) != "the local copy" {
				t.Errorf("Get = %q, %v; want the local copy", v, ok)
			}
			if took > time.Second {
				t.Errorf("Get took %v, want within a second", took)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
				t.Errorf("Get allocated %d MiB, want a few", alloc>>20)
			}
			if h := c.Health(context.Background()); h.State != "failing" || h.Cause != "bad-reply" || !strings.Contains(h.Detail, tc.want) {
				t.Errorf("Health = %+v; want failing, bad-reply, %q", h, tc.want)
			}
			if c.Stats().Errors == 0 {
				t.Errorf("the bad reply was not counted as an error")
			}
		})
	}
}

// TestHealthUp: a real Redis is "up", a port nobody answers "down".
func TestHealthUp(t *testing.T) {
	srv := redistest.Start(t)
	up, err := rediscache.Open(srv.URL(), rediscache.Options{Logger: slog.New(slog.DiscardHandler), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer up.Close()
	up.Put("k", []byte("v"))
	if v, ok := up.Get("k"); !ok || string(v) != "v" {
		t.Errorf("Get from a real Redis = %q, %v", v, ok)
	}
	if h := up.Health(context.Background()); h.State != "up" || h.Cause != "" || len(h.Shards) != 1 || h.Shards[0].Addr != srv.Addr {
		t.Errorf("Health of a real Redis = %+v; want up, its one server %s", h, srv.Addr)
	}
	down, _ := rediscache.Open(fmt.Sprintf("redis://127.0.0.1:%d/0", sitetest.RefusedPort(t)), rediscache.Options{Logger: slog.New(slog.DiscardHandler)})
	defer down.Close()
	if h := down.Health(context.Background()); h.State != "down" || h.Cause != "unreachable" {
		t.Errorf("Health of a closed port = %+v, want down, unreachable", h)
	}
}
