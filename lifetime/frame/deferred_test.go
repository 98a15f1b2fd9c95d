package frame

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestDeferredRunsOnlyAfterFrameFenceSignalled(t *testing.T) {
	fr, fences := manualFrames(t, 2, time.Second)
	dq, err := NewDeferred(8)
	if err != nil {
		t.Fatal(err)
	}
	rel := &countReleaser{args: make([]uint64, 0, 8)}
	// Frame 1 schedules two releases, frame 2 one.
	for s := uint64(1); s <= 2; s++ {
		serial, err := fr.BeginFrame()
		if err != nil {
			t.Fatal(err)
		}
		for k := uint64(0); k < 3-serial; k++ {
			if err := dq.Schedule(serial, rel, serial*10+k); err != nil {
				t.Fatal(err)
			}
		}
		dq.Run(fr.Completed())
		if err := fr.EndFrame(); err != nil {
			t.Fatal(err)
		}
	}
	if n := dq.Run(fr.Poll()); n != 0 || rel.n != 0 {
		t.Fatalf("released %d items before any fence signalled", rel.n)
	}
	fences[0].Complete() // frame 2 only; frame 1 still in flight
	if n := dq.Run(fr.Poll()); n != 0 {
		t.Fatalf("released %d items while frame 1 is in flight", n)
	}
	fences[1].Complete() // frame 1
	if n := dq.Run(fr.Poll()); n != 3 {
		t.Fatalf("Run released %d, want all 3 once frames 1 and 2 signalled", n)
	}
	if want := []uint64{10, 11, 20}; !slices.Equal(rel.args, want) {
		t.Fatalf("release order %v, want %v", rel.args, want)
	}
}

func TestDeferredKeepsSchedulingOrder(t *testing.T) {
	dq, _ := NewDeferred(4)
	rel := &countReleaser{args: make([]uint64, 0, 4)}
	// A later-scheduled item for an older frame waits behind a newer one:
	// release order is scheduling order, never reordered.
	for _, s := range []uint64{5, 3, 6} {
		if err := dq.Schedule(s, rel, s); err != nil {
			t.Fatal(err)
		}
	}
	if n := dq.Run(4); n != 0 {
		t.Fatalf("Run(4) released %d, want 0: item for frame 3 sits behind frame 5", n)
	}
	if n := dq.Run(5); n != 2 {
		t.Fatalf("Run(5) released %d, want 2", n)
	}
	if n := dq.Run(6); n != 1 || !slices.Equal(rel.args, []uint64{5, 3, 6}) {
		t.Fatalf("released %v, want [5 3 6]", rel.args)
	}
}

func TestDeferredErrors(t *testing.T) {
	rel := &countReleaser{}
	tests := []struct {
		name string
		do   func(dq *Deferred) error
		is   error
		want string
	}{
		{"full", func(dq *Deferred) error {
			for i := 0; i < 2; i++ {
				if err := dq.Schedule(1, rel, 0); err != nil {
					return err
				}
			}
			return dq.Schedule(7, rel, 0)
		}, ErrDeferredFull, "2 of 2 pending (frame 7)"},
		{"nil releaser", func(dq *Deferred) error { return dq.Schedule(1, nil, 0) }, ErrInvalidConfig, "nil Releaser"},
		{"schedule after close", func(dq *Deferred) error {
			if err := dq.Close(); err != nil {
				return err
			}
			return dq.Schedule(1, rel, 0)
		}, ErrClosed, "Schedule"},
		{"close with work pending", func(dq *Deferred) error {
			if err := dq.Schedule(4, rel, 0); err != nil {
				return err
			}
			return dq.Close()
		}, ErrPending, "1 items pending (oldest for frame 4)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dq, err := NewDeferred(2)
			if err != nil {
				t.Fatal(err)
			}
			err = tt.do(dq)
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %v mentioning %q", err, tt.is, tt.want)
			}
		})
	}
	for _, c := range []int{0, -3} {
		if dq, err := NewDeferred(c); dq != nil || !errors.Is(err, ErrInvalidConfig) {
			t.Fatalf("NewDeferred(%d) = %v, %v; want ErrInvalidConfig", c, dq, err)
		}
	}
}

func TestDeferredFullLosesNothing(t *testing.T) {
	dq, _ := NewDeferred(2)
	rel := &countReleaser{args: make([]uint64, 0, 4)}
	for arg := uint64(1); arg <= 2; arg++ {
		if err := dq.Schedule(1, rel, arg); err != nil {
			t.Fatal(err)
		}
	}
	// The refused item stays with the caller, who schedules it again once
	// the queue has room; nothing is dropped and the refusal is counted.
	if err := dq.Schedule(1, rel, 3); !errors.Is(err, ErrDeferredFull) {
		t.Fatalf("Schedule on a full queue = %v", err)
	}
	if st := dq.Stats(); st.Full != 1 || st.Pending != 2 || st.Peak != 2 {
		t.Fatalf("stats %+v, want one refusal counted and two pending", st)
	}
	dq.Run(1)
	if err := dq.Schedule(1, rel, 3); err != nil {
		t.Fatal(err)
	}
	dq.Run(1)
	if !slices.Equal(rel.args, []uint64{1, 2, 3}) || dq.Stats().Ran != 3 {
		t.Fatalf("released %v (stats %+v), want [1 2 3]", rel.args, dq.Stats())
	}
}

func TestDeferredRunAfterCloseReleasesPending(t *testing.T) {
	dq, _ := NewDeferred(4)
	rel := &countReleaser{}
	if err := dq.Schedule(2, rel, 0); err != nil {
		t.Fatal(err)
	}
	if err := dq.Close(); !errors.Is(err, ErrPending) {
		t.Fatalf("Close = %v, want ErrPending", err)
	}
	if err := dq.Close(); err != nil {
		t.Fatalf("second Close = %v, want nil", err)
	}
	if n := dq.Run(2); n != 1 || rel.n != 1 || dq.Pending() != 0 {
		t.Fatalf("Run after Close released %d (pending %d), want the queued item", n, dq.Pending())
	}
}

// reentrant schedules more work from inside Release, as a release that
// frees a parent which owns children would.
type reentrant struct {
	dq   *Deferred
	seen []uint64
}

func (r *reentrant) Release(arg uint64) {
	r.seen = append(r.seen, arg)
	if arg == 1 {
		_ = r.dq.Schedule(0, r, 2)
	}
}

func TestDeferredReleaseMayScheduleMore(t *testing.T) {
	dq, _ := NewDeferred(2)
	r := &reentrant{dq: dq}
	if err := dq.Schedule(1, r, 1); err != nil {
		t.Fatal(err)
	}
	if n := dq.Run(1); n != 2 || !slices.Equal(r.seen, []uint64{1, 2}) {
		t.Fatalf("Run = %d, seen %v; want the release and the one it scheduled", n, r.seen)
	}
}

// countReleaser counts releases and records their arguments in order into a
// preallocated log, so tests can check ordering without allocating.
type countReleaser struct {
	n    int
	args []uint64
}

func (r *countReleaser) Release(arg uint64) {
	r.n++
	if len(r.args) < cap(r.args) {
		r.args = append(r.args, arg)
	}
}
