package spritegl_test

import (
	"io"
	"log/slog"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/internal/quads"
	"github.com/steadyframe/steadyframe/internal/quads/quadgl"
	"github.com/steadyframe/steadyframe/internal/spritegl"
	"github.com/steadyframe/steadyframe/internal/sprites"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/upload"
	"github.com/steadyframe/steadyframe/upload/glbuf"
)

// The stress tool's sprite load: 400 sprites over 194 textures of 16×16
// on a 1280×720 target.
const (
	benchSprites  = 400
	benchTextures = 194
	benchW        = 1280
	benchH        = 720
)

// BenchmarkSpriteFrame draws the stress tool's sprites one frame an
// iteration, the vertices or instances streamed through an upload arena,
// and waits for the frame (glFinish), on each path: bind binds a texture
// per run of sprites (194 draws), array draws every sprite in one
// instanced draw from a texture array. On llvmpipe the "GPU" is CPU
// threads, so the figure is the driver's submission and its rasterising
// together; draws is the draw calls a frame.
func BenchmarkSpriteFrame(b *testing.B) {
	for _, path := range []string{"bind", "array"} {
		b.Run(path, func(b *testing.B) {
			gltest.Run(b, func(*glctx.Context) error { return benchSpriteFrame(b, path) })
		})
	}
}

func benchSpriteFrame(b *testing.B, path string) error {
	clock, err := frame.NewClock(frame.ClockDesc{})
	if err != nil {
		return err
	}
	buf, err := glbuf.New()
	if err != nil {
		return err
	}
	set, err := upload.NewSet(upload.SetDesc{Clock: clock, Backend: buf,
		Arenas: []upload.ArenaDesc{{Name: "staging", Size: 1 << 20}, {Name: "sprites", Size: 1 << 20}}})
	if err != nil {
		return err
	}
	sim, err := sprites.New(benchSprites, 24, benchW, benchH, 1)
	if err != nil {
		return err
	}
	heap := descriptors.HeapDesc{Clock: clock, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	var fbo, rb uint32
	gl.GenFramebuffers(1, &fbo) // bound, not DSA: the tests run on 4.1 and 3.3 too
	gl.GenRenderbuffers(1, &rb)
	gl.BindRenderbuffer(gl.RENDERBUFFER, rb)
	gl.RenderbufferStorage(gl.RENDERBUFFER, gl.RGBA8, benchW, benchH)
	gl.BindRenderbuffer(gl.RENDERBUFFER, 0)
	gl.BindFramebuffer(gl.FRAMEBUFFER, fbo)
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, rb)
	defer gl.DeleteFramebuffers(1, &fbo)
	defer gl.DeleteRenderbuffers(1, &rb)
	gl.BindFramebuffer(gl.FRAMEBUFFER, fbo)
	defer gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	gl.Viewport(0, 0, benchW, benchH)

	var draw func() error
	var draws func() uint64
	var closeAll func() error
	switch path {
	case "array":
		arr, err := spritegl.New(spritegl.Desc{Heap: heap, Textures: benchTextures, Size: 16, Layers: 256,
			Staging: set.Arena(0), Buffer: buf.Buffer()})
		if err != nil {
			return err
		}
		layer := func(i int) uint32 { return arr.Layer(i * benchTextures / benchSprites) }
		draw = func() error {
			off, view, err := set.Arena(1).Alloc(benchSprites*sprites.InstanceBytes, 16)
			if err != nil {
				return err
			}
			n := sim.WriteInstances(view, layer)
			if err := set.Arena(1).Flush(); err != nil { // a copy into the buffer on map-range (4.1, 3.3)
				return err
			}
			arr.Draw(buf.Buffer(), off, n, benchW, benchH)
			return nil
		}
		draws = arr.Draws
		closeAll = func() error {
			if err := arr.Release(); err != nil {
				return err
			}
			if err := clock.Drain(); err != nil {
				return err
			}
			return arr.Close()
		}
	case "bind":
		mgr, err := gltex.New(gltex.Desc{Heap: heap, Staging: set.Arena(0), StagingBuffer: buf.Buffer()})
		if err != nil {
			return err
		}
		names := make([]uint32, benchTextures)
		hs := make([]descriptors.Handle, benchTextures)
		px := make([]byte, 16*16*4)
		for i := range hs {
			for k := range px {
				px[k] = byte(i*7 + k)
			}
			if hs[i], err = mgr.Create(16, 16, gltex.FormatRGBA8, px); err != nil {
				return err
			}
			names[i], _ = mgr.Texture(hs[i])
		}
		qr, err := quadgl.New(benchSprites)
		if err != nil {
			return err
		}
		w, err := quads.NewWriter(benchTextures + 8)
		if err != nil {
			return err
		}
		tex := func(i int) uint32 { return names[i*benchTextures/benchSprites] }
		draw = func() error {
			off, view, err := set.Arena(1).Alloc(benchSprites*quads.QuadBytes, 16)
			if err != nil {
				return err
			}
			if err := w.Reset(view); err != nil {
				return err
			}
			sim.Write(w, tex)
			if err := set.Arena(1).Flush(); err != nil {
				return err
			}
			qr.Draw(buf.Buffer(), off, w.Runs(), benchW, benchH)
			return nil
		}
		draws = qr.Draws
		closeAll = func() error {
			qr.Release()
			for _, h := range hs {
				if err := mgr.Free(h); err != nil {
					return err
				}
			}
			if err := clock.Drain(); err != nil {
				return err
			}
			return mgr.Close()
		}
	}
	step := func() error {
		if _, err := clock.BeginFrame(); err != nil {
			return err
		}
		sim.Step(1.0/60, benchW, benchH)
		gl.ClearColor(0, 0, 0, 1)
		gl.Clear(gl.COLOR_BUFFER_BIT)
		if err := draw(); err != nil {
			return err
		}
		gl.Finish()
		return clock.EndFrame()
	}
	if err := step(); err != nil {
		return err
	}
	d0 := draws()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := step(); err != nil {
			return err
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(draws()-d0)/float64(b.N), "draws/op")
	if err := closeAll(); err != nil {
		return err
	}
	if err := set.Close(); err != nil {
		return err
	}
	return clock.Close()
}
