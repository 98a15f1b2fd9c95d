package gltex_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/glfence"
)

// readRGBA reads back a 2×2 RGBA8 texture.
func readRGBA(name uint32) []byte { return readBack(name, gl.RGBA, 2*2*4) }

// A full manager grown at load time hands out the new slots with real
// textures in them; the textures made before keep their slots and names,
// and one freed before the Grow is still deleted when its frame retires,
// its slot then reused first.
func TestGrowCreatesTexturesInNewSlots(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		r, err := newRendererWith(true, descriptors.HeapDesc{Capacity: 4}, frame.ClockDesc{NewFence: glfence.New})
		if err != nil {
			return err
		}
		if err := r.begin(); err != nil {
			return err
		}
		color := func(k int) [4]byte { return [4]byte{byte(10 * k), byte(200 - k), byte(k), 255} }
		var hs []descriptors.Handle
		var names []uint32
		for k := 0; k < 4; k++ {
			h, err := r.tex.Create(2, 2, gltex.FormatRGBA8, solid(2, 2, color(k)))
			if err != nil {
				return err
			}
			name, _ := r.tex.Texture(h)
			hs, names = append(hs, h), append(names, name)
		}
		if _, err := r.tex.Create(2, 2, gltex.FormatRGBA8, nil); !errors.Is(err, descriptors.ErrHeapExhausted) {
			t.Fatalf("Create on a full heap: %v", err)
		}
		if err := r.tex.Free(hs[2]); err != nil {
			return err
		}
		for _, c := range []int{4, 3, descriptors.MaxCapacity + 1} {
			if err := r.tex.Grow(c); !errors.Is(err, descriptors.ErrInvalidCapacity) {
				t.Errorf("Grow(%d) of 4: %v, want ErrInvalidCapacity", c, err)
			}
		}
		if err := r.tex.Grow(8); err != nil {
			return err
		}
		for k := 4; k < 8; k++ {
			h, err := r.tex.Create(2, 2, gltex.FormatRGBA8, solid(2, 2, color(k)))
			if err != nil {
				return err
			}
			if int(h.Index()) != k {
				t.Errorf("texture %d after Grow took slot %d, want %d (slot 2 is still pending)", k, h.Index(), k)
			}
			name, _ := r.tex.Texture(h)
			hs, names = append(hs, h), append(names, name)
		}
		if _, err := r.tex.Create(2, 2, gltex.FormatRGBA8, nil); !errors.Is(err, descriptors.ErrHeapExhausted) {
			t.Errorf("Create on the full grown heap: %v", err)
		}
		if err := r.end(); err != nil {
			return err
		}
		if err := r.drain(); err != nil {
			return err
		}
		if gl.IsTexture(names[2]) {
			t.Error("the texture freed before Grow was not deleted at its retirement")
		}
		for k, h := range hs {
			if k == 2 {
				continue
			}
			name, err := r.tex.Texture(h)
			if err != nil || name != names[k] {
				t.Errorf("slot %d after Grow: texture %d, %v; want %d", h.Index(), name, err, names[k])
				continue
			}
			if got, want := readRGBA(name), solid(2, 2, color(k)); !bytes.Equal(got, want) {
				t.Errorf("slot %d reads back %v, want %v", h.Index(), got, want)
			}
		}
		if err := r.begin(); err != nil {
			return err
		}
		h, err := r.tex.Create(2, 2, gltex.FormatRGBA8, solid(2, 2, color(9)))
		if err != nil {
			return err
		}
		if h.Index() != 2 {
			t.Errorf("after retirement Create took slot %d, want the retired slot 2", h.Index())
		}
		name, _ := r.tex.Texture(h)
		if err := r.tex.Bind(0, h); err != nil {
			return err
		}
		st := r.tex.Stats()
		if st.Heap.Capacity != 8 || st.Heap.Live != 8 || st.Heap.HighWater != 8 || st.Textures != 8 || st.Deleted != 1 {
			t.Errorf("stats %+v", st)
		}
		hs[2] = h
		if err := r.tex.Heap().FreeN(hs); err != nil {
			return err
		}
		if err := r.end(); err != nil {
			return err
		}
		if err := r.close(); err != nil {
			return err
		}
		if gl.IsTexture(name) || gl.IsTexture(names[7]) {
			t.Error("textures survived Close")
		}
		if e := gl.GetError(); e != gl.NO_ERROR {
			t.Errorf("GL error 0x%x", e)
		}
		return nil
	})
}
