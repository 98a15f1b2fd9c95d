package descriptors_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// The frame protocol used to take serials from the caller, and two
// one-line mistakes deleted textures that frames in flight could still
// sample, with no error: forgetting heap.BeginFrame(serial) (Free then
// scheduled against frame 0, which every Retire releases), and passing
// heap.Retire(frames.Current()) instead of Completed() (the frame being
// recorded counted as done). These tests run on a clock whose fences
// never complete, so nothing may ever be released, and show that neither
// mistake can be written any more and that the code a renderer now writes
// in their place releases nothing early.

// neverDone is a heap with a releaser on a clock of 16 frames in flight
// whose fences complete only when the test says, which these tests never
// do until the end.
func neverDone(t *testing.T) (*rig, *recordingReleaser) {
	t.Helper()
	rel := &recordingReleaser{}
	return newRigClock(t, descriptors.HeapDesc{Capacity: 4, Releaser: rel},
		frame.ClockDesc{InFlight: 16, Timeout: 10 * time.Millisecond}), rel
}

// stillHeld checks that the slot of freed has been neither released nor
// reused, and that the heap cannot be closed over it.
func stillHeld(t *testing.T, r *rig, rel *recordingReleaser, freed descriptors.Handle, when string) {
	t.Helper()
	if len(rel.released) != 0 {
		t.Fatalf("%s: released slots %v while their frames are in flight", when, rel.released)
	}
	if r.heap.Valid(freed) {
		t.Fatalf("%s: the freed handle %v is still valid", when, freed)
	}
	if st := r.heap.Stats(); st.Pending != 1 || st.FreeStack != 0 || st.Reclaimed != 0 {
		t.Fatalf("%s: %+v, want the freed slot pending", when, st)
	}
	if err := r.heap.Close(); !errors.Is(err, descriptors.ErrInUse) {
		t.Fatalf("%s: Close over a slot in flight: %v, want ErrInUse", when, err)
	}
}

// Mistake 1, forgetting heap.BeginFrame(serial): there is no such call to
// forget. The renderer begins frames on the clock only; a texture freed in
// frame 3 stays pending while frames 3 and later are in flight, its slot
// is not reused (Alloc takes a fresh one, and refuses once the heap is
// full rather than reusing it), and Close refuses.
func TestMisuseNoHeapBeginFrameToForget(t *testing.T) {
	r, rel := neverDone(t)
	for i := 0; i < 2; i++ {
		r.begin()
		r.end()
	}
	r.begin() // frame 3
	font, _ := r.heap.Alloc()
	if err := r.heap.Free(font); err != nil {
		t.Fatal(err)
	}
	stillHeld(t, r, rel, font, "frame 3, right after Free")
	others := r.alloc(3)
	for _, h := range others {
		if h.Index() == font.Index() {
			t.Fatalf("Alloc reused slot %d of a texture frame 3 may still sample", h.Index())
		}
	}
	if _, err := r.heap.Alloc(); !errors.Is(err, descriptors.ErrHeapExhausted) {
		t.Fatalf("Alloc on a heap whose only free slot is in flight: %v, want ErrHeapExhausted", err)
	}
	r.end()
	for i := 0; i < 6; i++ { // frames 4..9 begin and end; the GPU finishes none
		r.begin()
		r.clock.Poll()
		r.end()
		stillHeld(t, r, rel, font, "frames after the Free")
	}
	if err := r.clock.Drain(); !errors.Is(err, frame.ErrFenceTimeout) {
		t.Fatalf("Drain over fences that never complete: %v", err)
	}
	stillHeld(t, r, rel, font, "after a timed-out Drain")
	// The GPU finishes frame 2 only: frame 3 is still in flight.
	r.retire(2)
	stillHeld(t, r, rel, font, "frame 2 complete")
	// Frame 3 completes: now, and only now, the slot is released.
	r.retire(3)
	if len(rel.released) != 1 || rel.released[0] != int(font.Index()) {
		t.Fatalf("after frame 3 completed: released %v, want [%d]", rel.released, font.Index())
	}
}

// Mistake 2, heap.Retire(frames.Current()) instead of Completed(): no
// method of the heap takes a frame serial, so no wrong one can be passed.
// Retirement happens only when the clock itself reports completion; a
// texture freed in frame 1 is held through the next frames' starts, which
// is exactly where the old mistake released it.
func TestMisuseNoSerialToPassWrong(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeOf(&descriptors.Heap{})} {
		for i := 0; i < typ.NumMethod(); i++ {
			m := typ.Method(i)
			for a := 1; a < m.Type.NumIn(); a++ {
				if m.Type.In(a) == reflect.TypeOf(uint64(0)) {
					t.Errorf("%v.%s takes a %v: a frame serial the caller could get wrong", typ, m.Name, m.Type.In(a))
				}
			}
		}
	}
	r, rel := neverDone(t)
	r.begin() // frame 1
	sky, _ := r.heap.Alloc()
	if err := r.heap.Free(sky); err != nil {
		t.Fatal(err)
	}
	r.end()
	for i := 0; i < 8; i++ { // frames 2..9: each start is where Retire(Current()) ran
		r.begin()
		stillHeld(t, r, rel, sky, "a later frame's start")
		if i == 0 {
			for _, h := range r.alloc(3) {
				if h.Index() == sky.Index() {
					t.Fatalf("frame 2 reused slot %d while frame 1 may sample it", h.Index())
				}
			}
		}
		if _, err := r.heap.Alloc(); !errors.Is(err, descriptors.ErrHeapExhausted) {
			t.Fatalf("Alloc with the only free slot in flight: %v, want ErrHeapExhausted", err)
		}
		r.end()
	}
	r.retire(1)
	if len(rel.released) != 1 || rel.released[0] != int(sky.Index()) {
		t.Fatalf("after frame 1 completed: released %v, want [%d] first", rel.released, sky.Index())
	}
}
