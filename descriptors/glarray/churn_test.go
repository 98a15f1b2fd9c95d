package glarray_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/glarray"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// freed is a texture whose layer waits for the frames that could sample
// it: its content must not change until the clock says they completed.
type freed struct {
	class, layer, n int
	after           uint64 // Clock.Last at Free
}

// 300 frames of churn on both classes, the device finishing frames late
// and irregularly (0 to 2 frames a frame, never sooner than the clock
// forces): every frame, every live layer is read back from GL and
// compared with what was uploaded into it, and every freed layer whose
// frames have not completed is read back unchanged and is never handed
// to a Create.
func TestChurnReadsBackEveryLayer(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		gpu := &lateGPU{}
		r, err := newRendererWith(frame.ClockDesc{NewFence: gpu.fence}, true, nil, sprites, glyphs)
		if err != nil {
			return err
		}
		rng := rand.New(rand.NewPCG(22, 300))
		live := map[glarray.Handle]int{} // handle → texture number
		var pending []freed
		var next, mismatches, refused, reusedEarly, checks int
		for f := 0; f < 300; f++ {
			if gpu.reached += uint64(rng.IntN(3)); gpu.reached > gpu.signalled {
				gpu.reached = gpu.signalled
			}
			if err := r.begin(); err != nil {
				return err
			}
			done := r.clock.Completed()
			pending = slices.DeleteFunc(pending, func(p freed) bool { return p.after <= done })
			for _, p := range pending {
				checks++
				if got := readLayer(r.tex, p.class, p.layer); string(got) != string(pattern(r.tex.Class(p.class), p.n)) {
					mismatches++
					t.Errorf("frame %d: layer %d of class %d, freed after frame %d (completed %d), was overwritten",
						f, p.layer, p.class, p.after, done)
				}
			}
			var hs []glarray.Handle
			for h := range live {
				hs = append(hs, h)
			}
			slices.SortFunc(hs, func(a, b glarray.Handle) int { return live[a] - live[b] })
			rng.Shuffle(len(hs), func(i, j int) { hs[i], hs[j] = hs[j], hs[i] })
			for _, h := range hs[:min(len(hs), rng.IntN(5))] {
				if err := r.tex.Free(h); err != nil {
					return err
				}
				pending = append(pending, freed{h.Class(), int(h.Layer()), live[h], r.clock.Last()})
				delete(live, h)
			}
			for range rng.IntN(6) {
				c := rng.IntN(2)
				h, err := r.tex.Create(c, pattern(r.tex.Class(c), next), "churn")
				if errors.Is(err, descriptors.ErrHeapExhausted) {
					refused++
					continue
				}
				if err != nil {
					return err
				}
				for _, p := range pending {
					if p.class == c && p.layer == int(h.Layer()) {
						reusedEarly++
						t.Errorf("frame %d: Create took layer %d of class %d, freed after frame %d with frame %d the last completed",
							f, p.layer, c, p.after, r.clock.Completed())
					}
				}
				live[h] = next
				next++
			}
			if err := r.end(); err != nil {
				return err
			}
			for h, n := range live {
				checks++
				if got := readLayer(r.tex, h.Class(), int(h.Layer())); string(got) != string(pattern(r.tex.Class(h.Class()), n)) {
					mismatches++
					t.Errorf("frame %d: texture %d in %v reads back different pixels", f, n, h)
				}
			}
		}
		st := r.tex.Stats()
		recycled := r.tex.Heap(0).Stats().Recycled + r.tex.Heap(1).Stats().Recycled
		t.Logf("300 frames: %d textures created, %d freed, %d refused (class full), %d live at end, %d recycled layers; "+
			"%d layer read-backs, %d mismatches, %d early reuses", st.Created, st.Freed, refused, st.Live, recycled, checks, mismatches, reusedEarly)
		if recycled < 100 || refused == 0 || checks < 3000 {
			t.Errorf("the churn is too gentle to prove anything: %d recycled, %d refused, %d checks", recycled, refused, checks)
		}
		if err := r.begin(); err != nil {
			return err
		}
		for h := range live {
			if err := r.tex.Free(h); err != nil {
				return err
			}
		}
		if err := r.end(); err != nil {
			return err
		}
		return r.close()
	})
}

// A layer freed while its frames are in flight is never written while the
// device has not finished them, however long that takes: with a device
// that never finishes, the freed layer keeps its pixels, a full class
// refuses rather than reuse it, and a frame start that would have to wait
// for it times out. Once the device finishes, the layer is the next one
// reused.
func TestFreedLayerWaitsForItsFrames(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		gpu := &lateGPU{stuck: true}
		four := glarray.Class{Name: "four", Width: 8, Height: 8, Format: sprites.Format, Layers: 4}
		r, err := newRendererWith(frame.ClockDesc{NewFence: gpu.fence}, true, nil, four)
		if err != nil {
			return err
		}
		if err := r.begin(); err != nil {
			return err
		}
		var hs [4]glarray.Handle
		for n := range hs {
			if hs[n], err = r.tex.Create(0, pattern(four, n), "four"); err != nil {
				return err
			}
		}
		if err := r.end(); err != nil {
			return err
		}
		victim := int(hs[1].Layer())
		check := func(when string) {
			if got := readLayer(r.tex, 0, victim); string(got) != string(pattern(four, 1)) {
				t.Errorf("%s: the freed layer %d was overwritten", when, victim)
			}
		}
		for f := 2; f <= r.clock.InFlight(); f++ {
			if err := r.begin(); err != nil {
				return err
			}
			if f == 2 {
				if err := r.tex.Free(hs[1]); err != nil {
					return err
				}
			}
			if _, err := r.tex.Create(0, pattern(four, 100+f), "late"); !errors.Is(err, descriptors.ErrHeapExhausted) {
				t.Errorf("frame %d: Create in a full class with one layer in flight: %v, want ErrHeapExhausted", f, err)
			}
			if err := r.end(); err != nil {
				return err
			}
			check("in flight")
		}
		r.clock.Poll()
		if _, err := r.clock.BeginFrame(); !errors.Is(err, frame.ErrFenceTimeout) {
			t.Errorf("BeginFrame with the device stuck: %v, want ErrFenceTimeout", err)
		}
		if _, err := r.tex.Create(0, pattern(four, 200), "late"); !errors.Is(err, descriptors.ErrHeapExhausted) {
			t.Errorf("Create after the timeout: %v, want ErrHeapExhausted", err)
		}
		check("after the timeout")
		if st := r.tex.Heap(0).Stats(); st.Pending != 1 {
			t.Errorf("pending %d, want the freed layer", st.Pending)
		}

		// The device finishes frames only as the clock's waits force it:
		// frame 2, which freed the layer, completes when frame 5 starts.
		gpu.stuck = false
		var h glarray.Handle
		for h.IsZero() {
			if err := r.begin(); err != nil {
				return err
			}
			h, err = r.tex.Create(0, pattern(four, 300), "reused")
			switch done := r.clock.Completed(); {
			case done < 2 && !errors.Is(err, descriptors.ErrHeapExhausted):
				t.Errorf("Create with frame %d the last completed: %v, want ErrHeapExhausted", done, err)
			case done >= 2 && err != nil:
				return err
			}
			if h.IsZero() {
				check("device catching up")
			} else if r.clock.Current() != 5 {
				t.Errorf("the freed layer was reused in frame %d, want 5 (after frame 2 completed)", r.clock.Current())
			}
			if err := r.end(); err != nil {
				return err
			}
		}
		if int(h.Layer()) != victim {
			t.Errorf("after its frames completed, Create took layer %d, want the freed layer %d", h.Layer(), victim)
		}
		if got := readLayer(r.tex, 0, victim); string(got) != string(pattern(four, 300)) {
			t.Errorf("the reused layer does not hold the new texture")
		}
		if err := r.begin(); err != nil {
			return err
		}
		for _, x := range []glarray.Handle{hs[0], hs[2], hs[3], h} {
			if err := r.tex.Free(x); err != nil {
				return err
			}
		}
		if err := r.end(); err != nil {
			return err
		}
		return r.close()
	})
}
