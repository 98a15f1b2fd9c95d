package descriptors_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// TestForeignHandle gives heap B the handles of heap A, made alike, so
// each names a slot of B that is live with the same generation. B must
// refuse them in Get, Free and FreeN, on a clock whose fences never
// complete, and B's own slots must stay live and unreleased.
func TestForeignHandle(t *testing.T) {
	clock := frame.ClockDesc{InFlight: 16, Timeout: 10 * time.Millisecond}
	relA, relB := &recordingReleaser{}, &recordingReleaser{}
	a := newRigClock(t, descriptors.HeapDesc{Name: "a", Capacity: 4, Releaser: relA}, clock)
	b := newRigClock(t, descriptors.HeapDesc{Name: "b", Capacity: 4, Releaser: relB}, clock)
	a.begin()
	b.begin()
	var ha, hb []descriptors.Handle
	for range 3 {
		h, err := a.heap.Alloc()
		if err != nil {
			t.Fatal(err)
		}
		ha = append(ha, h)
		if h, err = b.heap.Alloc(); err != nil {
			t.Fatal(err)
		}
		hb = append(hb, h)
	}
	for i, h := range ha {
		if h.Index() != hb[i].Index() || h.Generation() != hb[i].Generation() {
			t.Fatalf("heaps made alike issued %v and %v", h, hb[i])
		}
		if b.heap.Valid(h) {
			t.Errorf("B.Valid(A's %v) = true", h)
		}
		if _, err := b.heap.Get(h); !errors.Is(err, descriptors.ErrInvalidHandle) ||
			!strings.Contains(b.heap.LastRefusal().String(), "another heap") {
			t.Errorf("B.Get(A's %v) = %v, want ErrInvalidHandle naming another heap", h, err)
		}
		if err := b.heap.Free(h); !errors.Is(err, descriptors.ErrInvalidHandle) {
			t.Errorf("B.Free(A's %v) = %v, want ErrInvalidHandle", h, err)
		}
	}
	if err := b.heap.FreeN(ha); !errors.Is(err, descriptors.ErrInvalidHandle) {
		t.Errorf("B.FreeN(A's handles) = %v, want ErrInvalidHandle", err)
	}
	a.end()
	b.end()
	b.clock.Poll()
	for _, h := range hb {
		if i, err := b.heap.Get(h); err != nil || i != int(h.Index()) {
			t.Errorf("B's own %v after the refusals: %d, %v", h, i, err)
		}
	}
	if st := b.heap.Stats(); st.Live != 3 || st.Pending != 0 || len(relB.released) != 0 {
		t.Errorf("B after refusing A's handles: %+v, released %v; want 3 live, nothing pending or released", st, relB.released)
	}
	for i, h := range hb {
		if err := b.heap.Free(h); err != nil {
			t.Fatal(err)
		}
		if err := a.heap.Free(ha[i]); err != nil {
			t.Fatal(err)
		}
	}
	a.gpuCatchUp()
	b.gpuCatchUp()
	a.drain()
	b.drain()
}
