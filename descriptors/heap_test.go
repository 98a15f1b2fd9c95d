package descriptors_test

import (
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// rig drives a heap the way a renderer does, with a frame clock whose
// fences complete only when the test says (a slow GPU).
type rig struct {
	t      testing.TB
	heap   *descriptors.Heap
	clock  *frame.Clock
	fences []*frame.CPUFence
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// newRig makes a heap on a clock of three frames in flight.
func newRig(t testing.TB, d descriptors.HeapDesc) *rig { return newRigN(t, d, 3) }

// newRigN makes a heap on a clock of inFlight frames in flight; with 16,
// a test can keep many frames unfinished without the clock waiting.
func newRigN(t testing.TB, d descriptors.HeapDesc, inFlight int) *rig {
	t.Helper()
	return newRigClock(t, d, frame.ClockDesc{InFlight: inFlight})
}

// newRigClock makes a heap on a clock configured by cd, whose fences are
// manual CPU fences.
func newRigClock(t testing.TB, d descriptors.HeapDesc, cd frame.ClockDesc) *rig {
	t.Helper()
	if d.Logger == nil {
		d.Logger = quiet()
	}
	r := &rig{t: t}
	var err error
	cd.NewFence = func() (frame.Fence, error) {
		f := frame.NewCPUFence(true)
		r.fences = append(r.fences, f)
		return f, nil
	}
	r.clock, err = frame.NewClock(cd)
	if err != nil {
		t.Fatal(err)
	}
	d.Clock = r.clock
	h, err := descriptors.NewHeap(d)
	if err != nil {
		t.Fatal(err)
	}
	r.heap = h
	// The heap follows the clock, so a test that left slots behind keeps
	// the clock open too; there is nothing else to release.
	t.Cleanup(func() {
		if r.heap.Close() == nil {
			_ = r.clock.Close()
		}
	})
	return r
}

// begin opens a frame; the heap retires what completed frames allow.
func (r *rig) begin() uint64 {
	r.t.Helper()
	serial, err := r.clock.BeginFrame()
	if err != nil {
		r.t.Fatal(err)
	}
	return serial
}

func (r *rig) end() {
	r.t.Helper()
	if err := r.clock.EndFrame(); err != nil {
		r.t.Fatal(err)
	}
}

// gpuCatchUp completes every submitted frame.
func (r *rig) gpuCatchUp() {
	for _, f := range r.fences {
		f.Complete()
	}
}

// complete finishes one frame on the "GPU": the fence of its slot.
func (r *rig) complete(serial uint64) { r.fences[r.clock.Slot(serial)].Complete() }

// retire completes every frame through c on the "GPU" and polls the
// clock, which tells the heap; it returns how many slots retired.
func (r *rig) retire(c uint64) int {
	for s := uint64(1); s <= c; s++ {
		r.complete(s)
	}
	before := r.heap.Stats().Reclaimed
	r.clock.Poll()
	return int(r.heap.Stats().Reclaimed - before)
}

// drain waits for every frame, which retires everything pending, as a
// level transition or quality swap does.
func (r *rig) drain() {
	r.t.Helper()
	r.gpuCatchUp()
	if err := r.clock.Drain(); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) alloc(n int) []descriptors.Handle {
	r.t.Helper()
	hs := make([]descriptors.Handle, n)
	if err := r.heap.AllocN(hs); err != nil {
		r.t.Fatal(err)
	}
	return hs
}

func TestDefaultsAndConfig(t *testing.T) {
	clock, err := frame.NewClock(frame.ClockDesc{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := descriptors.NewHeap(descriptors.HeapDesc{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	if h.Capacity() != 1024 || h.Stats().Name != "textures" {
		t.Errorf("capacity %d name %q, want 1024 textures", h.Capacity(), h.Stats().Name)
	}
	for _, c := range []int{-1, descriptors.MaxCapacity + 1} {
		if _, err := descriptors.NewHeap(descriptors.HeapDesc{Capacity: c, Clock: clock}); !errors.Is(err, descriptors.ErrInvalidConfig) {
			t.Errorf("capacity %d: %v, want ErrInvalidConfig", c, err)
		}
	}
	if _, err := descriptors.NewHeap(descriptors.HeapDesc{LogInterval: -1, Clock: clock}); !errors.Is(err, descriptors.ErrInvalidConfig) {
		t.Errorf("negative LogInterval: %v", err)
	}
	if _, err := descriptors.NewHeap(descriptors.HeapDesc{}); !errors.Is(err, descriptors.ErrInvalidConfig) ||
		!strings.Contains(err.Error(), "nil Clock") {
		t.Errorf("no clock: %v, want ErrInvalidConfig naming the clock", err)
	}
	// Only the heap that was made follows the clock; refused ones left
	// nothing behind.
	if clock.Followers() != 1 {
		t.Errorf("%d followers, want 1", clock.Followers())
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if err := clock.Close(); err != nil {
		t.Errorf("closing the clock after the heap: %v", err)
	}
}

func TestHandlesAreGenerationalAndZeroIsInvalid(t *testing.T) {
	r := newRig(t, descriptors.HeapDesc{Capacity: 4})
	r.begin()
	a, _ := r.heap.Alloc()
	if a.IsZero() || a.Generation() == 0 {
		t.Fatalf("handle %v must not be zero", a)
	}
	if i, err := r.heap.Get(a); err != nil || i != int(a.Index()) {
		t.Fatalf("Get(%v) = %d, %v", a, i, err)
	}
	// A handle of a larger heap names a slot this one does not have.
	other := newRig(t, descriptors.HeapDesc{Capacity: 128})
	foreign := other.alloc(100)[99]
	for _, bad := range []descriptors.Handle{{}, foreign} {
		if _, err := r.heap.Get(bad); !errors.Is(err, descriptors.ErrInvalidHandle) {
			t.Errorf("Get(%v): %v, want ErrInvalidHandle", bad, err)
		}
		if err := r.heap.Free(bad); !errors.Is(err, descriptors.ErrInvalidHandle) {
			t.Errorf("Free(%v): %v, want ErrInvalidHandle", bad, err)
		}
	}
	if err := r.heap.Free(a); err != nil {
		t.Fatal(err)
	}
	// Stale at once, before retirement: every call checks.
	if _, err := r.heap.Get(a); !errors.Is(err, descriptors.ErrStaleHandle) {
		t.Errorf("Get after Free: %v, want ErrStaleHandle", err)
	}
	if err := r.heap.Free(a); !errors.Is(err, descriptors.ErrStaleHandle) {
		t.Errorf("double Free: %v, want ErrStaleHandle", err)
	}
	if r.heap.Valid(a) {
		t.Error("Valid true for a freed handle")
	}
	r.end()
	r.drain()
	r.begin()
	b, _ := r.heap.Alloc()
	if b.Index() != a.Index() || b.Generation() == a.Generation() {
		t.Errorf("reused slot: old %v new %v; want same index, new generation", a, b)
	}
	if _, err := r.heap.Get(a); !errors.Is(err, descriptors.ErrStaleHandle) {
		t.Errorf("old handle to a reused slot: %v, want ErrStaleHandle", err)
	}
	if a.String() != "slot 0 gen 1" || b.String() != "slot 0 gen 3" || (descriptors.Handle{}).String() != "none" {
		t.Errorf("String: %q, %q, %q; want the pools format", a, b, descriptors.Handle{})
	}
	r.end()
}

// A freed slot stays out of circulation until the frame that freed it has
// completed on the device; then it is reused before the high-water mark
// moves.
func TestFreedSlotsWaitForTheirFrames(t *testing.T) {
	r := newRig(t, descriptors.HeapDesc{Capacity: 8})
	r.begin()
	hs := r.alloc(4)
	r.end()
	freedIn := r.begin()
	if err := r.heap.Free(hs[1]); err != nil {
		t.Fatal(err)
	}
	r.end()
	// Two more frames; the GPU has finished only frame 1, which the
	// fourth frame needs to reuse its fence.
	r.begin()
	r.end()
	r.complete(1)
	r.begin()
	if st := r.heap.Stats(); st.Pending != 1 || st.Live != 3 || st.FreeStack != 0 {
		t.Fatalf("while frame %d is in flight: %+v; want 1 pending, 3 live", freedIn, st)
	}
	fresh, _ := r.heap.Alloc()
	if fresh.Index() != 4 {
		t.Errorf("Alloc with the freed slot still pending took slot %d, want fresh slot 4", fresh.Index())
	}
	r.end()
	r.gpuCatchUp()
	r.begin()
	if st := r.heap.Stats(); st.Pending != 0 || st.FreeStack != 1 || st.Reclaimed != 1 {
		t.Fatalf("after frame %d completed: %+v; want it retired", freedIn, st)
	}
	again, _ := r.heap.Alloc()
	if again.Index() != hs[1].Index() {
		t.Errorf("Alloc took slot %d, want the retired slot %d before bumping", again.Index(), hs[1].Index())
	}
	if st := r.heap.Stats(); st.HighWater != 5 || st.Recycled != 1 {
		t.Errorf("high-water %d recycled %d, want 5 and 1", st.HighWater, st.Recycled)
	}
	r.end()
}

func TestReuseIsLIFOAmongRetiredSlots(t *testing.T) {
	r := newRig(t, descriptors.HeapDesc{Capacity: 16})
	r.begin()
	hs := r.alloc(6)
	for _, i := range []int{2, 0, 5} {
		if err := r.heap.Free(hs[i]); err != nil {
			t.Fatal(err)
		}
	}
	r.end()
	r.drain()
	r.begin()
	for _, want := range []int{5, 0, 2, 6} {
		h, _ := r.heap.Alloc()
		if int(h.Index()) != want {
			t.Errorf("Alloc took slot %d, want %d (last retired first, then bump)", h.Index(), want)
		}
	}
	r.end()
}

func TestBatchesAreAllOrNothing(t *testing.T) {
	r := newRig(t, descriptors.HeapDesc{Capacity: 10})
	r.begin()
	hs := r.alloc(7)
	before := r.heap.Stats()
	dst := make([]descriptors.Handle, 4)
	err := r.heap.AllocN(dst)
	if !errors.Is(err, descriptors.ErrHeapExhausted) {
		t.Fatalf("AllocN(4) with 3 free: %v, want ErrHeapExhausted", err)
	}
	for _, h := range dst {
		if !h.IsZero() {
			t.Fatal("a refused AllocN wrote handles")
		}
	}
	after := r.heap.Stats()
	if after.Live != before.Live || after.HighWater != before.HighWater || after.Refused != 1 {
		t.Errorf("refused AllocN changed the heap: %+v -> %+v", before, after)
	}
	// FreeN with one stale handle frees nothing.
	if err := r.heap.Free(hs[6]); err != nil {
		t.Fatal(err)
	}
	if err := r.heap.FreeN(hs[4:]); !errors.Is(err, descriptors.ErrStaleHandle) {
		t.Fatalf("FreeN with a stale handle: %v", err)
	}
	if !r.heap.Valid(hs[4]) || !r.heap.Valid(hs[5]) {
		t.Fatal("a refused FreeN freed some handles")
	}
	dup := []descriptors.Handle{hs[0], hs[1], hs[0]}
	if err := r.heap.FreeN(dup); err != descriptors.ErrInvalidHandle || !strings.Contains(r.heap.LastRefusal().String(), "twice") {
		t.Fatalf("FreeN with a repeated handle: %v", err)
	}
	if !r.heap.Valid(hs[0]) || !r.heap.Valid(hs[1]) {
		t.Fatal("a refused FreeN freed some handles")
	}
	if err := r.heap.FreeN(hs[:6]); err != nil {
		t.Fatal(err)
	}
	if st := r.heap.Stats(); st.Live != 0 || st.Pending != 7 {
		t.Errorf("after FreeN: %+v", st)
	}
	if err := r.heap.AllocN(nil); err != nil {
		t.Errorf("AllocN(nil): %v", err)
	}
	r.end()
}

func TestExhaustionReadsAsALeak(t *testing.T) {
	r := newRig(t, descriptors.HeapDesc{Capacity: 4, Name: "atlas"})
	r.begin()
	hs := r.alloc(4)
	if err := r.heap.Free(hs[0]); err != nil {
		t.Fatal(err)
	}
	_, err := r.heap.Alloc()
	if !errors.Is(err, descriptors.ErrHeapExhausted) {
		t.Fatalf("Alloc on a full heap: %v", err)
	}
	msg := r.heap.LastRefusal().String()
	for _, want := range []string{`"atlas"`, "live 3", "peak 4", "pending 1", "retired 0", "capacity 4", "never freed"} {
		if !strings.Contains(msg, want) {
			t.Errorf("refusal %q lacks %q", msg, want)
		}
	}
	r.end()
}

func TestCloseRefusesLeaks(t *testing.T) {
	r := newRig(t, descriptors.HeapDesc{Capacity: 4})
	r.begin()
	h, _ := r.heap.Alloc()
	if err := r.heap.Close(); !errors.Is(err, descriptors.ErrInUse) {
		t.Fatalf("Close with a live slot: %v", err)
	}
	_ = r.heap.Free(h)
	if err := r.heap.Close(); !errors.Is(err, descriptors.ErrInUse) {
		t.Fatalf("Close with a pending slot: %v", err)
	}
	r.end()
	if err := r.clock.Close(); !errors.Is(err, frame.ErrFollowed) {
		t.Fatalf("closing the clock under the heap: %v, want ErrFollowed", err)
	}
	r.drain()
	if err := r.heap.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.heap.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := r.heap.Alloc(); !errors.Is(err, descriptors.ErrClosed) {
		t.Errorf("Alloc after Close: %v", err)
	}
	if err := r.heap.Free(h); !errors.Is(err, descriptors.ErrClosed) {
		t.Errorf("Free after Close: %v", err)
	}
	if err := r.clock.Close(); err != nil {
		t.Errorf("closing the clock after the heap: %v", err)
	}
}

// The releaser sees each slot exactly when it retires, never earlier.
type recordingReleaser struct{ released []int }

func (r *recordingReleaser) ReleaseSlot(i int) { r.released = append(r.released, i) }

func TestReleaserRunsAtRetirement(t *testing.T) {
	rel := &recordingReleaser{}
	r := newRig(t, descriptors.HeapDesc{Capacity: 8, Releaser: rel})
	r.begin()
	hs := r.alloc(3)
	_ = r.heap.Free(hs[2])
	_ = r.heap.Free(hs[0])
	r.end()
	r.begin()
	if len(rel.released) != 0 {
		t.Fatalf("released %v before the frame completed", rel.released)
	}
	r.end()
	r.drain()
	if len(rel.released) != 2 || rel.released[0] != 2 || rel.released[1] != 0 {
		t.Errorf("released %v, want [2 0] (in free order)", rel.released)
	}
}

func TestErrorsArePrefixedAndDistinct(t *testing.T) {
	errs := []error{descriptors.ErrHeapExhausted, descriptors.ErrInvalidHandle, descriptors.ErrStaleHandle,
		descriptors.ErrInvalidConfig, descriptors.ErrClosed, descriptors.ErrInUse, descriptors.ErrInvalidCapacity,
		descriptors.ErrReentrant}
	for i, a := range errs {
		if !strings.HasPrefix(a.Error(), "descriptors: ") {
			t.Errorf("%q lacks the package prefix", a)
		}
		for j, b := range errs {
			if i != j && errors.Is(a, b) {
				t.Errorf("%v matches %v", a, b)
			}
		}
	}
}

// The heap rests on pools: its slot table is a pools.Pool, not a copy of
// one (issue 9), and it stays free of cgo and of the device backends.
func TestRestsOnPools(t *testing.T) {
	var pools, cgo bool
	for _, d := range testenv.Deps(t, "github.com/steadyframe/steadyframe/descriptors", false) {
		pools = pools || d.Path == "github.com/steadyframe/steadyframe/pools"
		cgo = cgo || d.Cgo
	}
	if !pools {
		t.Error("descriptors does not import pools")
	}
	if cgo {
		t.Error("descriptors depends on a cgo package")
	}
}
