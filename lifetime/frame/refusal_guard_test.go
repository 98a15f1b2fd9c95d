package frame_test

import (
	"testing"

	"github.com/steadyframe/steadyframe/internal/guardtest"
	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// sentinels is every error this package returns.
var sentinels = []error{frame.ErrClosed, frame.ErrFenceTimeout, frame.ErrFrameOrder, frame.ErrDeferredFull,
	frame.ErrPending, frame.ErrFollowed, frame.ErrReentrant, frame.ErrInvalidConfig}

type nopReleaser struct{}

func (nopReleaser) Release(uint64) {}

// TestDeferredRefusalCheckNeverAllocates tests a full and a closed
// Deferred's Schedule with ==, a switch and errors.Is against every
// sentinel, under AllocsPerRun and millions of times in guarded frames.
// Before, a full queue returned the Deferred's own *fullRefusal,
// rewritten by the next refusal, and a closed one a fresh fmt.Errorf.
func TestDeferredRefusalCheckNeverAllocates(t *testing.T) {
	clock, err := frame.NewClock(frame.ClockDesc{})
	if err != nil {
		t.Fatal(err)
	}
	full, err := frame.NewDeferred(clock, 1)
	if err != nil {
		t.Fatal(err)
	}
	closed, err := frame.NewDeferred(clock, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := closed.Close(); err != nil {
		t.Fatal(err)
	}
	var r nopReleaser
	if err := full.Schedule(r, 1); err != nil {
		t.Fatal(err)
	}
	guardtest.Refusals(t, sentinels, []guardtest.Refusal{
		{Name: "Schedule on a full queue", Want: frame.ErrDeferredFull, Call: func() error { return full.Schedule(r, 2) }},
		{Name: "Schedule after Close", Want: frame.ErrClosed, Call: func() error { return closed.Schedule(r, 2) }},
	}, 1_000_000)
	if last := full.LastRefusal(); last.Err != frame.ErrDeferredFull || last.Pending != 1 || last.Capacity != 1 {
		t.Errorf("LastRefusal %+v, want the full queue's", last)
	}
	if err := clock.Drain(); err != nil {
		t.Fatal(err)
	}
	if err := full.Close(); err != nil {
		t.Fatal(err)
	}
	if err := clock.Close(); err != nil {
		t.Fatal(err)
	}
}
