package descriptors_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/descriptors"
)

// reentrantReleaser calls back into its heap from ReleaseSlot, which the
// SlotReleaser contract forbids, and records what the heap answered and
// which slots it was told to release while they were live again.
type reentrantReleaser struct {
	heap     *descriptors.Heap
	taken    []descriptors.Handle
	errs     []error
	released []int
	reissued []int // slots released while a handle to them was live
}

func (r *reentrantReleaser) ReleaseSlot(i int) {
	if r.heap == nil {
		return
	}
	for _, h := range r.taken {
		if int(h.Index()) == i && r.heap.Stats().Live > 0 {
			r.reissued = append(r.reissued, i)
		}
	}
	r.released = append(r.released, i)
	h, err := r.heap.Alloc()
	if err == nil {
		r.taken = append(r.taken, h)
	}
	r.errs = append(r.errs, err, r.heap.Free(h), r.heap.Grow(64), r.heap.Close())
	if _, err := r.heap.Get(h); err != nil {
		r.errs = append(r.errs, err)
	}
}

// TestReleaserReentryRefused frees two slots and lets the clock reclaim
// them both in one batch. A releaser that calls Alloc from the first
// ReleaseSlot used to get the second slot, live again, and then be told to
// release it: its new texture deleted under a live handle. Every call it
// makes must be refused with ErrReentrant, changing nothing.
func TestReleaserReentryRefused(t *testing.T) {
	rel := &reentrantReleaser{}
	r := newRig(t, descriptors.HeapDesc{Capacity: 4, Releaser: rel})
	rel.heap = r.heap
	r.begin()
	hs := r.alloc(2)
	for _, h := range hs {
		if err := r.heap.Free(h); err != nil {
			t.Fatal(err)
		}
	}
	r.end()
	r.retire(1)
	if len(rel.released) != 2 {
		t.Fatalf("released %v, want both freed slots", rel.released)
	}
	if len(rel.reissued) != 0 || len(rel.taken) != 0 {
		t.Errorf("ReleaseSlot reissued slots %v to the releaser (%v)", rel.reissued, rel.taken)
	}
	for _, err := range rel.errs {
		if err != descriptors.ErrReentrant {
			t.Errorf("a call from ReleaseSlot returned %v, want the bare ErrReentrant", err)
		}
	}
	if len(rel.errs) != 2*5 {
		t.Errorf("%d refusals recorded, want 10", len(rel.errs))
	}
	if last := r.heap.LastRefusal(); last.Err != descriptors.ErrReentrant || !strings.Contains(last.String(), "ReleaseSlot") {
		t.Errorf("LastRefusal %v, want the reentrant call", last)
	}
	if st := r.heap.Stats(); st.Live != 0 || st.Pending != 0 || st.Capacity != 4 {
		t.Errorf("after the refused calls: %+v", st)
	}
	// Outside ReleaseSlot the heap works again.
	h, err := r.heap.Alloc()
	if err != nil {
		t.Fatalf("Alloc after the reclaim: %v", err)
	}
	if err := r.heap.Free(h); err != nil {
		t.Fatal(err)
	}
	rel.heap = nil // the drain's releases must not call back again
	r.gpuCatchUp()
	r.drain()
}

// TestExhaustionNamesRetirement checks that an exhaustion caused by
// retired slots says so and advises Grow; the real retirement takes 2^31
// uses (TestSpentSlotRetiresForGood, with STEADYFRAME_LONG=1).
func TestExhaustionNamesRetirement(t *testing.T) {
	r := descriptors.Refusal{Err: descriptors.ErrHeapExhausted, Heap: "t", Call: "Alloc", Want: 1,
		Live: 0, Peak: 1, Pending: 0, Retired: 1, Capacity: 1}
	msg := r.String()
	for _, want := range []string{"retired 1", "spent their generations", "Grow"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "never freed") || !errors.Is(r.Err, descriptors.ErrHeapExhausted) {
		t.Errorf("%q blames leaks for a retired slot", msg)
	}
}
