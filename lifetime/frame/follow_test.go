package frame

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// recorder is a follower that logs every call it gets, tagged with its
// name, into a log shared by several recorders.
type recorder struct {
	name string
	log  *[]string
	// during, when set, runs inside each call: how a test makes a
	// follower call back into the clock.
	during func(call string)
}

func (r *recorder) add(call string) {
	*r.log = append(*r.log, r.name+"."+call)
	if r.during != nil {
		r.during(call)
	}
}

func (r *recorder) Retired(c uint64)    { r.add(fmt.Sprintf("Retired(%d)", c)) }
func (r *recorder) FrameBegun(s uint64) { r.add(fmt.Sprintf("FrameBegun(%d)", s)) }
func (r *recorder) FrameEnded(s uint64) { r.add(fmt.Sprintf("FrameEnded(%d)", s)) }

func follow(t *testing.T, c *Clock, f Follower) {
	t.Helper()
	if err := c.Follow(f); err != nil {
		t.Fatal(err)
	}
}

func wantLog(t *testing.T, log *[]string, want ...string) {
	t.Helper()
	if got := strings.Join(*log, " "); got != strings.Join(want, " ") {
		t.Fatalf("calls:\n got %s\nwant %s", got, strings.Join(want, " "))
	}
	*log = (*log)[:0]
}

// Followers hear every boundary in registration order: Retired before
// FrameBegun at the start of a frame, FrameEnded before the fence is
// signalled, and Retired again from Poll and Drain with what the fences
// proved.
func TestFollowersHearEveryBoundaryInOrder(t *testing.T) {
	c, fences := manualFrames(t, 3, 10*time.Millisecond)
	var log []string
	a, b := &recorder{name: "a", log: &log}, &recorder{name: "b", log: &log}
	follow(t, c, a)
	follow(t, c, b)
	signalled := func(s uint64) bool { return fences[c.Slot(s)].armed.Load() > 0 }
	a.during = func(call string) {
		if strings.HasPrefix(call, "FrameEnded") && signalled(c.Current()) {
			t.Errorf("%s ran after the frame's fence was signalled", call)
		}
	}

	runFrames(t, c, 2)
	wantLog(t, &log,
		"a.Retired(0)", "b.Retired(0)", "a.FrameBegun(1)", "b.FrameBegun(1)", "a.FrameEnded(1)", "b.FrameEnded(1)",
		"a.Retired(0)", "b.Retired(0)", "a.FrameBegun(2)", "b.FrameBegun(2)", "a.FrameEnded(2)", "b.FrameEnded(2)")
	fences[c.Slot(1)].Complete()
	if got := c.Poll(); got != 1 {
		t.Fatalf("Poll = %d, want 1", got)
	}
	wantLog(t, &log, "a.Retired(1)", "b.Retired(1)")
	fences[c.Slot(2)].Complete()
	if err := c.Drain(); err != nil {
		t.Fatal(err)
	}
	wantLog(t, &log, "a.Retired(2)", "b.Retired(2)")
	// Frame 4 reuses frame 1's fence, which is done: no wait, and the
	// followers hear Completed as it stands.
	runFrames(t, c, 1)
	wantLog(t, &log, "a.Retired(2)", "b.Retired(2)", "a.FrameBegun(3)", "b.FrameBegun(3)", "a.FrameEnded(3)", "b.FrameEnded(3)")
	if err := c.Unfollow(a); err != nil {
		t.Fatal(err)
	}
	c.Poll()
	wantLog(t, &log, "b.Retired(2)")
}

// waitFence is a manual CPU fence whose Wait, when finish is set, is the
// moment the "GPU" catches up: it completes the fence, then waits.
type waitFence struct {
	CPUFence
	finish bool
}

func (f *waitFence) Wait(d time.Duration) error {
	if f.finish {
		f.Complete()
	}
	return f.CPUFence.Wait(d)
}

// A BeginFrame that waits tells the followers what the wait proved,
// before the new frame opens; one whose wait times out opens nothing but
// still reports what had completed.
func TestBeginFrameRetiresWhatItsWaitProved(t *testing.T) {
	var fences []*waitFence
	c, err := NewClock(ClockDesc{InFlight: 2, Timeout: time.Millisecond, NewFence: func() (Fence, error) {
		f := &waitFence{CPUFence: CPUFence{manual: true}}
		fences = append(fences, f)
		return f, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	var log []string
	follow(t, c, &recorder{name: "a", log: &log})
	runFrames(t, c, 2)
	log = log[:0]
	fences[c.Slot(1)].finish = true
	if _, err := c.BeginFrame(); err != nil {
		t.Fatal(err)
	}
	if c.Stats().Waits != 1 {
		t.Fatalf("BeginFrame did not wait: %+v", c.Stats())
	}
	wantLog(t, &log, "a.Retired(1)", "a.FrameBegun(3)")
	if err := c.EndFrame(); err != nil {
		t.Fatal(err)
	}
	log = log[:0]
	// Frame 4 reuses frame 2's fence, which never signals.
	if _, err := c.BeginFrame(); !errors.Is(err, ErrFenceTimeout) {
		t.Fatalf("BeginFrame with frame 2 in flight: %v, want ErrFenceTimeout", err)
	}
	wantLog(t, &log, "a.Retired(1)")
}

// A follower that calls back into the clock is refused with ErrReentrant
// and changes nothing; Poll from inside a follower claims nothing new.
func TestFollowerCallingBackIsRefused(t *testing.T) {
	c, fences := manualFrames(t, 3, 10*time.Millisecond)
	var log []string
	other := &recorder{name: "other", log: &log}
	var errs []error
	var polled []uint64
	r := &recorder{name: "a", log: &log, during: func(string) {
		_, err := c.BeginFrame()
		errs = append(errs, err, c.EndFrame(), c.Drain(), c.Follow(other), c.Unfollow(other), c.Close())
		polled = append(polled, c.Poll())
	}}
	follow(t, c, r)
	runFrames(t, c, 1)
	fences[c.Slot(1)].Complete()
	if got := c.Poll(); got != 1 {
		t.Fatalf("Poll = %d, want 1", got)
	}
	// Retired, FrameBegun and FrameEnded of frame 1, then Poll's Retired.
	if len(errs) != 4*6 {
		t.Fatalf("%d refusals, want 24 (6 calls in each of 4 follower calls)", len(errs))
	}
	for i, err := range errs {
		if !errors.Is(err, ErrReentrant) {
			t.Errorf("call %d from inside a follower: %v, want ErrReentrant", i, err)
		}
	}
	if fmt.Sprint(polled) != "[0 0 0 1]" {
		t.Errorf("Poll from inside the followers returned %v, want Completed as it stood: [0 0 0 1]", polled)
	}
	if st := c.Stats(); st.Last != 1 || st.Current != 0 || st.Completed != 1 || c.Followers() != 1 {
		t.Errorf("a refused callback changed the clock: %+v, %d followers", st, c.Followers())
	}
	r.during = nil
	runFrames(t, c, 1)
}

// Close refuses while managers follow the clock: tearing the clock down
// first would leave their pending releases without a proof of completion.
func TestCloseRefusesWhileFollowed(t *testing.T) {
	c, _ := manualFrames(t, 3, 10*time.Millisecond)
	var log []string
	r := &recorder{name: "a", log: &log}
	follow(t, c, r)
	err := c.Close()
	if !errors.Is(err, ErrFollowed) || !strings.Contains(err.Error(), "1 manager(s)") {
		t.Fatalf("Close while followed: %v, want ErrFollowed counting 1", err)
	}
	runFrames(t, c, 1) // still open
	if err := c.Unfollow(r); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Follow(r); !errors.Is(err, ErrClosed) {
		t.Errorf("Follow after Close: %v, want ErrClosed", err)
	}
}

func TestFollowErrors(t *testing.T) {
	c, _ := manualFrames(t, 2, time.Millisecond)
	var log []string
	a, b := &recorder{name: "a", log: &log}, &recorder{name: "b", log: &log}
	if err := c.Follow(nil); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("Follow(nil): %v", err)
	}
	follow(t, c, a)
	if err := c.Follow(a); !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), "already") {
		t.Errorf("second Follow of one follower: %v", err)
	}
	if err := c.Unfollow(b); !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), "not following") {
		t.Errorf("Unfollow of a stranger: %v", err)
	}
	if c.Followers() != 1 {
		t.Errorf("%d followers, want 1", c.Followers())
	}
}

// A follower added inside a frame hears that frame's end, then every
// boundary after it.
func TestFollowInsideAFrame(t *testing.T) {
	c, _ := manualFrames(t, 3, time.Millisecond)
	var log []string
	if _, err := c.BeginFrame(); err != nil {
		t.Fatal(err)
	}
	follow(t, c, &recorder{name: "late", log: &log})
	if err := c.EndFrame(); err != nil {
		t.Fatal(err)
	}
	wantLog(t, &log, "late.FrameEnded(1)")
}

// A frame whose fence failed to signal stays open for a retried EndFrame;
// the followers were told of its end once and are not told again.
func TestFrameEndedOnceWhenEndFrameIsRetried(t *testing.T) {
	fence := &brokenFence{CPUFence: CPUFence{manual: true}, signalErr: errors.New("device lost")}
	c, err := NewClock(ClockDesc{InFlight: 1, NewFence: func() (Fence, error) { return fence, nil }})
	if err != nil {
		t.Fatal(err)
	}
	var log []string
	follow(t, c, &recorder{name: "a", log: &log})
	if _, err := c.BeginFrame(); err != nil {
		t.Fatal(err)
	}
	if err := c.EndFrame(); err == nil {
		t.Fatal("EndFrame with a failing fence succeeded")
	}
	fence.signalErr = nil
	if err := c.EndFrame(); err != nil {
		t.Fatal(err)
	}
	wantLog(t, &log, "a.Retired(0)", "a.FrameBegun(1)", "a.FrameEnded(1)")
}
