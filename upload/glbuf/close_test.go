package glbuf_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/upload"
	"github.com/steadyframe/steadyframe/upload/glbuf"
)

// TestBackendCloseRefusedInFlight closes a Set's GL backend directly
// (set.Backend().Close()) while a frame whose fence never completes may
// still read the buffer: it must refuse with upload.ErrInFlight, keep
// the GL buffer, and the Set's next views must still be mapped memory.
func TestBackendCloseRefusedInFlight(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		b, err := glbuf.New()
		if err != nil {
			return err
		}
		var fences []*frame.CPUFence
		clock, err := frame.NewClock(frame.ClockDesc{Timeout: 10 * time.Millisecond, NewFence: func() (frame.Fence, error) {
			f := frame.NewCPUFence(true) // a GPU that never finishes until told
			fences = append(fences, f)
			return f, nil
		}})
		if err != nil {
			return err
		}
		set, err := upload.NewSet(upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 4096}}, Clock: clock, Backend: b})
		if err != nil {
			return err
		}
		if _, err := clock.BeginFrame(); err != nil {
			return err
		}
		if _, _, err := set.Arena(0).Alloc(64, 16); err != nil {
			return err
		}
		if err := clock.EndFrame(); err != nil {
			return err
		}
		buf := b.Buffer()
		if err := set.Backend().Close(); !errors.Is(err, upload.ErrInFlight) {
			t.Errorf("Backend().Close() with frame 1 in flight: %v, want upload.ErrInFlight", err)
		}
		if b.Buffer() != buf || !gl.IsBuffer(buf) {
			t.Errorf("the refused Close deleted the buffer (name %d, was %d)", b.Buffer(), buf)
		}
		if _, err := clock.BeginFrame(); err != nil {
			return err
		}
		_, view, err := set.Arena(0).Alloc(64, 16)
		if err != nil {
			return fmt.Errorf("Alloc after the refused backend Close: %w", err)
		}
		view[0] = 7 // must still be mapped memory
		if err := clock.EndFrame(); err != nil {
			return err
		}
		for _, f := range fences {
			f.Complete()
		}
		if err := clock.Drain(); err != nil {
			return err
		}
		if err := set.Backend().Close(); err != nil {
			return fmt.Errorf("Backend().Close() after the drain: %w", err)
		}
		if b.Buffer() != 0 {
			t.Errorf("buffer %d kept after Close", b.Buffer())
		}
		if err := set.Close(); err != nil {
			return fmt.Errorf("Set.Close after its backend closed it: %w", err)
		}
		return clock.Close()
	})
}
