package frame

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// newClock returns a clock with the default settings (automatic CPU
// fences).
func newClock(tb testing.TB) *Clock {
	tb.Helper()
	fr, err := NewClock(ClockDesc{})
	if err != nil {
		tb.Fatal(err)
	}
	return fr
}

// manualFrames returns a clock over manual CPU fences; fences[i] is slot i,
// so frame serial s is completed by fences[s%inFlight].Complete().
func manualFrames(t *testing.T, inFlight int, timeout time.Duration) (*Clock, []*CPUFence) {
	t.Helper()
	var fences []*CPUFence
	fr, err := NewClock(ClockDesc{
		InFlight: inFlight,
		Timeout:  timeout,
		NewFence: func() (Fence, error) {
			f := NewCPUFence(true)
			fences = append(fences, f)
			return f, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return fr, fences
}

// runFrames begins and ends n frames, failing the test on any error.
func runFrames(tb testing.TB, fr *Clock, n int) {
	tb.Helper()
	for i := 0; i < n; i++ {
		if _, err := fr.BeginFrame(); err != nil {
			tb.Fatal(err)
		}
		if err := fr.EndFrame(); err != nil {
			tb.Fatal(err)
		}
	}
}

func TestNewFramesInvalidConfig(t *testing.T) {
	boom := errors.New("device lost")
	var made []*CPUFence
	tests := []struct {
		name string
		d    ClockDesc
		is   error
		want string
	}{
		{"negative in flight", ClockDesc{InFlight: -1}, ErrInvalidConfig, "InFlight -1"},
		{"too many in flight", ClockDesc{InFlight: 17}, ErrInvalidConfig, "InFlight 17"},
		{"negative timeout", ClockDesc{Timeout: -time.Second}, ErrInvalidConfig, "negative timeout"},
		{"nil fence", ClockDesc{NewFence: func() (Fence, error) { return nil, nil }}, ErrInvalidConfig, "nil Fence"},
		{"fence error", ClockDesc{InFlight: 3, NewFence: func() (Fence, error) {
			if len(made) == 2 {
				return nil, boom
			}
			f := NewCPUFence(false)
			made = append(made, f)
			return f, nil
		}}, boom, "making fence 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fr, err := NewClock(tt.d)
			if fr != nil || !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("NewClock = %v, %v; want %v mentioning %q", fr, err, tt.is, tt.want)
			}
		})
	}
	// The fences made before the failing one must not leak.
	for i, f := range made {
		if err := f.Signal(); !errors.Is(err, ErrClosed) {
			t.Fatalf("fence %d made before the failure was not closed: Signal = %v", i, err)
		}
	}
}

func TestFramesDefaults(t *testing.T) {
	fr := newClock(t)
	if fr.InFlight() != DefaultInFlight {
		t.Fatalf("InFlight %d, want %d", fr.InFlight(), DefaultInFlight)
	}
	for want := uint64(1); want <= 10; want++ {
		s, err := fr.BeginFrame()
		if err != nil || s != want || fr.Current() != want {
			t.Fatalf("BeginFrame = %d, %v (current %d); want serial %d", s, err, fr.Current(), want)
		}
		if err := fr.EndFrame(); err != nil {
			t.Fatal(err)
		}
	}
	if st := fr.Stats(); st.Last != 10 || st.Completed < 9 || st.Current != 0 {
		t.Fatalf("stats %+v after 10 automatic frames", st)
	}
}

func TestFramesErrors(t *testing.T) {
	tests := []struct {
		name string
		do   func(fr *Clock) error
		is   error
		want string
	}{
		{"begin twice", func(fr *Clock) error {
			if _, err := fr.BeginFrame(); err != nil {
				return err
			}
			_, err := fr.BeginFrame()
			return err
		}, ErrFrameOrder, "frame 1 is open"},
		{"end without begin", func(fr *Clock) error { return fr.EndFrame() }, ErrFrameOrder, "no open frame"},
		{"drain while open", func(fr *Clock) error {
			if _, err := fr.BeginFrame(); err != nil {
				return err
			}
			return fr.Drain()
		}, ErrFrameOrder, "Drain while frame 1"},
		{"begin after close", func(fr *Clock) error {
			if err := fr.Close(); err != nil {
				return err
			}
			_, err := fr.BeginFrame()
			return err
		}, ErrClosed, "BeginFrame"},
		{"end after close", func(fr *Clock) error {
			if _, err := fr.BeginFrame(); err != nil {
				return err
			}
			if err := fr.Close(); err != nil {
				return err
			}
			return fr.EndFrame()
		}, ErrClosed, "EndFrame"},
		{"drain after close", func(fr *Clock) error {
			if err := fr.Close(); err != nil {
				return err
			}
			return fr.Drain()
		}, ErrClosed, "Drain"},
		{"fence stuck", func(fr *Clock) error {
			for i := 0; i < 2; i++ {
				if _, err := fr.BeginFrame(); err != nil {
					return err
				}
				if err := fr.EndFrame(); err != nil {
					return err
				}
			}
			_, err := fr.BeginFrame() // reuses frame 1's slot; its fence never signals
			return err
		}, ErrFenceTimeout, "frame 1 stuck"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fr, _ := manualFrames(t, 2, 20*time.Millisecond)
			err := tt.do(fr)
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %v mentioning %q", err, tt.is, tt.want)
			}
		})
	}
}

func TestFramesCloseIdempotentAndClosesFences(t *testing.T) {
	fr, fences := manualFrames(t, 3, time.Second)
	if err := fr.Close(); err != nil {
		t.Fatal(err)
	}
	if err := fr.Close(); err != nil {
		t.Fatalf("second Close = %v, want nil", err)
	}
	for i, f := range fences {
		if err := f.Wait(0); !errors.Is(err, ErrClosed) {
			t.Fatalf("fence %d Wait after Frames.Close = %v, want ErrClosed", i, err)
		}
	}
}

func TestFenceTimeoutOpensNothingAndRecovers(t *testing.T) {
	fr, fences := manualFrames(t, 2, 10*time.Millisecond)
	runFrames(t, fr, 2)
	if _, err := fr.BeginFrame(); !errors.Is(err, ErrFenceTimeout) {
		t.Fatalf("BeginFrame = %v, want ErrFenceTimeout", err)
	}
	if st := fr.Stats(); st.Current != 0 || st.Last != 2 {
		t.Fatalf("a timed-out BeginFrame opened a frame: %+v", st)
	}
	fences[1].Complete() // frame 1's slot
	s, err := fr.BeginFrame()
	if err != nil || s != 3 {
		t.Fatalf("BeginFrame after the fence signalled = %d, %v; want 3", s, err)
	}
}

func TestBeginFrameWaitsOnlyForReusedSlot(t *testing.T) {
	fr, fences := manualFrames(t, 3, 5*time.Second)
	runFrames(t, fr, 3) // frames 1, 2, 3 in flight, none complete
	type begun struct {
		serial uint64
		err    error
	}
	done := make(chan begun, 1)
	go func() {
		s, err := fr.BeginFrame() // frame 4 reuses frame 1's slot
		done <- begun{s, err}
	}()
	// Frames 2 and 3 completing must not release frame 4: only frame 1's
	// fence guards the slot it reuses.
	fences[2].Complete()
	fences[0].Complete()
	select {
	case b := <-done:
		t.Fatalf("BeginFrame returned %+v before frame 1's fence signalled", b)
	case <-time.After(50 * time.Millisecond):
	}
	fences[1].Complete()
	b := <-done
	if b.err != nil || b.serial != 4 {
		t.Fatalf("BeginFrame = %+v, want serial 4", b)
	}
	if st := fr.Stats(); st.Waits != 1 || st.Completed != 3 {
		t.Fatalf("stats %+v, want one wait and frames 1-3 complete", st)
	}
}

func TestBeginFrameIgnoresOtherStuckFrames(t *testing.T) {
	fr, fences := manualFrames(t, 3, 20*time.Millisecond)
	runFrames(t, fr, 3)
	fences[1].Complete() // only frame 1; frames 2 and 3 stay stuck
	s, err := fr.BeginFrame()
	if err != nil || s != 4 {
		t.Fatalf("BeginFrame = %d, %v; want 4 without waiting on frames 2 and 3", s, err)
	}
	if err := fr.EndFrame(); err != nil {
		t.Fatal(err)
	}
	// Frame 5 reuses frame 2's slot, which is stuck.
	if _, err := fr.BeginFrame(); !errors.Is(err, ErrFenceTimeout) || !strings.Contains(err.Error(), "frame 2 stuck") {
		t.Fatalf("BeginFrame = %v, want a timeout naming frame 2", err)
	}
}

func TestPollClaimsOnlyACompletedPrefix(t *testing.T) {
	fr, fences := manualFrames(t, 3, time.Second)
	runFrames(t, fr, 3)
	fences[0].Complete() // frame 3 done, frames 1 and 2 not
	if c := fr.Poll(); c != 0 {
		t.Fatalf("Poll = %d with frame 1 still in flight, want 0", c)
	}
	fences[1].Complete()
	if c := fr.Poll(); c != 1 {
		t.Fatalf("Poll = %d, want 1 (frame 2 still in flight)", c)
	}
	fences[2].Complete()
	if c := fr.Poll(); c != 3 || fr.Completed() != 3 {
		t.Fatalf("Poll = %d, want 3", c)
	}
}

func TestDrainNamesStuckFrame(t *testing.T) {
	fr, fences := manualFrames(t, 3, 30*time.Millisecond)
	runFrames(t, fr, 3)
	fences[1].Complete()
	fences[0].Complete() // frames 1 and 3 done, frame 2 stuck
	err := fr.Drain()
	if !errors.Is(err, ErrFenceTimeout) || !strings.Contains(err.Error(), "frame 2 stuck") {
		t.Fatalf("Drain = %v, want a timeout naming frame 2", err)
	}
	fences[2].Complete()
	if err := fr.Drain(); err != nil {
		t.Fatalf("Drain after frame 2 signalled = %v", err)
	}
	if fr.Completed() != 3 {
		t.Fatalf("Completed %d after Drain, want 3", fr.Completed())
	}
}

func TestDrainTimeoutBoundsWholeDrain(t *testing.T) {
	fr, _ := manualFrames(t, 3, 40*time.Millisecond)
	runFrames(t, fr, 3) // three stuck frames
	start := time.Now()
	err := fr.Drain()
	if !errors.Is(err, ErrFenceTimeout) || !strings.Contains(err.Error(), "frame 1 stuck") {
		t.Fatalf("Drain = %v, want a timeout naming frame 1", err)
	}
	// Drain reports the oldest stuck frame first, not after three timeouts.
	if d := time.Since(start); d > 10*40*time.Millisecond {
		t.Fatalf("Drain took %v", d)
	}
}

func TestCPUFenceCompleteNeverGoesBack(t *testing.T) {
	f := NewCPUFence(true)
	for i := 0; i < 3; i++ {
		if err := f.Signal(); err != nil {
			t.Fatal(err)
		}
	}
	f.Complete()
	if !f.Done() {
		t.Fatal("fence not done after Complete")
	}
	if err := f.Signal(); err != nil {
		t.Fatal(err)
	}
	if f.Done() || !errors.Is(f.Wait(time.Millisecond), ErrFenceTimeout) {
		t.Fatal("a newly armed point counts as done")
	}
	f.Complete()
	if err := f.Wait(0); err != nil {
		t.Fatalf("Wait = %v after Complete", err)
	}
}

// brokenFence is a device fence that fails the way a lost device does:
// each operation fails when its error is set.
type brokenFence struct {
	CPUFence
	signalErr, waitErr, closeErr error
}

func (f *brokenFence) Signal() error {
	if f.signalErr != nil {
		return f.signalErr
	}
	return f.CPUFence.Signal()
}

func (f *brokenFence) Wait(d time.Duration) error {
	if f.waitErr != nil {
		return f.waitErr
	}
	return f.CPUFence.Wait(d)
}

func (f *brokenFence) Close() error {
	if f.closeErr != nil {
		return f.closeErr
	}
	return f.CPUFence.Close()
}

// TestFramesFenceErrors checks that a failing device fence surfaces as an
// error naming the frame, wrapping the device's error, and changes nothing.
func TestFramesFenceErrors(t *testing.T) {
	lost := errors.New("device lost")
	tests := []struct {
		name       string
		breakFence func(f *brokenFence)
		do         func(t *testing.T, fr *Clock) error
		want       string
		check      func(t *testing.T, fr *Clock)
	}{
		{"signal fails", func(f *brokenFence) { f.signalErr = lost }, func(t *testing.T, fr *Clock) error {
			if _, err := fr.BeginFrame(); err != nil {
				return err
			}
			return fr.EndFrame()
		}, "signalling frame 1", func(t *testing.T, fr *Clock) {
			// The frame stays open, so EndFrame can be retried and
			// nothing is reported complete that was never fenced.
			if fr.Current() != 1 || fr.Poll() != 0 {
				t.Fatalf("after a failed EndFrame: current %d completed %d", fr.Current(), fr.Completed())
			}
		}},
		{"wait fails", func(f *brokenFence) { f.waitErr = lost }, func(t *testing.T, fr *Clock) error {
			runFrames(t, fr, 2)
			_, err := fr.BeginFrame()
			return err
		}, "frame 1 stuck", func(t *testing.T, fr *Clock) {
			if st := fr.Stats(); st.Current != 0 || st.Last != 2 || st.Completed != 0 {
				t.Fatalf("a failed wait opened a frame or claimed one: %+v", st)
			}
		}},
		{"drain wait fails", func(f *brokenFence) { f.waitErr = lost }, func(t *testing.T, fr *Clock) error {
			runFrames(t, fr, 1)
			return fr.Drain()
		}, "frame 1 stuck", func(t *testing.T, fr *Clock) {
			if fr.Completed() != 0 {
				t.Fatalf("a failed Drain claimed frame %d complete", fr.Completed())
			}
		}},
		{"close fails", func(f *brokenFence) { f.closeErr = lost }, func(t *testing.T, fr *Clock) error {
			return fr.Close()
		}, "device lost", func(t *testing.T, fr *Clock) {
			if _, err := fr.BeginFrame(); !errors.Is(err, ErrClosed) {
				t.Fatalf("BeginFrame after a failed Close = %v, want ErrClosed", err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fr, err := NewClock(ClockDesc{InFlight: 2, Timeout: 10 * time.Millisecond, NewFence: func() (Fence, error) {
				f := &brokenFence{CPUFence: CPUFence{manual: true}}
				tt.breakFence(f)
				return f, nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			err = tt.do(t, fr)
			if !errors.Is(err, lost) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want the device error mentioning %q", err, tt.want)
			}
			tt.check(t, fr)
		})
	}
}

func TestPollAfterCloseClaimsNothing(t *testing.T) {
	fr, fences := manualFrames(t, 3, time.Second)
	runFrames(t, fr, 2)
	if err := fr.Close(); err != nil {
		t.Fatal(err)
	}
	// A closed GL fence reports done; completing the CPU fences stands in
	// for that. Frames must not take it as proof the frames finished.
	for _, f := range fences {
		f.Complete()
	}
	if c := fr.Poll(); c != 0 || fr.Completed() != 0 {
		t.Fatalf("Poll after Close = %d, want 0: closed fences prove nothing", c)
	}
}

func TestCPUFenceTimeoutError(t *testing.T) {
	f := NewCPUFence(true)
	if err := f.Signal(); err != nil {
		t.Fatal(err)
	}
	err := f.Wait(3 * time.Millisecond)
	if !errors.Is(err, ErrFenceTimeout) || !strings.Contains(err.Error(), "after 3ms") {
		t.Fatalf("Wait = %v, want ErrFenceTimeout saying how long it waited", err)
	}
}
