package rediscache_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/internal/sitetest"
)

// TestLogDriverToWhileDialing: LogDriverTo may be called while a client's
// pool is dialing (serve calls it once a run, and serve's tests run it many
// times in one process, while the pool of an earlier run still retries a
// dial): the driver's messages reach the last logger given, and under the
// race detector nothing races. Before, each call set go-redis's global
// logger, which a dialing goroutine reads (found by go test -race
// -shuffle=on ./internal/cli).
func TestLogDriverToWhileDialing(t *testing.T) {
	defer rediscache.LogDriverTo(slog.New(slog.DiscardHandler))
	rediscache.LogDriverTo(slog.New(slog.DiscardHandler)) // before the client, as serve does
	c, err := rediscache.Open(fmt.Sprintf("redis://127.0.0.1:%d/0", sitetest.RefusedPort(t)),
		rediscache.Options{Logger: slog.New(slog.DiscardHandler), Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var got lockedBuffer
	last := slog.New(slog.NewTextHandler(&got, &slog.HandlerOptions{Level: slog.LevelDebug}))
	for range 10 { // a few dials: past the pool's size of failed dials, it stops reporting them
		// Ping returns at its 250 ms deadline; the pool goes on retrying
		// the dial for about 500 ms, then reports it to the driver's logger.
		c.Ping(context.Background())
		rediscache.LogDriverTo(last)
		for wait := time.Now().Add(2 * time.Second); time.Now().Before(wait); time.Sleep(20 * time.Millisecond) {
			if strings.Contains(got.String(), "redis driver: ") {
				return
			}
		}
	}
	t.Fatalf("no driver message reached the last logger; it has %q", got.String())
}

// lockedBuffer is a log written by several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
