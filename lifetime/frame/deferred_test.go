package frame

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// deferredOn returns a Deferred of the given capacity following fr.
func deferredOn(tb testing.TB, fr *Clock, capacity int) *Deferred {
	tb.Helper()
	dq, err := NewDeferred(fr, capacity)
	if err != nil {
		tb.Fatal(err)
	}
	return dq
}

// scheduleFrame runs one frame that schedules 4 releases on dq: the
// steady frame TestScheduleRunAllocatesNothing checks and
// BenchmarkScheduleRun/impl=ours times.
func scheduleFrame(tb testing.TB, fr *Clock, dq *Deferred, rel Releaser) {
	if _, err := fr.BeginFrame(); err != nil {
		tb.Fatal(err)
	}
	for k := uint64(0); k < 4; k++ {
		if err := dq.Schedule(rel, k); err != nil {
			tb.Fatal(err)
		}
	}
	if err := fr.EndFrame(); err != nil {
		tb.Fatal(err)
	}
}

func TestDeferredRunsOnlyAfterFrameFenceSignalled(t *testing.T) {
	fr, fences := manualFrames(t, 2, time.Second)
	dq := deferredOn(t, fr, 8)
	rel := &countReleaser{args: make([]uint64, 0, 8)}
	// Frame 1 schedules two releases, frame 2 one.
	for s := uint64(1); s <= 2; s++ {
		serial, err := fr.BeginFrame()
		if err != nil {
			t.Fatal(err)
		}
		for k := uint64(0); k < 3-serial; k++ {
			if err := dq.Schedule(rel, serial*10+k); err != nil {
				t.Fatal(err)
			}
		}
		if err := fr.EndFrame(); err != nil {
			t.Fatal(err)
		}
	}
	if fr.Poll(); rel.n != 0 {
		t.Fatalf("released %d items before any fence signalled", rel.n)
	}
	fences[0].Complete() // frame 2 only; frame 1 still in flight
	if fr.Poll(); rel.n != 0 {
		t.Fatalf("released %d items while frame 1 is in flight", rel.n)
	}
	fences[1].Complete() // frame 1
	if fr.Poll(); rel.n != 3 {
		t.Fatalf("released %d, want all 3 once frames 1 and 2 signalled", rel.n)
	}
	if want := []uint64{10, 11, 20}; !slices.Equal(rel.args, want) {
		t.Fatalf("release order %v, want %v", rel.args, want)
	}
}

// Work is keyed to the clock's newest frame: the open one, or between
// frames the one last submitted, which the device may still be reading.
// Before the first frame nothing can reference the object.
func TestDeferredKeysWorkToTheNewestFrame(t *testing.T) {
	fr, fences := manualFrames(t, 3, time.Second)
	dq := deferredOn(t, fr, 8)
	rel := &countReleaser{args: make([]uint64, 0, 8)}
	if err := dq.Schedule(rel, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := fr.BeginFrame(); err != nil { // frame 1
		t.Fatal(err)
	}
	if !slices.Equal(rel.args, []uint64{0}) {
		t.Fatalf("work scheduled before any frame: released %v at the first BeginFrame, want [0]", rel.args)
	}
	if err := fr.EndFrame(); err != nil {
		t.Fatal(err)
	}
	if err := dq.Schedule(rel, 1); err != nil { // between frames: keyed to frame 1
		t.Fatal(err)
	}
	if _, err := fr.BeginFrame(); err != nil { // frame 2
		t.Fatal(err)
	}
	if err := dq.Schedule(rel, 2); err != nil {
		t.Fatal(err)
	}
	if err := fr.EndFrame(); err != nil {
		t.Fatal(err)
	}
	fences[fr.Slot(1)].Complete()
	if fr.Poll(); !slices.Equal(rel.args, []uint64{0, 1}) {
		t.Fatalf("after frame 1 completed: released %v, want [0 1]", rel.args)
	}
	fences[fr.Slot(2)].Complete()
	if fr.Poll(); !slices.Equal(rel.args, []uint64{0, 1, 2}) {
		t.Fatalf("after frame 2 completed: released %v, want [0 1 2]", rel.args)
	}
}

func TestDeferredErrors(t *testing.T) {
	rel := &countReleaser{}
	tests := []struct {
		name string
		do   func(fr *Clock, dq *Deferred) error
		is   error
		want string
	}{
		{"full", func(fr *Clock, dq *Deferred) error {
			runFrames(t, fr, 6)
			for i := 0; i < 2; i++ {
				if err := dq.Schedule(rel, 0); err != nil {
					return err
				}
			}
			return dq.Schedule(rel, 0)
		}, ErrDeferredFull, "2 of 2 pending (frame 6)"},
		{"nil releaser", func(_ *Clock, dq *Deferred) error { return dq.Schedule(nil, 0) }, ErrInvalidConfig, "nil Releaser"},
		{"schedule after close", func(_ *Clock, dq *Deferred) error {
			if err := dq.Close(); err != nil {
				return err
			}
			return dq.Schedule(rel, 0)
		}, ErrClosed, "Schedule"},
		{"close with work pending", func(fr *Clock, dq *Deferred) error {
			runFrames(t, fr, 3)
			if _, err := fr.BeginFrame(); err != nil {
				return err
			}
			if err := dq.Schedule(rel, 0); err != nil {
				return err
			}
			return dq.Close()
		}, ErrPending, "1 items pending (oldest for frame 4); Drain the clock first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fr, _ := manualFrames(t, 8, time.Second)
			dq := deferredOn(t, fr, 2)
			err := tt.do(fr, dq)
			// A bare refusal's detail is the queue's LastRefusal.
			if msg := err.Error() + " " + dq.LastRefusal().String(); !errors.Is(err, tt.is) || !strings.Contains(msg, tt.want) {
				t.Fatalf("got %v (last refusal %v), want %v mentioning %q", err, dq.LastRefusal(), tt.is, tt.want)
			}
		})
	}
	fr := newClock(t)
	for _, c := range []int{0, -3} {
		if dq, err := NewDeferred(fr, c); dq != nil || !errors.Is(err, ErrInvalidConfig) {
			t.Fatalf("NewDeferred(clock, %d) = %v, %v; want ErrInvalidConfig", c, dq, err)
		}
	}
	if dq, err := NewDeferred(nil, 4); dq != nil || !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), "nil Clock") {
		t.Fatalf("NewDeferred(nil, 4) = %v, %v; want ErrInvalidConfig naming the clock", dq, err)
	}
	if err := fr.Close(); err != nil {
		t.Fatalf("refused constructions left a follower on the clock: %v", err)
	}
	if dq, err := NewDeferred(fr, 4); dq != nil || !errors.Is(err, ErrClosed) {
		t.Fatalf("NewDeferred on a closed clock = %v, %v; want ErrClosed", dq, err)
	}
}

func TestDeferredFullLosesNothing(t *testing.T) {
	fr, fences := manualFrames(t, 2, time.Second)
	dq := deferredOn(t, fr, 2)
	rel := &countReleaser{args: make([]uint64, 0, 4)}
	if _, err := fr.BeginFrame(); err != nil {
		t.Fatal(err)
	}
	for arg := uint64(1); arg <= 2; arg++ {
		if err := dq.Schedule(rel, arg); err != nil {
			t.Fatal(err)
		}
	}
	// The refused item stays with the caller, who schedules it again once
	// the queue has room; nothing is dropped and the refusal is counted.
	if err := dq.Schedule(rel, 3); !errors.Is(err, ErrDeferredFull) {
		t.Fatalf("Schedule on a full queue = %v", err)
	}
	if st := dq.Stats(); st.Full != 1 || st.Pending != 2 || st.Peak != 2 {
		t.Fatalf("stats %+v, want one refusal counted and two pending", st)
	}
	if err := fr.EndFrame(); err != nil {
		t.Fatal(err)
	}
	fences[fr.Slot(1)].Complete()
	fr.Poll()
	if err := dq.Schedule(rel, 3); err != nil {
		t.Fatal(err)
	}
	if err := fr.Drain(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rel.args, []uint64{1, 2, 3}) || dq.Stats().Ran != 3 {
		t.Fatalf("released %v (stats %+v), want [1 2 3]", rel.args, dq.Stats())
	}
}

// Close refuses while work is queued and keeps following the clock, so a
// teardown that closes too early loses nothing: the drain still runs the
// work, and then Close succeeds and lets the clock close.
func TestDeferredCloseWaitsForTheDrain(t *testing.T) {
	fr, fences := manualFrames(t, 3, 10*time.Millisecond)
	dq := deferredOn(t, fr, 4)
	rel := &countReleaser{}
	if _, err := fr.BeginFrame(); err != nil {
		t.Fatal(err)
	}
	if err := dq.Schedule(rel, 0); err != nil {
		t.Fatal(err)
	}
	if err := fr.EndFrame(); err != nil {
		t.Fatal(err)
	}
	if err := dq.Close(); !errors.Is(err, ErrPending) {
		t.Fatalf("Close with work queued = %v, want ErrPending", err)
	}
	if err := fr.Close(); !errors.Is(err, ErrFollowed) {
		t.Fatalf("clock Close while the Deferred follows it = %v, want ErrFollowed", err)
	}
	if err := fr.Drain(); !errors.Is(err, ErrFenceTimeout) || rel.n != 0 {
		t.Fatalf("Drain over a stuck frame = %v with %d released; want ErrFenceTimeout and nothing released", err, rel.n)
	}
	for _, f := range fences {
		f.Complete()
	}
	if err := fr.Drain(); err != nil || rel.n != 1 || dq.Pending() != 0 {
		t.Fatalf("Drain = %v, released %d, pending %d; want the queued item released", err, rel.n, dq.Pending())
	}
	if err := dq.Close(); err != nil {
		t.Fatalf("Close after the drain = %v", err)
	}
	if err := dq.Close(); err != nil {
		t.Fatalf("second Close = %v, want nil", err)
	}
	if err := fr.Close(); err != nil {
		t.Fatalf("clock Close after the Deferred closed = %v", err)
	}
}

// reentrant schedules more work from inside Release, as a release that
// frees a parent which owns children would, and tries to close the queue
// from there.
type reentrant struct {
	dq       *Deferred
	seen     []uint64
	closeErr error
}

func (r *reentrant) Release(arg uint64) {
	r.seen = append(r.seen, arg)
	if arg == 1 {
		_ = r.dq.Schedule(r, 2)
		r.closeErr = r.dq.Close()
	}
}

// Work scheduled from inside a release is keyed to the clock's newest
// frame, so it waits for that frame rather than running in the same
// clock call: it may reference what that frame recorded.
func TestDeferredReleaseMayScheduleMore(t *testing.T) {
	fr, err := NewClock(ClockDesc{InFlight: 2})
	if err != nil {
		t.Fatal(err)
	}
	dq := deferredOn(t, fr, 2)
	r := &reentrant{dq: dq}
	runFrames(t, fr, 1)
	if err := dq.Schedule(r, 1); err != nil { // keyed to frame 1
		t.Fatal(err)
	}
	if _, err := fr.BeginFrame(); err != nil { // frame 2 releases 1, which schedules 2 for frame 2
		t.Fatal(err)
	}
	if !slices.Equal(r.seen, []uint64{1}) || dq.Pending() != 1 {
		t.Fatalf("seen %v with %d pending; want the release, and its child waiting", r.seen, dq.Pending())
	}
	if !errors.Is(r.closeErr, ErrPending) {
		t.Fatalf("Close from inside a release = %v, want ErrPending (its child is queued)", r.closeErr)
	}
	if err := fr.EndFrame(); err != nil {
		t.Fatal(err)
	}
	if err := fr.Drain(); err != nil || !slices.Equal(r.seen, []uint64{1, 2}) {
		t.Fatalf("Drain = %v, seen %v; want the child released", err, r.seen)
	}
}

// chain schedules its successor from inside Release, up to last.
type chain struct {
	dq   *Deferred
	last uint64
	seen []uint64
}

func (c *chain) Release(arg uint64) {
	c.seen = append(c.seen, arg)
	if arg < c.last {
		_ = c.dq.Schedule(c, arg+1)
	}
}

// Inside a Drain the newest frame is complete, so work a release
// schedules there is keyed to a complete frame and the same Drain runs
// it: nothing is left queued behind a drain.
func TestDeferredDrainRunsWorkScheduledByItsReleases(t *testing.T) {
	fr := newClock(t)
	dq := deferredOn(t, fr, 2)
	c := &chain{dq: dq, last: 3}
	runFrames(t, fr, 1)
	if err := dq.Schedule(c, 1); err != nil {
		t.Fatal(err)
	}
	if err := fr.Drain(); err != nil || !slices.Equal(c.seen, []uint64{1, 2, 3}) || dq.Pending() != 0 {
		t.Fatalf("Drain = %v, seen %v, %d pending; want the chain run to its end", err, c.seen, dq.Pending())
	}
}

// closer closes its queue from inside a release with nothing else queued.
type closer struct {
	dq  *Deferred
	err error
}

func (c *closer) Release(uint64) { c.err = c.dq.Close() }

// Closing from inside a release would change the clock's followers while
// the clock walks them: it is refused, and the queue stays usable.
func TestDeferredCloseFromAReleaseIsRefused(t *testing.T) {
	fr := newClock(t)
	dq := deferredOn(t, fr, 2)
	c := &closer{dq: dq}
	if err := dq.Schedule(c, 0); err != nil {
		t.Fatal(err)
	}
	runFrames(t, fr, 1)
	if !errors.Is(c.err, ErrReentrant) {
		t.Fatalf("Close from inside a release = %v, want ErrReentrant", c.err)
	}
	if err := dq.Schedule(&countReleaser{}, 0); err != nil {
		t.Fatalf("Schedule after the refused Close = %v", err)
	}
	if err := fr.Drain(); err != nil {
		t.Fatal(err)
	}
	if err := dq.Close(); err != nil {
		t.Fatal(err)
	}
	if err := fr.Close(); err != nil {
		t.Fatal(err)
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
