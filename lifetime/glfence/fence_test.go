package glfence_test

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/glfence"
)

// GLFW must run on the main OS thread: lock the main goroutine to it here
// and serve GL calls from it in TestMain.
func init() { runtime.LockOSThread() }

func TestMain(m *testing.M) { os.Exit(gltest.ServeMain(m.Run)) }

func TestFenceLifecycle(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		fence, err := glfence.New()
		if err != nil {
			return err
		}
		f := fence.(*glfence.Fence)
		if !f.Done() {
			t.Error("an unsignalled fence must count as complete")
		}
		if err := f.Wait(time.Second); err != nil {
			t.Errorf("Wait on an unsignalled fence: %v", err)
		}
		for i := 0; i < 3; i++ {
			gl.Clear(gl.COLOR_BUFFER_BIT)
			if err := f.Signal(); err != nil {
				return err
			}
			if err := f.Wait(2 * time.Second); err != nil {
				return err
			}
			if !f.Done() {
				t.Errorf("signal %d: Done false after a successful Wait", i)
			}
		}
		if f.Signals() != 3 {
			t.Errorf("Signals %d, want 3", f.Signals())
		}
		// Re-signalling without waiting must replace, not leak, the sync.
		for i := 0; i < 100; i++ {
			if err := f.Signal(); err != nil {
				return err
			}
		}
		gl.Finish()
		if !f.Done() {
			t.Error("Done false after glFinish")
		}
		if err := f.Close(); err != nil {
			return err
		}
		if err := f.Signal(); !errors.Is(err, frame.ErrClosed) {
			t.Errorf("Signal after Close: %v, want ErrClosed", err)
		}
		if err := f.Wait(time.Millisecond); !errors.Is(err, frame.ErrClosed) {
			t.Errorf("Wait after Close: %v, want ErrClosed", err)
		}
		if e := gl.GetError(); e != gl.NO_ERROR {
			t.Errorf("GL error 0x%x", e)
		}
		return nil
	})
}

func TestFencesDriveFrames(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		frames, err := frame.NewClock(frame.ClockDesc{NewFence: glfence.New})
		if err != nil {
			return err
		}
		defer frames.Close()
		for i := 0; i < 30; i++ {
			serial, err := frames.BeginFrame()
			if err != nil {
				return err
			}
			if serial > 3 && frames.Completed() < serial-3 {
				t.Errorf("frame %d began with only %d completed", serial, frames.Completed())
			}
			gl.Clear(gl.COLOR_BUFFER_BIT)
			if err := frames.EndFrame(); err != nil {
				return err
			}
		}
		if err := frames.Drain(); err != nil {
			return err
		}
		if got := frames.Completed(); got != 30 {
			t.Errorf("Completed after Drain %d, want 30", got)
		}
		return nil
	})
}

// TestClosedFenceNeverCompletes closes, behind the clock's back, the
// fence of a frame still in flight (a NewFence wrapper that kept the
// fences): the clock must go on reporting that frame incomplete, in Poll
// and in Drain, because nothing can prove it complete any more.
func TestClosedFenceNeverCompletes(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		var kept []frame.Fence
		clock, err := frame.NewClock(frame.ClockDesc{InFlight: 2, Timeout: 50 * time.Millisecond,
			NewFence: func() (frame.Fence, error) {
				f, err := glfence.New()
				kept = append(kept, f)
				return f, err
			}})
		if err != nil {
			return err
		}
		defer clock.Close()
		serial, err := clock.BeginFrame()
		if err != nil {
			return err
		}
		gl.Clear(gl.COLOR_BUFFER_BIT)
		if err := clock.EndFrame(); err != nil {
			return err
		}
		if err := kept[clock.Slot(serial)].Close(); err != nil {
			return err
		}
		for i := 0; i < 3; i++ {
			gl.Finish()
			if done := clock.Poll(); done >= serial {
				return fmt.Errorf("Poll reports frame %d complete (completed %d) on a fence closed before it was seen done", serial, done)
			}
		}
		if err := clock.Drain(); !errors.Is(err, frame.ErrClosed) {
			t.Errorf("Drain with a closed, unproven fence: %v, want ErrClosed", err)
		}
		if clock.Completed() >= serial {
			t.Errorf("Completed %d after the failed Drain, want below %d", clock.Completed(), serial)
		}
		return nil
	})
}
