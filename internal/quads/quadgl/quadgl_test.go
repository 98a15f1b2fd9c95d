package quadgl

import (
	"os"
	"runtime"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"

	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/internal/quads"
)

func init() { runtime.LockOSThread() }

func TestMain(m *testing.M) { os.Exit(gltest.ServeMain(m.Run)) }

// TestDrawsRunsAtOffset draws two quads with different textures from a
// vertex buffer at a non-zero offset into a 64×64 framebuffer and reads
// the pixels back: each quad must show its texture's colour, tinted, and
// the rest must stay clear.
func TestDrawsRunsAtOffset(t *testing.T) {
	gltest.Run(t, func(c *glctx.Context) error {
		r, err := New(16)
		if err != nil {
			return err
		}
		defer r.Release()
		tex := func(rgba [4]byte) uint32 {
			var name uint32
			gl.GenTextures(1, &name)
			gl.BindTexture(gl.TEXTURE_2D, name)
			gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAX_LEVEL, 0)
			gl.TexImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, 1, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(&rgba[0]))
			gl.BindTexture(gl.TEXTURE_2D, 0)
			return name
		}
		red, white := tex([4]byte{255, 0, 0, 255}), tex([4]byte{255, 255, 255, 255})
		defer gl.DeleteTextures(1, &red)
		defer gl.DeleteTextures(1, &white)

		const offset = 256
		mem := make([]byte, offset+2*quads.QuadBytes)
		w, _ := quads.NewWriter(4)
		if err := w.Reset(mem[offset:]); err != nil {
			return err
		}
		w.Quad(red, quads.Rect{X0: 0, Y0: 0, X1: 32, Y1: 64, U1: 1, V1: 1}, 0xffffffff)
		w.Fill(white, 32, 0, 64, 64, 0x0000ffff) // white tinted blue
		var buf uint32
		gl.GenBuffers(1, &buf)
		defer gl.DeleteBuffers(1, &buf)
		gl.BindBuffer(gl.COPY_WRITE_BUFFER, buf)
		gl.BufferData(gl.COPY_WRITE_BUFFER, len(mem), gl.Ptr(mem), gl.STATIC_DRAW)
		gl.BindBuffer(gl.COPY_WRITE_BUFFER, 0)

		var fbo, rb uint32
		gl.GenFramebuffers(1, &fbo)
		gl.GenRenderbuffers(1, &rb)
		gl.BindRenderbuffer(gl.RENDERBUFFER, rb)
		gl.RenderbufferStorage(gl.RENDERBUFFER, gl.RGBA8, 64, 64)
		gl.BindRenderbuffer(gl.RENDERBUFFER, 0)
		defer gl.DeleteFramebuffers(1, &fbo)
		defer gl.DeleteRenderbuffers(1, &rb)
		gl.BindFramebuffer(gl.FRAMEBUFFER, fbo)
		gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, rb)
		defer gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		gl.Viewport(0, 0, 64, 64)
		gl.ClearColor(0, 0, 0, 1)
		gl.Clear(gl.COLOR_BUFFER_BIT)
		r.Draw(buf, offset, w.Runs(), 64, 64)
		px := make([]byte, 64*64*4)
		gl.ReadPixels(0, 0, 64, 64, gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(px))
		if e := gl.GetError(); e != gl.NO_ERROR {
			t.Errorf("GL error 0x%x", e)
		}
		at := func(x, y int) [3]byte { o := (y*64 + x) * 4; return [3]byte{px[o], px[o+1], px[o+2]} }
		if got := at(16, 32); got != [3]byte{255, 0, 0} {
			t.Errorf("left quad %v, want red", got)
		}
		if got := at(48, 32); got != [3]byte{0, 0, 255} {
			t.Errorf("right quad %v, want blue", got)
		}
		if r.Draws() != 2 {
			t.Errorf("%d draws for two runs", r.Draws())
		}
		return nil
	})
}
