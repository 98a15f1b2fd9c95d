package descriptors_test

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/testenv"
)

// bare makes a heap on a clock of 16 frames in flight, so a test says
// exactly which frames have completed (rig.retire) and the clock never
// waits.
func bare(t *testing.T, d descriptors.HeapDesc) *rig { return newRigN(t, d, 16) }

func allocN(t *testing.T, h *descriptors.Heap, n int) []descriptors.Handle {
	t.Helper()
	hs := make([]descriptors.Handle, n)
	if err := h.AllocN(hs); err != nil {
		t.Fatal(err)
	}
	return hs
}

func wantSlot(t *testing.T, h *descriptors.Heap, slot int) descriptors.Handle {
	t.Helper()
	hd, err := h.Alloc()
	if err != nil || int(hd.Index()) != slot {
		t.Fatalf("Alloc = %v, %v; want slot %d", hd, err, slot)
	}
	return hd
}

// Grow refuses a capacity that is not a raise or is past MaxCapacity,
// names what was wrong, and leaves the heap exactly as it was.
func TestGrowRejectsBadCapacity(t *testing.T) {
	for _, c := range []struct {
		name     string
		capacity int
		msg      string
	}{
		{"equal", 8, "Grow(8) on heap \"ui\" of 8 slots (a heap never shrinks; want 9..16777216)"},
		{"smaller", 4, "Grow(4) on heap \"ui\" of 8 slots (a heap never shrinks"},
		{"zero", 0, "Grow(0) on heap \"ui\" of 8 slots"},
		{"negative", -1, "Grow(-1) on heap \"ui\" of 8 slots"},
		{"above maximum", descriptors.MaxCapacity + 1, fmt.Sprintf("Grow(%d) on heap \"ui\" is above MaxCapacity %d",
			descriptors.MaxCapacity+1, descriptors.MaxCapacity)},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			r := bare(t, descriptors.HeapDesc{Name: "ui", Capacity: 8, Logger: slog.New(slog.NewTextHandler(&buf, nil))})
			h := r.heap
			r.begin()
			hs := allocN(t, h, 7) // 87.5%: the 75% level is disarmed
			_ = h.Free(hs[3])
			before := h.Stats()
			buf.Reset()
			err := h.Grow(c.capacity)
			if !errors.Is(err, descriptors.ErrInvalidCapacity) {
				t.Fatalf("Grow(%d) = %v, want ErrInvalidCapacity", c.capacity, err)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("Grow(%d) = %q, want it to contain %q", c.capacity, err, c.msg)
			}
			if after := h.Stats(); after != before || h.Capacity() != 8 {
				t.Errorf("a refused Grow changed the heap: %+v, was %+v", after, before)
			}
			if buf.Len() != 0 {
				t.Errorf("a refused Grow logged: %s", buf.String())
			}
			for k, hd := range hs {
				if k != 3 && !h.Valid(hd) {
					t.Errorf("%v invalid after a refused Grow", hd)
				}
			}
			r.end()
			r.retire(1)
			wantSlot(t, h, 3)
		})
	}
	h := bare(t, descriptors.HeapDesc{Capacity: 2}).heap
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if err := h.Grow(4); !errors.Is(err, descriptors.ErrClosed) {
		t.Errorf("Grow after Close: %v, want ErrClosed", err)
	}
}

// Every live handle keeps its index and generation across Grow; freed
// ones stay stale.
func TestHandlesStayValidAcrossGrow(t *testing.T) {
	r := bare(t, descriptors.HeapDesc{Capacity: 6})
	h := r.heap
	r.begin()
	hs := allocN(t, h, 6)
	_ = h.Free(hs[1])
	r.end()
	r.retire(1)
	r.begin()
	again := wantSlot(t, h, 1) // generation 3 of slot 1: 1 was issued, 2 marked it freed
	_ = h.Free(hs[4])
	stale := []descriptors.Handle{hs[1], hs[4]}
	live := []descriptors.Handle{hs[0], again, hs[2], hs[3], hs[5]}
	if err := h.Grow(64); err != nil {
		t.Fatal(err)
	}
	for _, hd := range live {
		if idx, err := h.Get(hd); err != nil || idx != int(hd.Index()) {
			t.Errorf("%v after Grow: %d, %v", hd, idx, err)
		}
	}
	if again.Generation() != 3 || !h.Valid(again) {
		t.Errorf("reissued %v not valid after Grow", again)
	}
	for _, hd := range stale {
		if _, err := h.Get(hd); !errors.Is(err, descriptors.ErrStaleHandle) {
			t.Errorf("stale %v after Grow: %v", hd, err)
		}
	}
	if err := h.FreeN(live); err != nil {
		t.Fatal(err)
	}
	if st := h.Stats(); st.Capacity != 64 || st.Live != 0 || st.Pending != 6 || st.Free != 58 {
		t.Errorf("stats %+v", st)
	}
}

// An exhausted heap that is grown hands out the new slots, above the
// high-water mark, and is exhausted again at its new capacity.
func TestAllocAfterExhaustionAndGrow(t *testing.T) {
	h := bare(t, descriptors.HeapDesc{Capacity: 4}).heap
	allocN(t, h, 4)
	if _, err := h.Alloc(); !errors.Is(err, descriptors.ErrHeapExhausted) {
		t.Fatalf("Alloc on a full heap: %v", err)
	}
	if err := h.Grow(7); err != nil {
		t.Fatal(err)
	}
	if st := h.Stats(); st.Capacity != 7 || st.Free != 3 || st.HighWater != 4 || h.Capacity() != 7 {
		t.Errorf("after Grow: %+v", st)
	}
	wantSlot(t, h, 4)
	batch := allocN(t, h, 2)
	if batch[0].Index() != 5 || batch[1].Index() != 6 {
		t.Errorf("AllocN after Grow gave %v", batch)
	}
	if _, err := h.Alloc(); err != descriptors.ErrHeapExhausted ||
		!strings.Contains(h.LastRefusal().String(), "capacity 7") {
		t.Errorf("Alloc past the grown capacity: %v", err)
	}
	if err := h.AllocN(make([]descriptors.Handle, 1)); !errors.Is(err, descriptors.ErrHeapExhausted) {
		t.Errorf("AllocN past the grown capacity: %v", err)
	}
	if st := h.Stats(); st.Refused != 3 || st.Peak != 7 || st.HighWater != 7 {
		t.Errorf("stats %+v", st)
	}
}

// Slots freed before Grow stay pending across it, retire after their own
// frames (not earlier, not later) in the order they were freed, and come
// back last-in first-out before the high-water mark rises again. Two
// Grows in a row with pending slots keep the order too.
func TestPendingFreesRetireAcrossGrow(t *testing.T) {
	rel := &recordingReleaser{}
	r := bare(t, descriptors.HeapDesc{Capacity: 4, Releaser: rel})
	h := r.heap
	r.begin() // frame 1
	hs := allocN(t, h, 4)
	_ = h.Free(hs[1])
	_ = h.Free(hs[3])
	if err := h.Grow(6); err != nil {
		t.Fatal(err)
	}
	r.end()
	// Frame 2: slots 1 and 3 are still pending, so Alloc takes a fresh one.
	r.begin()
	live := []descriptors.Handle{wantSlot(t, h, 4)}
	_ = h.Free(hs[0])
	if err := h.Grow(8); err != nil {
		t.Fatal(err)
	}
	r.end()
	r.begin() // frame 3
	_ = h.Free(hs[2])
	r.end()
	if st := h.Stats(); st.Pending != 4 || st.Live != 1 || st.FreeStack != 0 || st.Capacity != 8 {
		t.Fatalf("before retiring: %+v", st)
	}

	if n := r.retire(0); n != 0 || len(rel.released) != 0 {
		t.Fatalf("nothing complete retired %d: %v", n, rel.released)
	}
	if n := r.retire(1); n != 2 || fmt.Sprint(rel.released) != "[1 3]" {
		t.Fatalf("frame 1 complete retired %d: %v, want [1 3]", n, rel.released)
	}
	live = append(live, wantSlot(t, h, 3)) // last retired, first reused
	if n := r.retire(2); n != 1 || fmt.Sprint(rel.released) != "[1 3 0]" {
		t.Fatalf("frame 2 complete retired %d: %v, want [1 3 0]", n, rel.released)
	}
	live = append(live, wantSlot(t, h, 0), wantSlot(t, h, 1))
	live = append(live, wantSlot(t, h, 5)) // free list empty: the high-water mark rises
	if n := r.retire(3); n != 1 || fmt.Sprint(rel.released) != "[1 3 0 2]" {
		t.Fatalf("frame 3 complete retired %d: %v, want [1 3 0 2]", n, rel.released)
	}
	live = append(live, wantSlot(t, h, 2))
	st := h.Stats()
	if st.HighWater != 6 || st.Pending != 0 || st.Live != 6 || st.Reclaimed != 4 || st.Recycled != 4 {
		t.Errorf("after retiring: %+v", st)
	}

	// Slots freed after both Grows go on the newest queue and retire
	// there; Close needs them all retired.
	r.begin() // frame 4
	if err := h.FreeN(live); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); !errors.Is(err, descriptors.ErrInUse) {
		t.Fatalf("Close with pending slots: %v", err)
	}
	r.end()
	if n := r.retire(4); n != 6 {
		t.Fatalf("frame 4 complete retired %d, want 6", n)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
}

// The 75% and 90% levels are measured against the grown capacity, and a
// level the growth puts occupancy clearly below is re-armed.
func TestGrowRecomputesWarningLevels(t *testing.T) {
	var buf bytes.Buffer
	h := bare(t, descriptors.HeapDesc{Capacity: 100, Logger: slog.New(slog.NewTextHandler(&buf, nil))}).heap
	allocN(t, h, 74)
	if err := h.Grow(200); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"level=INFO", `msg="descriptors: heap grown"`, "heap=textures", "old_capacity=100",
		"capacity=200", "live=74", "pending=0", "peak=74", "high_water=74"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("Grow's record lacks %q: %s", want, buf.String())
		}
	}
	buf.Reset()
	allocN(t, h, 75) // 149 of 200: 74.5%, below the new 75% level
	if buf.Len() != 0 {
		t.Fatalf("warned below 75%% of the grown heap: %s", buf.String())
	}
	allocN(t, h, 1) // 150 of 200
	if got := countLines(&buf, "crossed 75% occupancy"); got != 1 {
		t.Fatalf("at 150 of 200: %d warnings, want 1:\n%s", got, buf.String())
	}
	if !strings.Contains(buf.String(), "capacity=200 ") || strings.Contains(buf.String(), "capacity=100") {
		t.Errorf("warning does not carry the grown capacity: %s", buf.String())
	}

	// 80 of 100 has warned at 75%. Growing to 200 (40%) re-arms it, so
	// the next crossing, at 150, warns again.
	buf.Reset()
	h = bare(t, descriptors.HeapDesc{Capacity: 100, Logger: slog.New(slog.NewTextHandler(&buf, nil))}).heap
	allocN(t, h, 80)
	if err := h.Grow(200); err != nil {
		t.Fatal(err)
	}
	allocN(t, h, 69) // 149
	if got := countLines(&buf, "crossed 75%"); got != 1 {
		t.Fatalf("before the grown level: %d warnings, want 1", got)
	}
	allocN(t, h, 1)
	if got := countLines(&buf, "crossed 75%"); got != 2 {
		t.Errorf("at 150 of 200 after re-arming: %d warnings, want 2", got)
	}
	allocN(t, h, 30) // 180: 90%
	if got := countLines(&buf, "crossed 90%"); got != 1 {
		t.Errorf("at 180 of 200: %d 90%% warnings, want 1", got)
	}

	// 80 of 100 growing to 105 stays at 76%, above 75 - Hysteresis: the
	// level stays disarmed and rising further does not warn again.
	buf.Reset()
	h = bare(t, descriptors.HeapDesc{Capacity: 100, Logger: slog.New(slog.NewTextHandler(&buf, nil))}).heap
	allocN(t, h, 80)
	if err := h.Grow(105); err != nil {
		t.Fatal(err)
	}
	allocN(t, h, 5) // 85 of 105: 81%
	if got := countLines(&buf, "crossed 75%"); got != 1 {
		t.Errorf("a small Grow re-armed the 75%% level: %d warnings, want 1", got)
	}
	if st := h.Stats(); st.Warnings != 1 || st.Capacity != 105 {
		t.Errorf("stats %+v", st)
	}
}

// Steady frames after a Grow, with slots still pending on the replaced
// queue, allocate nothing.
func TestSteadyFramesAfterGrowDoNotAllocate(t *testing.T) {
	r := newRig(t, descriptors.HeapDesc{Capacity: 64})
	r.begin()
	base := r.alloc(60)
	if err := r.heap.FreeN(base[:20]); err != nil {
		t.Fatal(err)
	}
	r.end()
	if err := r.heap.Grow(256); err != nil {
		t.Fatal(err)
	}
	testenv.NoAllocs(t, "a frame after Grow", 200, func() {
		if _, err := r.clock.BeginFrame(); err != nil {
			t.Fatal(err)
		}
		hd, err := r.heap.Alloc()
		if err != nil {
			t.Fatal(err)
		}
		if err := r.heap.Free(hd); err != nil {
			t.Fatal(err)
		}
		if err := r.clock.EndFrame(); err != nil {
			t.Fatal(err)
		}
		r.gpuCatchUp()
	})
	// The warm-up frame ran before frame 1 completed, so it took slot 60;
	// the measured ones drained the replaced queue and recycled.
	if st := r.heap.Stats(); st.Reclaimed < 20 || st.Live != 40 || st.HighWater != 61 || st.Recycled < 199 {
		t.Errorf("after the run: %v", st)
	}
}
