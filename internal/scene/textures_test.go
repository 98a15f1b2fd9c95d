package scene_test

import (
	"testing"

	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/internal/testenv"
)

// frameLoop drives the headless Render the way a render goroutine does.
type frameLoop struct {
	t *testing.T
	r *scene.Render
}

func newFrameLoop(t *testing.T) *frameLoop {
	t.Helper()
	r, err := scene.OpenHeadless(scene.RenderDesc{})
	if err != nil {
		t.Fatal(err)
	}
	return &frameLoop{t: t, r: r}
}

func (f *frameLoop) frame(body func()) {
	if _, err := f.r.Clock.BeginFrame(); err != nil {
		f.t.Fatal(err)
	}
	body()
	if err := f.r.Clock.EndFrame(); err != nil {
		f.t.Fatal(err)
	}
}

func (f *frameLoop) load(scale int) *scene.Textures {
	var tex *scene.Textures
	f.frame(func() {
		var err error
		if tex, err = scene.NewTextures(f.r.Tex, f.r.Heap, scale); err != nil {
			f.t.Fatal(err)
		}
	})
	return tex
}

// TestChurnRecyclesSlots holds the reference's numbers: a level on 239
// slots; quality swaps, rebakes and level transitions recycle slots, so
// after the first cycle of each the high-water mark stops growing and live
// returns to 239.
func TestChurnRecyclesSlots(t *testing.T) {
	f := newFrameLoop(t)
	tex := f.load(2)
	if s := f.r.Heap.Stats(); s.Live != scene.LoadedSlots || scene.LoadedSlots != 239 {
		t.Fatalf("level loaded on %d slots, want %d (239)", s.Live, scene.LoadedSlots)
	}
	idle := func() {
		for range 4 {
			f.frame(func() {})
		}
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	cycle := func() {
		f.frame(func() { must(tex.SwapQuality()) })
		idle()
		f.frame(func() { must(tex.RebakeFont(3)) })
		idle()
		f.frame(func() { must(tex.NextLevel()) })
		idle()
	}
	cycle()
	cycle()
	hw := f.r.Heap.Stats().HighWater
	for range 50 {
		cycle()
	}
	s := f.r.Heap.Stats()
	if s.Live != 239 || s.Peak != 239 {
		t.Errorf("after churn: live %d peak %d, want 239 and 239", s.Live, s.Peak)
	}
	if s.HighWater != hw {
		t.Errorf("high-water grew from %d to %d: churn leaks slots", hw, s.HighWater)
	}
	st := tex.Stats()
	if st.Failures != 0 || st.Swaps != 52 || st.Levels != 52 || st.Rebakes != 52 {
		t.Errorf("failures %d, swaps %d, levels %d, rebakes %d", st.Failures, st.Swaps, st.Levels, st.Rebakes)
	}
	if st.Made-st.Freed != 239 || st.Recycled == 0 {
		t.Errorf("made %d, freed %d, recycled %d: want 239 live and recycling", st.Made, st.Freed, st.Recycled)
	}
	if tex.High() {
		t.Error("52 swaps from low quality should end at low quality")
	}
	f.frame(func() { must(tex.Release()) })
	must(f.r.Clock.Drain())
	if err := f.r.CloseHeap(); err != nil {
		t.Errorf("heap close after releasing everything: %v", err)
	}
	must(f.r.Set.Close())
	must(f.r.Clock.Close())
}

// TestFontSlots: the pages land on consecutive slots at load, and a
// rebake reuses the slots it freed once their frames have retired.
func TestFontSlots(t *testing.T) {
	f := newFrameLoop(t)
	tex := f.load(1)
	first := tex.FontSlots()
	if first != "1-14" {
		t.Errorf("font pages on slots %q, want 1-14 (after the white texel)", first)
	}
	for range 4 {
		f.frame(func() {})
	}
	f.frame(func() {
		if err := tex.RebakeFont(4); err != nil {
			t.Fatal(err)
		}
	})
	f.frame(func() {})
	for range 4 {
		f.frame(func() {})
	}
	if tex.Atlas().Scale != 4 || tex.Font(0).IsZero() {
		t.Errorf("after a rebake at 4: scale %d, page 0 %v", tex.Atlas().Scale, tex.Font(0))
	}
	if got := tex.FontSlots(); got == "" {
		t.Error("no font slots listed")
	}
}

func TestChurnNoAllocs(t *testing.T) {
	f := newFrameLoop(t)
	tex := f.load(2)
	for i := range 8 { // warm every path once
		f.frame(func() { _ = tex.SwapQuality(); _ = tex.RebakeFont(1 + i%4); _ = tex.NextLevel() })
	}
	i := 0
	testenv.NoAllocs(t, "a frame of texture churn", 50, func() {
		i++
		f.frame(func() {
			_ = tex.SwapQuality()
			_ = tex.RebakeFont(1 + i%4)
			_ = tex.NextLevel()
		})
	})
}

func BenchmarkChurnFrame(b *testing.B) {
	r, err := scene.OpenHeadless(scene.RenderDesc{})
	if err != nil {
		b.Fatal(err)
	}
	_, _ = r.Clock.BeginFrame()
	tex, err := scene.NewTextures(r.Tex, r.Heap, 2)
	if err != nil {
		b.Fatal(err)
	}
	_ = r.Clock.EndFrame()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		_, _ = r.Clock.BeginFrame()
		_ = tex.SwapQuality()
		_ = tex.RebakeFont(1 + i%4)
		_ = tex.NextLevel()
		_ = r.Clock.EndFrame()
	}
}
