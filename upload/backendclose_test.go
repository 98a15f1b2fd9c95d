package upload_test

import (
	"errors"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/upload"
)

// TestBackendCloseRefusedInFlight closes the Set's backend directly, as
// set.Backend().Close(), while frames whose fences never complete may
// still read the buffer. The backend must refuse with ErrInFlight and
// keep the buffer, and the Set must go on handing out views into it.
// Once the frames complete, the same call closes the Set too, which then
// hands out nothing.
func TestBackendCloseRefusedInFlight(t *testing.T) {
	clock, fences := slowClock(t, 3, 10*time.Millisecond)
	b := upload.NewCPUBackend(upload.CPUBackendDesc{})
	r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 64}}, Clock: clock, Backend: b})
	a := r.set.Arena(0)
	r.begin()
	if _, _, err := a.Alloc(8, 8); err != nil {
		t.Fatal(err)
	}
	if err := r.set.Backend().Close(); !errors.Is(err, upload.ErrInFlight) {
		t.Errorf("Backend().Close() inside a frame: %v, want ErrInFlight", err)
	}
	r.end()
	if err := r.set.Backend().Close(); !errors.Is(err, upload.ErrInFlight) {
		t.Errorf("Backend().Close() with frame 1 in flight: %v, want ErrInFlight", err)
	}
	r.begin()
	_, view, err := a.Alloc(8, 8)
	if err != nil {
		t.Fatalf("Alloc after the refused backend Close: %v", err)
	}
	view[0] = 1 // the memory is still mapped
	r.end()
	completeAll(fences)
	if err := clock.Drain(); err != nil {
		t.Fatal(err)
	}
	if err := r.set.Backend().Close(); err != nil {
		t.Fatalf("Backend().Close() after the drain: %v", err)
	}
	r.begin()
	if _, v, err := a.Alloc(8, 8); !errors.Is(err, upload.ErrClosed) || v != nil {
		t.Errorf("Alloc after the backend closed: %v, %d bytes; want ErrClosed and no view", err, len(v))
	}
	r.end()
	if err := r.set.Close(); err != nil {
		t.Errorf("Set.Close after its backend closed it: %v", err)
	}
}
