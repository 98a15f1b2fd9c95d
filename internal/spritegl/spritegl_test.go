package spritegl_test

import (
	"io"
	"log/slog"
	"os"
	"runtime"
	"testing"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/internal/spritegl"
	"github.com/steadyframe/steadyframe/internal/sprites"
	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/upload"
	"github.com/steadyframe/steadyframe/upload/glbuf"
)

func init() { runtime.LockOSThread() }

func TestMain(m *testing.M) { os.Exit(gltest.ServeMain(m.Run)) }

// A frame that churns two sprite textures, streams 300 sprite instances
// through an upload arena and draws them all with one draw (timed by a
// GPU query) does not allocate (not checked under the race detector);
// every sprite lands on screen.
func TestOneDrawAFrameWithoutAllocating(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		clock, err := frame.NewClock(frame.ClockDesc{})
		if err != nil {
			return err
		}
		b, err := glbuf.New()
		if err != nil {
			return err
		}
		set, err := upload.NewSet(upload.SetDesc{Clock: clock, Backend: b,
			Arenas: []upload.ArenaDesc{{Name: "staging", Size: 1 << 20}, {Name: "sprites", Size: 1 << 20}}})
		if err != nil {
			return err
		}
		arr, err := spritegl.New(spritegl.Desc{Textures: 40, Size: 16, Layers: 64, Staging: set.Arena(0), Buffer: b.Buffer(),
			Heap: descriptors.HeapDesc{Clock: clock, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}})
		if err != nil {
			return err
		}
		sim, err := sprites.New(300, 8, 256, 256, 1)
		if err != nil {
			return err
		}
		timer := spritegl.NewTimer()
		defer timer.Release()
		var fbo, rb uint32
		gl.GenFramebuffers(1, &fbo) // bound, not DSA: the tests run on 4.1 and 3.3 too
		gl.GenRenderbuffers(1, &rb)
		gl.BindRenderbuffer(gl.RENDERBUFFER, rb)
		gl.RenderbufferStorage(gl.RENDERBUFFER, gl.RGBA8, 256, 256)
		gl.BindRenderbuffer(gl.RENDERBUFFER, 0)
		gl.BindFramebuffer(gl.FRAMEBUFFER, fbo)
		gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, rb)
		defer gl.DeleteFramebuffers(1, &fbo)
		defer gl.DeleteRenderbuffers(1, &rb)
		gl.BindFramebuffer(gl.FRAMEBUFFER, fbo)
		defer gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		gl.Viewport(0, 0, 256, 256)
		layer := func(i int) uint32 { return arr.Layer(i % arr.Len()) }
		var failed error
		step := func() {
			if _, err := clock.BeginFrame(); err != nil {
				failed = err
				return
			}
			if err := arr.Churn(2); err != nil {
				failed = err
			}
			off, view, err := set.Arena(1).Alloc(sim.Len()*sprites.InstanceBytes, 16)
			if err != nil {
				failed = err
				return
			}
			n := sim.WriteInstances(view, layer)
			if err := set.Arena(1).Flush(); err != nil { // a copy into the buffer on map-range (4.1, 3.3)
				failed = err
				return
			}
			gl.ClearColor(0, 0, 0, 0)
			gl.Clear(gl.COLOR_BUFFER_BIT)
			timer.Begin()
			arr.Draw(b.Buffer(), off, n, 256, 256)
			timer.End()
			if err := clock.EndFrame(); err != nil {
				failed = err
			}
		}
		// NoAllocs skips under the race detector, and a skip must not
		// run on the main loop gltest.Run lends: there, only draw.
		if testenv.Race {
			for range 101 {
				step()
			}
		} else {
			testenv.NoAllocs(t, "a churned, one-draw sprite frame", 100, step)
		}
		if failed != nil {
			return failed
		}
		if arr.Draws() != 101 {
			t.Errorf("%d draws in 101 frames", arr.Draws())
		}
		px := make([]byte, 256*256*4)
		gl.ReadPixels(0, 0, 256, 256, gl.RGBA, gl.UNSIGNED_BYTE, unsafe.Pointer(&px[0]))
		covered := 0
		for i := 3; i < len(px); i += 4 {
			if px[i] != 0 {
				covered++
			}
		}
		if covered < 256*256/10 {
			t.Errorf("300 sprites covered %d pixels", covered)
		}
		h := timer.Histogram()
		t.Logf("GPU time of the one sprite draw over %d frames: mean %v, max %v (%d results late); %d pixels covered",
			h.Count(), h.Mean(), h.Max(), timer.Late(), covered)
		if h.Count()+timer.Late() < 90 {
			t.Errorf("the timer read %d results and dropped %d in 101 frames", h.Count(), timer.Late())
		}
		if e := gl.GetError(); e != gl.NO_ERROR {
			t.Errorf("GL error 0x%x", e)
		}
		if err := arr.Release(); err != nil {
			return err
		}
		if err := clock.Drain(); err != nil {
			return err
		}
		if err := arr.Close(); err != nil {
			return err
		}
		if err := set.Close(); err != nil {
			return err
		}
		return clock.Close()
	})
}
