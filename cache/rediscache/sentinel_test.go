package rediscache_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/cache/rediscache"
	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/internal/slowtest"
)

// TestSentinelFailover: a Cache on a primary that three real Sentinels
// watch; the primary is killed. Every Get is answered meanwhile (from the
// local copy), and once the Sentinels have promoted the replica, every
// key goes through Redis again, on the new primary, within a backoff.
func TestSentinelFailover(t *testing.T) {
	slowtest.Only(t, "a primary, a replica and three Sentinels; a failover")
	st := redistest.StartSentinels(t)
	c, err := rediscache.Dial(rediscache.Servers{Master: redistest.SentinelMaster, Sentinels: st.Addrs()},
		rediscache.Options{Logger: slog.New(slog.DiscardHandler), Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const n = 100
	key := func(i int) string { return fmt.Sprintf("https://site%d.example/robots.txt", i) }
	for i := range n {
		c.Put(key(i), []byte(key(i)))
	}
	if h := c.Health(context.Background()); h.State != "up" {
		t.Fatalf("Health = %+v, want up", h)
	}
	if _, err := redistest.Command(st.Primary.Addr, "WAIT", "1", "5000"); err != nil { // the replica has every key
		t.Fatal(err)
	}
	killed := time.Now()
	st.Primary.Stop()
	var promoted time.Duration
	wrong := 0
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		for i := range n {
			if v, ok := c.Get(key(i)); !ok || string(v) != key(i) {
				wrong++
			}
		}
		if addr, err := st.PrimaryAddr(); err == nil && addr == st.Replica.Addr && promoted == 0 {
			promoted = time.Since(killed)
		}
		if promoted != 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Sentinels did not promote the replica within 30 s")
		}
	}
	var back time.Duration
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		s := c.Stats()
		for i := range n {
			if v, ok := c.Get(key(i)); !ok || string(v) != key(i) {
				wrong++
			}
		}
		if c.Stats().Hits-s.Hits == n {
			back = time.Since(killed) - promoted
			break
		}
	}
	t.Logf("primary killed; the Sentinels named the replica %v later; every Get through Redis (on it) %v after that; %d Gets wrong or unanswered",
		promoted.Round(time.Millisecond), back.Round(time.Millisecond), wrong)
	if wrong != 0 {
		t.Errorf("%d Gets answered wrongly or not at all; want none", wrong)
	}
	if back == 0 || back > 5*time.Second {
		t.Errorf("every Get through Redis %v after the promotion; want within a few seconds (a backoff, the Sentinels' notice)", back)
	}
	if h := c.Health(context.Background()); h.State != "up" {
		t.Errorf("Health after the failover = %+v, want up", h)
	}
}
