package descriptors_test

import (
	"testing"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/guardtest"
)

// sentinels is every error this package returns.
var sentinels = []error{descriptors.ErrHeapExhausted, descriptors.ErrInvalidHandle, descriptors.ErrStaleHandle,
	descriptors.ErrInvalidConfig, descriptors.ErrInvalidCapacity, descriptors.ErrClosed, descriptors.ErrInUse,
	descriptors.ErrReentrant}

// TestRefusalCheckNeverAllocates tests every refusal a frame can meet
// with ==, a switch and errors.Is against every sentinel, under
// AllocsPerRun and millions of times in guarded frames. Before, a
// refusal was the heap's own *refusal, rewritten by the next refusal,
// and errors.Is on it allocated now and then while the runtime filled
// its type-assertion caches for that type.
func TestRefusalCheckNeverAllocates(t *testing.T) {
	r := newRig(t, descriptors.HeapDesc{Capacity: 4})
	r.begin()
	hs := r.alloc(4)
	if err := r.heap.Free(hs[3]); err != nil {
		t.Fatal(err)
	}
	stale := hs[3]
	other := newRig(t, descriptors.HeapDesc{Capacity: 4})
	foreign := other.alloc(1)[0]
	closed := newRig(t, descriptors.HeapDesc{Capacity: 4})
	if err := closed.heap.Close(); err != nil {
		t.Fatal(err)
	}
	dup := []descriptors.Handle{hs[0], hs[0]}
	batch := make([]descriptors.Handle, 2)
	guardtest.Refusals(t, sentinels, []guardtest.Refusal{
		{Name: "Alloc on a full heap", Want: descriptors.ErrHeapExhausted, Call: func() error { _, err := r.heap.Alloc(); return err }},
		{Name: "AllocN past the free slots", Want: descriptors.ErrHeapExhausted, Call: func() error { return r.heap.AllocN(batch) }},
		{Name: "Free of a stale handle", Want: descriptors.ErrStaleHandle, Call: func() error { return r.heap.Free(stale) }},
		{Name: "Free of another heap's handle", Want: descriptors.ErrInvalidHandle, Call: func() error { return r.heap.Free(foreign) }},
		{Name: "Get of the zero handle", Want: descriptors.ErrInvalidHandle, Call: func() error { _, err := r.heap.Get(descriptors.Handle{}); return err }},
		{Name: "FreeN with a repeat", Want: descriptors.ErrInvalidHandle, Call: func() error { return r.heap.FreeN(dup) }},
		{Name: "Alloc on a closed heap", Want: descriptors.ErrClosed, Call: func() error { _, err := closed.heap.Alloc(); return err }},
	}, 1_000_000)
	if st := r.heap.Stats(); st.Live != 3 || st.Pending != 1 {
		t.Errorf("the refusals changed the heap: %+v", st)
	}
	for _, h := range hs[:3] {
		if err := r.heap.Free(h); err != nil {
			t.Fatal(err)
		}
	}
	if err := other.heap.Free(foreign); err != nil {
		t.Fatal(err)
	}
	r.end()
	r.gpuCatchUp()
	r.drain()
}
