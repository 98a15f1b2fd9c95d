package gltex_test

import (
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
)

func (r *renderer) create(n int, c byte) ([]descriptors.Handle, error) {
	hs := make([]descriptors.Handle, n)
	px := solid(4, 4, [4]byte{c, c, c, 255})
	for i := range hs {
		h, err := r.tex.Create(4, 4, gltex.FormatRGBA8, px)
		if err != nil {
			return nil, err
		}
		hs[i] = h
	}
	return hs, nil
}

func (r *renderer) free(hs []descriptors.Handle) error {
	return r.tex.Heap().FreeN(hs)
}

// The reference's churn on real GL textures: menu 38, level 239, two
// resizes that free 14 atlas pages and recycle 13, a quality swap that
// recycles all 30, the high-water mark pinned at 239 and every GL texture
// deleted exactly when its slot retires. Then 200 pipelined swap cycles
// (the CPU three frames ahead of the GPU) leave live and peak unmoved.
func TestReferenceChurnOnGLTextures(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		r, err := newRenderer(true)
		if err != nil {
			return err
		}
		if err := r.begin(); err != nil {
			return err
		}
		menu, err := r.create(38, 1)
		if err != nil {
			return err
		}
		level, err := r.create(239-38, 2)
		if err != nil {
			return err
		}
		if err := r.end(); err != nil {
			return err
		}
		atlas := menu[:7]
		var freed, recycled uint64
		for _, pages := range []int{7, 6} {
			before := r.tex.Stats().Heap
			if err := r.begin(); err != nil {
				return err
			}
			if err := r.free(atlas); err != nil {
				return err
			}
			if err := r.end(); err != nil {
				return err
			}
			if err := r.drain(); err != nil {
				return err
			}
			if err := r.begin(); err != nil {
				return err
			}
			if atlas, err = r.create(pages, 3); err != nil {
				return err
			}
			if err := r.end(); err != nil {
				return err
			}
			after := r.tex.Stats().Heap
			freed += after.Frees - before.Frees
			recycled += after.Recycled - before.Recycled
		}
		if freed != 14 || recycled != 13 {
			t.Errorf("resizes freed %d recycled %d, want 14 and 13", freed, recycled)
		}
		before := r.tex.Stats()
		if err := r.begin(); err != nil {
			return err
		}
		if err := r.free(level[:30]); err != nil {
			return err
		}
		if err := r.end(); err != nil {
			return err
		}
		if err := r.drain(); err != nil {
			return err
		}
		if err := r.begin(); err != nil {
			return err
		}
		swap, err := r.create(30, 4)
		if err != nil {
			return err
		}
		if err := r.end(); err != nil {
			return err
		}
		after := r.tex.Stats()
		if after.Heap.Recycled-before.Heap.Recycled != 30 || after.Heap.HighWater != 239 {
			t.Errorf("quality swap: recycled %d high-water %d; want 30 and 239",
				after.Heap.Recycled-before.Heap.Recycled, after.Heap.HighWater)
		}
		if after.Textures != after.Heap.Live+after.Heap.Pending {
			t.Errorf("GL textures %d, slots live+pending %d", after.Textures, after.Heap.Live+after.Heap.Pending)
		}

		// Pipelined swaps: free 30 and create 30 every frame, the GPU
		// retiring frames only as the fences say.
		start := r.tex.Stats().Heap
		var hwWarm int
		for cycle := 0; cycle < 200; cycle++ {
			if err := r.begin(); err != nil {
				return err
			}
			if err := r.free(swap); err != nil {
				return err
			}
			if swap, err = r.create(30, byte(cycle)); err != nil {
				return err
			}
			if err := r.end(); err != nil {
				return err
			}
			if cycle == 20 {
				hwWarm = r.tex.Stats().Heap.HighWater
			}
		}
		if err := r.drain(); err != nil {
			return err
		}
		end := r.tex.Stats()
		if end.Heap.Live != start.Live || end.Heap.Peak != start.Peak {
			t.Errorf("200 GL swaps: live %d peak %d, started at %d and %d", end.Heap.Live, end.Heap.Peak, start.Live, start.Peak)
		}
		if end.Heap.HighWater != hwWarm || end.Heap.HighWater > 239+30*4 {
			t.Errorf("high-water %d after 200 swaps, %d after warm-up", end.Heap.HighWater, hwWarm)
		}
		if end.Textures != end.Heap.Live || end.Deleted != end.Created-uint64(end.Heap.Live) {
			t.Errorf("GL textures %d for %d live slots (created %d deleted %d)", end.Textures, end.Heap.Live, end.Created, end.Deleted)
		}
		t.Logf("GL churn: resizes freed %d recycled %d; swap recycled 30; 200 pipelined swaps: %v; textures created %d deleted %d",
			freed, recycled, end.Heap, end.Created, end.Deleted)

		if err := r.begin(); err != nil {
			return err
		}
		for _, hs := range [][]descriptors.Handle{menu[7:], level[30:], atlas, swap} {
			if err := r.free(hs); err != nil {
				return err
			}
		}
		if err := r.end(); err != nil {
			return err
		}
		if err := r.close(); err != nil {
			return err
		}
		if e := gl.GetError(); e != gl.NO_ERROR {
			t.Errorf("GL error 0x%x", e)
		}
		return nil
	})
}
