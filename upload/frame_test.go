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

// sharedClock returns a Frames with manual CPU fences: a "GPU" that only
// finishes a frame when the test says so.
func sharedClock(t *testing.T, timeout time.Duration) (*frame.Clock, []*frame.CPUFence) {
	t.Helper()
	var fences []*frame.CPUFence
	f, err := frame.NewClock(frame.ClockDesc{Timeout: timeout, NewFence: func() (frame.Fence, error) {
		c := frame.NewCPUFence(true)
		fences = append(fences, c)
		return c, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f, fences
}

func completeAll(fences []*frame.CPUFence) {
	for _, f := range fences {
		f.Complete()
	}
}

// A region is reused only after the fence of the frame that wrote it: the
// fourth frame must not begin while frame 1 is still on the "GPU".
func TestBeginFrameWaitsForTheRegionItReuses(t *testing.T) {
	frames, fences := sharedClock(t, 30*time.Millisecond)
	s := newSet(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 64}}, Frames: frames})
	for i := 0; i < 3; i++ {
		if _, err := frames.BeginFrame(); err != nil {
			t.Fatal(err)
		}
		begin(t, s)
		end(t, s)
		if err := frames.EndFrame(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := frames.BeginFrame(); !errors.Is(err, frame.ErrFenceTimeout) {
		t.Fatalf("frame 4 began while frame 1 was in flight: %v", err)
	}
	if _, err := s.BeginFrame(); !errors.Is(err, upload.ErrFrameOrder) {
		t.Fatalf("Set.BeginFrame without an open shared frame: %v, want ErrFrameOrder", err)
	}
	// The GPU finishes frame 1 a little later, while BeginFrame waits.
	go func() {
		time.Sleep(5 * time.Millisecond)
		completeAll(fences)
	}()
	frames2, err := frames.BeginFrame()
	if err != nil {
		t.Fatal(err)
	}
	if got := begin(t, s); got != frames2 || got != 4 {
		t.Fatalf("Set began frame %d, clock frame %d; want 4", got, frames2)
	}
	if _, err := s.BeginFrame(); !errors.Is(err, upload.ErrFrameOrder) {
		t.Errorf("same frame begun twice: %v", err)
	}
	end(t, s)
	if err := frames.EndFrame(); err != nil {
		t.Fatal(err)
	}
	// The timed-out wait alone blocked 30ms; the second wait counts too
	// unless the scheduler ran the completing goroutine first.
	st := s.Arena(0).Stats()
	if st.FenceWaits < 1 || st.FenceWaits > 2 || st.WaitTime < 30*time.Millisecond {
		t.Errorf("fence waits %d, wait time %v; want 1 or 2 waits and at least 30ms", st.FenceWaits, st.WaitTime)
	}
	if s.Stats().FenceWaits != st.FenceWaits {
		t.Error("Set and arena disagree on fence waits")
	}
}

// A shared clock that ran ahead of its fences must not let the Set write
// a region still in flight: that is the hazard, and BeginFrame refuses it.
func TestSharedClockOutOfStepIsRefused(t *testing.T) {
	frames, fences := sharedClock(t, time.Millisecond)
	s := newSet(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 64}}, Frames: frames})
	if _, err := frames.BeginFrame(); err != nil {
		t.Fatal(err)
	}
	begin(t, s)
	end(t, s)
	if err := frames.EndFrame(); err != nil {
		t.Fatal(err)
	}
	// Skipping Set.BeginFrame for a frame is allowed; its region stays idle.
	for i := 0; i < 2; i++ {
		if _, err := frames.BeginFrame(); err != nil {
			t.Fatal(err)
		}
		if err := frames.EndFrame(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := frames.BeginFrame(); err == nil {
		t.Fatal("clock began frame 4 with frame 1 in flight")
	}
	// The Set must not follow the clock into a frame it refused: frame 1's
	// region is still on the "GPU".
	if _, err := s.BeginFrame(); !errors.Is(err, upload.ErrFrameOrder) {
		t.Fatalf("Set.BeginFrame after the clock refused frame 4: %v, want ErrFrameOrder", err)
	}
	if _, _, err := s.Arena(0).Alloc(8, 1); !errors.Is(err, upload.ErrNoFrame) {
		t.Fatalf("Alloc with no frame open: %v, want ErrNoFrame", err)
	}
	if s.Serial() != 0 {
		t.Errorf("Serial %d between frames, want 0", s.Serial())
	}
	// Once the GPU catches up, frame 4 reuses frame 1's region.
	completeAll(fences)
	if _, err := frames.BeginFrame(); err != nil {
		t.Fatal(err)
	}
	if got := begin(t, s); got != 4 {
		t.Fatalf("Set began frame %d, want 4", got)
	}
	off, _, err := s.Arena(0).Alloc(8, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := frames.Slot(1) * 256; off != want {
		t.Errorf("frame 4 allocated at %d, want frame 1's region at %d", off, want)
	}
	end(t, s)
	if err := frames.EndFrame(); err != nil {
		t.Fatal(err)
	}
}

// The Set that owns its clock fences with its backend; with manual
// fences it cannot outrun the simulated GPU by more than InFlight frames.
func TestOwnedClockUsesBackendFences(t *testing.T) {
	b := upload.NewCPUBackend(upload.CPUBackendDesc{ManualFences: true, Alignment: 64})
	s := newSet(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 64}}, Backend: b, InFlight: 2})
	if s.Stats().InFlight != 2 || s.Stats().Reserved != 128 {
		t.Fatalf("stats %+v, want 2 frames of 64 bytes", s.Stats())
	}
	for i := 0; i < 10; i++ {
		if i >= 2 {
			b.CompleteAll()
		}
		begin(t, s)
		end(t, s)
	}
	if s.Stats().Frames != 10 || s.Frames().Stats().Last != 10 {
		t.Errorf("frames %d, clock at %d; want 10", s.Stats().Frames, s.Frames().Stats().Last)
	}
	b.CompleteAll()
}

func TestDebugScribblesRecycledRegionsAndCatchesStaleViews(t *testing.T) {
	s := newSet(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 256}, {Name: "b", Size: 64}}, Debug: true})
	a := s.Arena(0)
	first := begin(t, s)
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
	end(t, s)
	if err := a.CheckView(kept); !errors.Is(err, upload.ErrStaleView) {
		t.Errorf("view used between frames: %v, want ErrStaleView", err)
	}
	// The next frame writes another region: the kept view is stale.
	begin(t, s)
	if err := a.CheckView(kept); !errors.Is(err, upload.ErrStaleView) {
		t.Errorf("view from frame %d used in frame %d: %v, want ErrStaleView", first, s.Serial(), err)
	}
	end(t, s)
	begin(t, s)
	end(t, s)
	// Frame 4 recycles frame 1's region: its bytes are scribbled, and the
	// kept view is caught even before the new frame allocates anything.
	begin(t, s)
	if !bytes.Equal(kept, bytes.Repeat([]byte{upload.Scribble}, 32)) {
		t.Errorf("recycled region not scribbled: % x", kept[:8])
	}
	if err := a.CheckView(kept); !errors.Is(err, upload.ErrStaleView) {
		t.Errorf("view from a recycled region: %v, want ErrStaleView", err)
	}
	if got, _ := a.ViewSerial(kept); got != first {
		t.Errorf("ViewSerial of the recycled view %d, want frame %d", got, first)
	}
	end(t, s)
	// Views that are not this arena's are unknown, not stale.
	begin(t, s)
	_, other, _ := s.Arena(1).Alloc(8, 1)
	if err := a.CheckView(other); !errors.Is(err, upload.ErrUnknownView) {
		t.Errorf("another arena's view: %v, want ErrUnknownView", err)
	}
	if err := a.CheckView(make([]byte, 8)); !errors.Is(err, upload.ErrUnknownView) {
		t.Errorf("foreign memory: %v, want ErrUnknownView", err)
	}
	end(t, s)
}

func TestCheckViewNeedsDebug(t *testing.T) {
	s := newSet(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 64}}})
	begin(t, s)
	_, v, _ := s.Arena(0).Alloc(8, 1)
	err := s.Arena(0).CheckView(v)
	if upload.DebugBuild {
		if err != nil {
			t.Errorf("debug build: fresh view: %v", err)
		}
	} else if !errors.Is(err, upload.ErrUnknownView) {
		t.Errorf("CheckView without debug: %v, want ErrUnknownView", err)
	}
	end(t, s)
}

// With its own clock the Set's BeginFrame is the wait: a region whose
// frame the "GPU" has not finished is not reused, the Set stays between
// frames, and it proceeds once the fence signals.
func TestOwnedBeginFrameWaitsForTheFence(t *testing.T) {
	b := upload.NewCPUBackend(upload.CPUBackendDesc{ManualFences: true})
	s := newSet(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 64}}, Backend: b,
		InFlight: 2, Timeout: 10 * time.Millisecond})
	a := s.Arena(0)
	for i := 0; i < 2; i++ {
		begin(t, s)
		_, v, _ := a.Alloc(8, 8)
		v[0] = byte(i + 1)
		end(t, s)
	}
	_, err := s.BeginFrame()
	if !errors.Is(err, frame.ErrFenceTimeout) || !strings.Contains(err.Error(), "frame 1") {
		t.Fatalf("frame 3 with frame 1 unfinished: %v, want ErrFenceTimeout naming frame 1", err)
	}
	if _, _, err := a.Alloc(8, 8); !errors.Is(err, upload.ErrNoFrame) {
		t.Fatalf("Alloc after a failed BeginFrame: %v, want ErrNoFrame", err)
	}
	b.CompleteAll()
	if got := begin(t, s); got != 3 {
		t.Fatalf("began frame %d, want 3", got)
	}
	end(t, s)
	// The timed-out wait counts; the fence that had signalled by the next
	// BeginFrame is reused without blocking and does not.
	if st := a.Stats(); st.FenceWaits != 1 {
		t.Errorf("fence waits %d, want 1 (the timeout)", st.FenceWaits)
	}
	b.CompleteAll()
}
