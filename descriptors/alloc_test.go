package descriptors_test

import (
	"errors"
	"testing"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/testenv"
)

func TestSteadyFramesDoNotAllocate(t *testing.T) {
	r := newRig(t, descriptors.HeapDesc{})
	r.begin()
	base := r.alloc(239)
	r.end()
	batch := make([]descriptors.Handle, 8)
	testenv.NoAllocs(t, "a frame of heap work", 1000, func() {
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
	if st := r.heap.Stats(); st.Live != len(base) || st.Recycled == 0 {
		t.Errorf("after the run: %v", st)
	}
}

// Valid is a yes/no question a renderer asks per draw; a "no" must not
// build and drop an error. It allocated once per stale handle before
// Valid stopped going through Get.
func TestValidDoesNotAllocate(t *testing.T) {
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
	testenv.NoAllocs(t, "Valid", 1000, func() {
		answers = [3]bool{r.heap.Valid(live[0]), r.heap.Valid(stale), r.heap.Valid(zero)}
	})
	if answers != [3]bool{true, false, false} {
		t.Errorf("Valid(live, stale, zero) = %v, want [true false false]", answers)
	}
}

// Refusals sit on frame paths (a full heap during a level load, a stale
// handle freed twice) and allocate nothing: each returns the heap's own
// error, formatted only when read.
func TestRefusalsDoNotAllocate(t *testing.T) {
	r := newRig(t, descriptors.HeapDesc{Capacity: 4, Name: "ui"})
	r.begin()
	live := r.alloc(3)
	stale, _ := r.heap.Alloc()
	if err := r.heap.Free(stale); err != nil {
		t.Fatal(err)
	}
	other := newRig(t, descriptors.HeapDesc{Capacity: 64})
	foreign := other.alloc(10)[9]
	dup := []descriptors.Handle{live[0], live[1], live[0]}
	withStale := []descriptors.Handle{live[0], stale}
	batch := make([]descriptors.Handle, 2)
	cases := []struct {
		name string
		call func() error
		want error
	}{
		{"Alloc on a full heap", func() error { _, err := r.heap.Alloc(); return err }, descriptors.ErrHeapExhausted},
		{"AllocN past the free slots", func() error { return r.heap.AllocN(batch) }, descriptors.ErrHeapExhausted},
		{"Free of a stale handle", func() error { return r.heap.Free(stale) }, descriptors.ErrStaleHandle},
		{"Free of the zero handle", func() error { return r.heap.Free(descriptors.Handle{}) }, descriptors.ErrInvalidHandle},
		{"Free of a foreign handle", func() error { return r.heap.Free(foreign) }, descriptors.ErrInvalidHandle},
		{"Get of a stale handle", func() error { _, err := r.heap.Get(stale); return err }, descriptors.ErrStaleHandle},
		{"FreeN with a repeat", func() error { return r.heap.FreeN(dup) }, descriptors.ErrInvalidHandle},
		{"FreeN with a stale handle", func() error { return r.heap.FreeN(withStale) }, descriptors.ErrStaleHandle},
	}
	for _, c := range cases {
		var err error
		testenv.NoAllocs(t, c.name, 1000, func() { err = c.call() })
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	// The refusals changed nothing.
	if st := r.heap.Stats(); st.Live != 3 || st.Pending != 1 || st.Refused == 0 {
		t.Errorf("after the refusals: %+v", st)
	}
	for _, h := range live {
		if !r.heap.Valid(h) {
			t.Errorf("%v invalid after refusals", h)
		}
	}
	// A returned error never changes: a later refusal is described by
	// LastRefusal, not by rewriting the error kept from the first.
	_, full := r.heap.Alloc()
	msg := full.Error()
	again := r.heap.Free(stale)
	if full != descriptors.ErrHeapExhausted || again != descriptors.ErrStaleHandle || full.Error() != msg {
		t.Errorf("a kept refusal changed: %v (was %q) / %v", full, msg, again)
	}
	if last := r.heap.LastRefusal(); last.Err != descriptors.ErrStaleHandle || last.Call != "Free" || last.Handle != stale {
		t.Errorf("LastRefusal %+v, want the stale Free", last)
	}
	r.end()
}
