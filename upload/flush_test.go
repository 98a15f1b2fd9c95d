package upload_test

import (
	"errors"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/upload"
)

// flushBackend is a CPU backend that records the ranges it is asked to
// flush and can be told to fail, as glbuf's ModeMapRange would.
type flushBackend struct {
	*upload.CPUBackend
	ranges [][2]int
	fail   error
}

func (b *flushBackend) Flush(offset, size int) error {
	b.ranges = append(b.ranges, [2]int{offset, size})
	return b.fail
}

// Flush hands the backend each frame's newly written bytes once, in
// order, arena by arena, and nothing between frames or when nothing new
// was written.
func TestFlushHandsEachRangeOnce(t *testing.T) {
	fb := &flushBackend{CPUBackend: upload.NewCPUBackend(upload.CPUBackendDesc{Alignment: 16})}
	r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 256}, {Name: "b", Size: 64}}, Backend: fb})
	a, b := r.set.Arena(0), r.set.Arena(1)
	if err := a.Flush(); err != nil || len(fb.ranges) != 0 {
		t.Fatalf("Flush between frames: %v, ranges %v", err, fb.ranges)
	}
	r.begin()
	off1, _, _ := a.Alloc(10, 1)
	off2, _, _ := a.Alloc(20, 16) // 6 bytes of padding between them
	if err := a.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := a.Flush(); err != nil { // nothing new: no call
		t.Fatal(err)
	}
	off3, _, _ := a.Alloc(8, 1)
	offB, _, _ := b.Alloc(4, 1)
	if err := r.set.Flush(); err != nil {
		t.Fatal(err)
	}
	want := [][2]int{{off1, off2 + 20 - off1}, {off3, 8}, {offB, 4}}
	if len(fb.ranges) != len(want) {
		t.Fatalf("ranges %v, want %v", fb.ranges, want)
	}
	for i := range want {
		if fb.ranges[i] != want[i] {
			t.Errorf("range %d = %v, want %v", i, fb.ranges[i], want[i])
		}
	}
	r.end()
	// The next frame starts in another region, with nothing flushed.
	r.begin()
	off4, _, _ := a.Alloc(4, 1)
	if err := a.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := fb.ranges[len(fb.ranges)-1]; got != [2]int{off4, 4} || off4 == off1 {
		t.Errorf("next frame's range %v (offset %d), want %d bytes at a new region's start", got, off4, 4)
	}
	r.end()
}

// A backend's Flush error reaches the caller; the bytes count as
// flushed, so a retry does not hand them again.
func TestFlushReportsTheBackendsError(t *testing.T) {
	boom := errors.New("flush refused")
	fb := &flushBackend{CPUBackend: upload.NewCPUBackend(upload.CPUBackendDesc{}), fail: boom}
	r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 256}}, Backend: fb})
	r.begin()
	_, _, _ = r.set.Arena(0).Alloc(16, 1)
	if err := r.set.Flush(); !errors.Is(err, boom) {
		t.Errorf("Set.Flush = %v, want the backend's error", err)
	}
	if err := r.set.Arena(0).Flush(); err != nil || len(fb.ranges) != 1 {
		t.Errorf("second Flush = %v after %d calls, want nil after 1", err, len(fb.ranges))
	}
	r.end()
}

// Flush on a backend without one (CPUBackend, glbuf's ModePersistent)
// does nothing and allocates nothing.
func TestFlushDoesNotAllocate(t *testing.T) {
	r := newRig(t, upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "a", Size: 1 << 16}}})
	a := r.set.Arena(0)
	testenv.NoAllocs(t, "Alloc and Flush", 1000, func() {
		r.begin()
		for i := 0; i < 16; i++ {
			_, _, _ = a.Alloc(64, 16)
			_ = a.Flush()
		}
		_ = r.set.Flush()
		r.end()
	})
}
