package descriptors_test

import (
	"testing"

	"github.com/steadyframe/steadyframe/descriptors"
)

// The reference engine's measured churn, replayed on the slot table:
// boot reaches the menu on 38 slots and a loaded level on 239; two window
// resizes free 14 font-atlas slots and recycle 13; a Medium→High quality
// swap frees 30 and recycles all 30 with no fresh allocation, leaving the
// high-water mark pinned at 239.
func TestReferenceChurnNumbers(t *testing.T) {
	r := newRig(t, descriptors.HeapDesc{})
	r.begin()
	menu := r.alloc(38)
	atlas := menu[:7] // the font atlas pages are among the menu's slots
	if st := r.heap.Stats(); st.Live != 38 {
		t.Fatalf("menu: live %d, want 38", st.Live)
	}
	level := r.alloc(239 - 38)
	r.end()
	st := r.heap.Stats()
	if st.Live != 239 || st.HighWater != 239 {
		t.Fatalf("level: live %d high-water %d, want 239", st.Live, st.HighWater)
	}

	// Two resizes: each rebake frees the atlas's pages; the first rebake
	// needs 7 pages again, the second (a smaller window) 6.
	var freed, recycled uint64
	for i, pages := range []int{7, 6} {
		r.begin()
		before := r.heap.Stats()
		if err := r.heap.FreeN(atlas); err != nil {
			t.Fatal(err)
		}
		r.end()
		r.drain() // the rebake waits for the GPU before reusing descriptors
		r.begin()
		atlas = r.alloc(pages)
		r.end()
		after := r.heap.Stats()
		freed += after.Frees - before.Frees
		recycled += after.Recycled - before.Recycled
		if after.HighWater != 239 {
			t.Errorf("resize %d: high-water %d, want 239", i+1, after.HighWater)
		}
	}
	if freed != 14 || recycled != 13 {
		t.Errorf("two resizes freed %d and recycled %d, want 14 and 13", freed, recycled)
	}
	atlasLive := r.heap.Stats().Live // 238: one page fewer

	// Quality swap: 30 textures out, 30 in, no fresh slots.
	swap := level[:30]
	before := r.heap.Stats()
	r.begin()
	if err := r.heap.FreeN(swap); err != nil {
		t.Fatal(err)
	}
	r.end()
	r.drain()
	r.begin()
	r.alloc(30)
	r.end()
	after := r.heap.Stats()
	if got := after.Recycled - before.Recycled; got != 30 {
		t.Errorf("quality swap recycled %d, want all 30", got)
	}
	if after.HighWater != 239 || after.Live != atlasLive || after.Peak != 239 {
		t.Errorf("after the swap: high-water %d live %d peak %d; want 239, %d, 239", after.HighWater, after.Live, atlasLive, after.Peak)
	}
	t.Logf("menu 38, level 239; resizes freed %d recycled %d; swap recycled 30; %v", freed, recycled, after)
}

// 1,000 quality-swap cycles with frames flowing leave live and peak where
// they started. The GPU runs two frames behind, so freed slots need a few
// frames to retire: the high-water mark may rise by what is pending at
// once, then must stay put.
func TestThousandSwapCyclesLeaveLiveAndPeakUnmoved(t *testing.T) {
	r := newRig(t, descriptors.HeapDesc{})
	r.begin()
	textures := r.alloc(239)
	r.end()
	start := r.heap.Stats()
	var hwAfterWarmup int
	for cycle := 0; cycle < 1000; cycle++ {
		serial := r.begin()
		swap := textures[cycle%7*30 : cycle%7*30+30]
		if err := r.heap.FreeN(swap); err != nil {
			t.Fatal(err)
		}
		if err := r.heap.AllocN(swap); err != nil {
			t.Fatal(err)
		}
		r.end()
		if serial >= 2 {
			r.complete(serial - 1) // the GPU finishes the previous frame
		}
		if cycle == 10 {
			hwAfterWarmup = r.heap.Stats().HighWater
		}
	}
	r.drain()
	end := r.heap.Stats()
	if end.Live != start.Live || end.Peak != start.Peak {
		t.Errorf("after 1000 swaps live %d peak %d, started at %d and %d", end.Live, end.Peak, start.Live, start.Peak)
	}
	if end.HighWater != hwAfterWarmup || end.HighWater > 239+30*3 {
		t.Errorf("high-water %d after 1000 swaps, %d after warm-up: it must not creep", end.HighWater, hwAfterWarmup)
	}
	if end.Recycled < 29000 {
		t.Errorf("recycled %d of 30000 swapped slots", end.Recycled)
	}
	t.Logf("1000 swap cycles: %v", end)
}

// The same churn replayed with a drain at each swap pins the high-water
// mark exactly, for 1,000 cycles.
func TestThousandDrainedSwapsPinHighWater(t *testing.T) {
	r := newRig(t, descriptors.HeapDesc{})
	r.begin()
	textures := r.alloc(239)
	r.end()
	for cycle := 0; cycle < 1000; cycle++ {
		swap := textures[cycle%7*30 : cycle%7*30+30]
		r.begin()
		if err := r.heap.FreeN(swap); err != nil {
			t.Fatal(err)
		}
		r.end()
		r.drain()
		r.begin()
		if err := r.heap.AllocN(swap); err != nil {
			t.Fatal(err)
		}
		r.end()
	}
	st := r.heap.Stats()
	if st.Live != 239 || st.Peak != 239 || st.HighWater != 239 || st.Recycled != 30000 {
		t.Errorf("after 1000 drained swaps: %v (recycled %d); want live, peak and high-water 239, 30000 recycled", st, st.Recycled)
	}
}
