package frame

import (
	"errors"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

func TestBeginEndFrameAllocatesNothing(t *testing.T) {
	fr := newClock(t)
	testenv.NoAllocs(t, "BeginFrame+EndFrame", 1000, func() { runFrames(t, fr, 1) })
}

// TestBeginFrameWaitAllocatesNothing covers the steady path of a
// device-bound game: the CPU runs ahead, so BeginFrame blocks on the
// reused slot's fence every frame while a "GPU" goroutine completes
// fences. AllocsPerRun counts the whole process, the GPU goroutine too.
func TestBeginFrameWaitAllocatesNothing(t *testing.T) {
	testenv.SkipUnderRace(t)
	fr, fences := manualFrames(t, 3, 5*time.Second)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			time.Sleep(50 * time.Microsecond) // one frame of device work
			for _, f := range fences {
				f.Complete()
			}
		}
	}()
	testenv.NoAllocs(t, "BeginFrame+EndFrame waiting on fences", 200, func() { runFrames(t, fr, 1) })
	close(stop)
	<-done
	if st := fr.Stats(); st.Waits == 0 {
		t.Fatalf("BeginFrame never waited (%+v): the test did not reach the wait path", st)
	}
}

func TestScheduleRunAllocatesNothing(t *testing.T) {
	fr := newClock(t)
	dq := deferredOn(t, fr, 64)
	rel := &countReleaser{}
	testenv.NoAllocs(t, "a frame of 4 Schedules, run as frames complete", 1000, func() {
		scheduleFrame(t, fr, dq, rel)
	})
	if rel.n < 4000 {
		t.Fatalf("released %d items, want every frame's 4 once completed", rel.n)
	}
}

// A full queue refuses a steady frame's work without allocating: the
// error is the Deferred's own.
func TestScheduleRefusalAllocatesNothing(t *testing.T) {
	dq := deferredOn(t, newClock(t), 1)
	rel := &countReleaser{}
	if err := dq.Schedule(rel, 0); err != nil {
		t.Fatal(err)
	}
	var refused error
	testenv.NoAllocs(t, "Schedule refused by a full queue", 1000, func() {
		refused = dq.Schedule(rel, 1)
	})
	if !errors.Is(refused, ErrDeferredFull) || dq.Stats().Full < 1000 {
		t.Fatalf("Schedule on a full queue = %v (stats %+v), want ErrDeferredFull counted", refused, dq.Stats())
	}
}

// counter is a follower that only counts, so the test measures the
// clock's side of the calls.
type counter struct{ retired, begun, ended int }

func (c *counter) Retired(uint64)    { c.retired++ }
func (c *counter) FrameBegun(uint64) { c.begun++ }
func (c *counter) FrameEnded(uint64) { c.ended++ }

// Telling followers of each boundary allocates nothing; only Follow may.
func TestFollowedFramesAllocateNothing(t *testing.T) {
	fr := newClock(t)
	a, b := &counter{}, &counter{}
	for _, f := range []Follower{a, b} {
		if err := fr.Follow(f); err != nil {
			t.Fatal(err)
		}
	}
	testenv.NoAllocs(t, "BeginFrame+Poll+EndFrame with two followers", 1000, func() {
		if _, err := fr.BeginFrame(); err != nil {
			t.Fatal(err)
		}
		fr.Poll()
		if err := fr.EndFrame(); err != nil {
			t.Fatal(err)
		}
	})
	if a.begun != b.begun || a.begun < 1000 || a.retired != 2*a.begun || a.ended != a.begun {
		t.Errorf("followers heard %+v and %+v", *a, *b)
	}
	testenv.NoAllocs(t, "Unfollow and Follow again", 100, func() {
		if err := fr.Unfollow(a); err != nil {
			t.Fatal(err)
		}
		if err := fr.Follow(a); err != nil {
			t.Fatal(err)
		}
	})
}
