package upload_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/upload"
)

// slowClock returns a clock with manual CPU fences: a "GPU" that only
// finishes a frame when the test says so.
func slowClock(t *testing.T, inFlight int, timeout time.Duration) (*frame.Clock, []*frame.CPUFence) {
	t.Helper()
	var fences []*frame.CPUFence
	c, err := frame.NewClock(frame.ClockDesc{InFlight: inFlight, Timeout: timeout, NewFence: func() (frame.Fence, error) {
		f := frame.NewCPUFence(true)
		fences = append(fences, f)
		return f, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c, fences
}

func completeAll(fences []*frame.CPUFence) {
	for _, f := range fences {
		f.Complete()
	}
}

// A region is reused only after the fence of the frame that wrote it: the
// clock refuses frame 3 while frame 1 is still on the "GPU", the arenas
// stay closed, and once the fence signals frame 3 writes frame 1's region.
func TestFrameStartWaitsForTheRegionItReuses(t *testing.T) {
	clock, fences := slowClock(t, 2, 10*time.Millisecond)
	r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 64}}, Clock: clock})
	a := r.set.Arena(0)
	for i := 0; i < 2; i++ {
		r.begin()
		_, v, _ := a.Alloc(8, 8)
		v[0] = byte(i + 1)
		r.end()
	}
	_, err := clock.BeginFrame()
	if !errors.Is(err, frame.ErrFenceTimeout) || !strings.Contains(err.Error(), "frame 1") {
		t.Fatalf("frame 3 with frame 1 unfinished: %v, want ErrFenceTimeout naming frame 1", err)
	}
	if _, _, err := a.Alloc(8, 8); !errors.Is(err, upload.ErrNoFrame) {
		t.Fatalf("Alloc after a failed BeginFrame: %v, want ErrNoFrame", err)
	}
	if r.set.Serial() != 0 {
		t.Errorf("Serial %d between frames, want 0", r.set.Serial())
	}
	completeAll(fences)
	if got := r.begin(); got != 3 {
		t.Fatalf("began frame %d, want 3", got)
	}
	off, _, err := a.Alloc(8, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := clock.Slot(1) * 256; off != want {
		t.Errorf("frame 3 allocated at %d, want frame 1's region at %d", off, want)
	}
	r.end()
	// The timed-out wait counts; the fence that had signalled by the next
	// BeginFrame is reused without blocking and does not.
	if st := a.Stats(); st.FenceWaits != 1 || st.WaitTime < 10*time.Millisecond {
		t.Errorf("fence waits %d (%v), want 1 of at least 10ms (the timeout)", st.FenceWaits, st.WaitTime)
	}
	if r.set.Stats().FenceWaits != a.Stats().FenceWaits {
		t.Error("Set and arena disagree on fence waits")
	}
	completeAll(fences)
}

// closeCounter is a CPU backend that counts Close, the call that unmaps
// the buffer the device reads.
type closeCounter struct {
	*upload.CPUBackend
	closes int
}

func (b *closeCounter) Close() error {
	b.closes++
	return b.CPUBackend.Close()
}

// Deleting the buffer while a frame that may read it is in flight cannot
// be done through the API: with fences that never complete, Close refuses
// and the buffer stays mapped, the clock refuses to close under the Set,
// and once the device finishes the same Close succeeds.
func TestCloseRefusesWhileFramesInFlight(t *testing.T) {
	clock, fences := slowClock(t, 3, time.Millisecond)
	b := &closeCounter{CPUBackend: upload.NewCPUBackend(upload.CPUBackendDesc{})}
	s, err := upload.NewSet(upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 64}}, Clock: clock, Backend: b})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, err := clock.BeginFrame(); err != nil {
			t.Fatal(err)
		}
		_, v, _ := s.Arena(0).Alloc(8, 1)
		v[0] = 1
		if err := clock.EndFrame(); err != nil {
			t.Fatal(err)
		}
	}
	err = s.Close()
	if !errors.Is(err, upload.ErrInFlight) || !strings.Contains(err.Error(), "frame 2 may still read") {
		t.Fatalf("Close with frames 1 and 2 in flight: %v, want ErrInFlight naming frame 2", err)
	}
	if err := clock.Drain(); !errors.Is(err, frame.ErrFenceTimeout) {
		t.Fatalf("Drain of fences that never complete: %v", err)
	}
	if err := s.Close(); !errors.Is(err, upload.ErrInFlight) {
		t.Fatalf("Close after a failed Drain: %v, want ErrInFlight", err)
	}
	if b.closes != 0 {
		t.Fatalf("the buffer was unmapped %d times while frames could read it", b.closes)
	}
	if err := clock.Close(); !errors.Is(err, frame.ErrFollowed) {
		t.Fatalf("closing the clock under the Set: %v, want ErrFollowed", err)
	}
	// The Set still works: the refusals changed nothing.
	if _, err := clock.BeginFrame(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Arena(0).Alloc(8, 1); err != nil {
		t.Fatalf("Alloc after refused Closes: %v", err)
	}
	if err := clock.EndFrame(); err != nil {
		t.Fatal(err)
	}
	completeAll(fences)
	if err := clock.Drain(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil || b.closes != 1 {
		t.Fatalf("Close after Drain: %v, %d unmaps; want nil and 1", err, b.closes)
	}
	if err := clock.Close(); err != nil {
		t.Fatalf("closing the clock after the Set: %v", err)
	}
}

func TestDebugScribblesRecycledRegionsAndCatchesStaleViews(t *testing.T) {
	r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 256}, {Name: "b", Size: 64}}, Debug: true})
	s, a := r.set, r.set.Arena(0)
	first := r.begin()
	_, kept, err := a.Alloc(32, 4)
	if err != nil {
		t.Fatal(err)
	}
	copy(kept, bytes.Repeat([]byte{1}, 32))
	if err := a.CheckView(kept); err != nil {
		t.Errorf("fresh view: %v", err)
	}
	if got, err := a.ViewSerial(kept); err != nil || got != first {
		t.Errorf("ViewSerial %d, %v; want %d", got, err, first)
	}
	if err := a.CheckView(kept[4:8]); err != nil {
		t.Errorf("sub-slice of a fresh view: %v", err)
	}
	r.end()
	if err := a.CheckView(kept); !errors.Is(err, upload.ErrStaleView) {
		t.Errorf("view used between frames: %v, want ErrStaleView", err)
	}
	// The next frame writes another region: the kept view is stale.
	r.begin()
	if err := a.CheckView(kept); !errors.Is(err, upload.ErrStaleView) {
		t.Errorf("view from frame %d used in frame %d: %v, want ErrStaleView", first, s.Serial(), err)
	}
	r.end()
	r.begin()
	r.end()
	// Frame 4 recycles frame 1's region: its bytes are scribbled, and the
	// kept view is caught even before the new frame allocates anything.
	r.begin()
	if !bytes.Equal(kept, bytes.Repeat([]byte{upload.Scribble}, 32)) {
		t.Errorf("recycled region not scribbled: % x", kept[:8])
	}
	if err := a.CheckView(kept); !errors.Is(err, upload.ErrStaleView) {
		t.Errorf("view from a recycled region: %v, want ErrStaleView", err)
	}
	if got, _ := a.ViewSerial(kept); got != first {
		t.Errorf("ViewSerial of the recycled view %d, want frame %d", got, first)
	}
	// Once frame 4 has allocated over it, the kept view lies in what frame
	// 4 owns: the address alone cannot tell them apart.
	if _, _, err := a.Alloc(64, 4); err != nil {
		t.Fatal(err)
	}
	if err := a.CheckView(kept); err != nil {
		t.Errorf("a view within frame 4's allocations: %v", err)
	}
	r.end()
	// Views that are not this arena's are unknown, not stale.
	r.begin()
	_, other, _ := s.Arena(1).Alloc(8, 1)
	if err := a.CheckView(other); !errors.Is(err, upload.ErrUnknownView) {
		t.Errorf("another arena's view: %v, want ErrUnknownView", err)
	}
	if err := a.CheckView(make([]byte, 8)); !errors.Is(err, upload.ErrUnknownView) {
		t.Errorf("foreign memory: %v, want ErrUnknownView", err)
	}
	r.end()
}

func TestCheckViewNeedsDebug(t *testing.T) {
	r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 64}}})
	r.begin()
	_, v, _ := r.set.Arena(0).Alloc(8, 1)
	err := r.set.Arena(0).CheckView(v)
	if upload.DebugBuild {
		if err != nil {
			t.Errorf("debug build: fresh view: %v", err)
		}
	} else if !errors.Is(err, upload.ErrUnknownView) {
		t.Errorf("CheckView without debug: %v, want ErrUnknownView", err)
	}
	r.end()
}
