package descriptors_test

import (
	"testing"

	"github.com/steadyframe/steadyframe/descriptors"
)

func TestSteadyFramesDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates; allocation counts are checked without -race")
	}
	r := newRig(t, descriptors.HeapDesc{})
	r.begin()
	base := r.alloc(239)
	r.end()
	batch := make([]descriptors.Handle, 8)
	n := testing.AllocsPerRun(1000, func() {
		if _, err := r.clock.BeginFrame(); err != nil {
			t.Fatal(err)
		}
		h, err := r.heap.Alloc()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.heap.Get(h); err != nil {
			t.Fatal(err)
		}
		if err := r.heap.Free(h); err != nil {
			t.Fatal(err)
		}
		if err := r.heap.AllocN(batch); err != nil {
			t.Fatal(err)
		}
		if err := r.heap.FreeN(batch); err != nil {
			t.Fatal(err)
		}
		_ = r.heap.Stats()
		if err := r.clock.EndFrame(); err != nil {
			t.Fatal(err)
		}
		r.gpuCatchUp()
	})
	if n != 0 {
		t.Errorf("%v allocations per frame of heap work, want 0", n)
	}
	if st := r.heap.Stats(); st.Live != len(base) || st.Recycled == 0 {
		t.Errorf("after the run: %v", st)
	}
}

// Valid is a yes/no question a renderer asks per draw; a "no" must not
// build and drop an error. It allocated once per stale handle before
// Valid stopped going through Get.
func TestValidDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates; allocation counts are checked without -race")
	}
	r := newRig(t, descriptors.HeapDesc{})
	r.begin()
	live := r.alloc(2)
	if err := r.heap.Free(live[1]); err != nil {
		t.Fatal(err)
	}
	r.end()
	var zero descriptors.Handle
	stale := live[1]
	var answers [3]bool
	n := testing.AllocsPerRun(1000, func() {
		answers = [3]bool{r.heap.Valid(live[0]), r.heap.Valid(stale), r.heap.Valid(zero)}
	})
	if n != 0 {
		t.Errorf("Valid made %v allocations per run, want 0", n)
	}
	if answers != [3]bool{true, false, false} {
		t.Errorf("Valid(live, stale, zero) = %v, want [true false false]", answers)
	}
}
