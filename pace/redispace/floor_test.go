package redispace_test

import (
	"context"
	"testing"
	"time"

	"github.com/sitetxt/sitetxt/internal/pacetest"
	"github.com/sitetxt/sitetxt/internal/redistest"
	"github.com/sitetxt/sitetxt/pace"
	"github.com/sitetxt/sitetxt/pace/redispace"
)

// TestPacerFloor: Redis restarts empty after a process booked three
// slots. Another process that knew nothing of them gets one at once (the
// cost of a lost memory); the first process's next slot comes after its
// own three, not at the site's second, and the queue goes on from there
// for both. A process brings its next slot to Redis with each
// acquisition.
func TestPacerFloor(t *testing.T) {
	srv := redistest.Start(t)
	ctx := context.Background()
	clock := pacetest.NewClock()
	p1 := redispace.Via(open(t, srv.URL()), pace.Options{Now: clock.Now})
	p2 := redispace.Via(open(t, srv.URL()), pace.Options{Now: clock.Now})
	every := pace.Pace{Interval: time.Second}
	acquire := func(p pace.Pacer, want time.Duration, what string) {
		t.Helper()
		if got, err := p.Acquire(ctx, "http://a.example", every); err != nil || got != want {
			t.Errorf("%s: Acquire = %v, %v; want %v", what, got, err, want)
		}
	}
	for i := range 3 {
		acquire(p1, time.Duration(i)*time.Second, "process 1, before the restart")
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	acquire(p2, 0, "process 2, Redis empty")
	acquire(p1, 3*time.Second, "process 1, Redis empty: after its own slots")
	acquire(p2, 4*time.Second, "process 2, after process 1's")
}
