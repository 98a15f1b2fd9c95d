package main

import (
	"testing"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/upload"
)

// frameLoop drives the CPU backends the way the render goroutine does.
type frameLoop struct {
	t     *testing.T
	clock *frame.Clock
	set   *upload.Set
	heap  *descriptors.Heap
	tx    *cpuTextures
}

func newFrameLoop(t *testing.T) *frameLoop {
	clock, err := frame.NewClock(frame.ClockDesc{})
	if err != nil {
		t.Fatal(err)
	}
	set, err := upload.NewSet(upload.SetDesc{Arenas: scene.Arenas(), Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	heap, err := descriptors.NewHeap(descriptors.HeapDesc{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	return &frameLoop{t: t, clock: clock, set: set, heap: heap,
		tx: &cpuTextures{heap: heap, arena: set.Arena(scene.ArenaRenderer)}}
}

func (f *frameLoop) frame(body func()) {
	if _, err := f.clock.BeginFrame(); err != nil {
		f.t.Fatal(err)
	}
	body()
	if err := f.clock.EndFrame(); err != nil {
		f.t.Fatal(err)
	}
}

// TestChurnRecyclesSlots holds the reference's numbers: a level on 239
// slots; quality swaps, rebakes and level transitions recycle slots, so
// after the first cycle of each the high-water mark stops growing and live
// returns to 239.
func TestChurnRecyclesSlots(t *testing.T) {
	f := newFrameLoop(t)
	var tex *textures
	f.frame(func() {
		var err error
		if tex, err = newTextures(f.tx); err != nil {
			t.Fatal(err)
		}
	})
	if s := f.heap.Stats(); s.Live != 239 {
		t.Fatalf("level loaded on %d slots, want 239", s.Live)
	}
	idle := func() {
		for i := 0; i < 4; i++ {
			f.frame(func() {})
		}
	}
	cycle := func() {
		f.frame(func() { tex.swapQuality() })
		idle()
		f.frame(func() {
			if err := tex.bakeFont(3); err != nil {
				t.Fatal(err)
			}
		})
		idle()
		f.frame(func() { tex.transition() })
		idle()
	}
	cycle()
	cycle()
	hw := f.heap.Stats().HighWater
	for i := 0; i < 50; i++ {
		cycle()
	}
	s := f.heap.Stats()
	if s.Live != 239 || s.Peak != 239 {
		t.Errorf("after churn: live %d peak %d, want 239 and 239", s.Live, s.Peak)
	}
	if s.HighWater != hw {
		t.Errorf("high-water grew from %d to %d: churn leaks slots", hw, s.HighWater)
	}
	if tex.failures != 0 || tex.swaps != 52 || tex.levels != 52 || tex.rebakes != 52 {
		t.Errorf("failures %d, swaps %d, levels %d, rebakes %d", tex.failures, tex.swaps, tex.levels, tex.rebakes)
	}
	f.frame(func() { tex.releaseAll() })
	if err := f.clock.Drain(); err != nil {
		t.Fatal(err)
	}
	if err := f.tx.Close(); err != nil {
		t.Errorf("heap close after releasing everything: %v", err)
	}
}

func TestChurnNoAllocs(t *testing.T) {
	f := newFrameLoop(t)
	var tex *textures
	f.frame(func() { tex, _ = newTextures(f.tx) })
	for i := 0; i < 8; i++ { // warm every path once
		f.frame(func() { tex.swapQuality(); _ = tex.bakeFont(1 + i%4); tex.transition() })
	}
	i := 0
	wantNoAllocs(t, "a frame of texture churn", func() {
		i++
		f.frame(func() {
			tex.swapQuality()
			_ = tex.bakeFont(1 + i%4)
			tex.transition()
		})
	})
}
