package glbuf_test

import (
	"testing"
	"unsafe"

	"github.com/go-gl/gl/v4.5-core/gl"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/glfence"
	"github.com/steadyframe/steadyframe/upload"
	"github.com/steadyframe/steadyframe/upload/glbuf"
)

// The BenchmarkFrameUploadN benchmarks compare two ways to get n bytes of
// per-frame data to a draw that reads them: ours writes into the
// persistently mapped arena region of the frame (fenced,
// triple-buffered); the usual alternative calls glNamedBufferSubData on one
// buffer every frame and lets the driver synchronise. Each op is one
// frame: upload, bind, one draw.
func BenchmarkFrameUpload4KiB(b *testing.B)  { benchUploadPair(b, 4<<10) }
func BenchmarkFrameUpload64KiB(b *testing.B) { benchUploadPair(b, 64<<10) }
func BenchmarkFrameUpload1MiB(b *testing.B)  { benchUploadPair(b, 1<<20) }

func benchUploadPair(b *testing.B, n int) {
	b.Run("impl=ours", func(b *testing.B) { benchUpload(b, n, true) })
	b.Run("impl=BufferSubData", func(b *testing.B) { benchUpload(b, n, false) })
}

func benchUpload(b *testing.B, n int, persistent bool) {
	src := make([]byte, n)
	for i := range src {
		src[i] = byte(i)
	}
	gltest.Run(b, func(*glctx.Context) error {
		prog, err := glctx.NewProgram(hazardVertex, hazardFragment)
		if err != nil {
			return err
		}
		defer gl.DeleteProgram(prog)
		var vao, tex, fbo, out, plain uint32
		gl.CreateVertexArrays(1, &vao)
		defer gl.DeleteVertexArrays(1, &vao)
		gl.CreateTextures(gl.TEXTURE_2D, 1, &tex)
		defer gl.DeleteTextures(1, &tex)
		gl.TextureStorage2D(tex, 1, gl.RGBA8, hazardValues, 1)
		gl.CreateFramebuffers(1, &fbo)
		defer gl.DeleteFramebuffers(1, &fbo)
		gl.NamedFramebufferTexture(fbo, gl.COLOR_ATTACHMENT0, tex, 0)
		gl.CreateBuffers(1, &out)
		defer gl.DeleteBuffers(1, &out)
		gl.NamedBufferStorage(out, 4*hazardValues, nil, 0)
		gl.CreateBuffers(1, &plain)
		defer gl.DeleteBuffers(1, &plain)
		gl.NamedBufferData(plain, n, nil, gl.STREAM_DRAW)

		gb, err := glbuf.New()
		if err != nil {
			return err
		}
		clock, err := frame.NewClock(frame.ClockDesc{NewFence: glfence.New})
		if err != nil {
			return err
		}
		set, err := upload.NewSet(upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "bench", Size: n}}, Backend: gb, Clock: clock})
		if err != nil {
			_ = clock.Close()
			return err
		}
		defer func() {
			_ = clock.Drain()
			_ = set.Close()
			_ = clock.Close()
		}()
		arena := set.Arena(0)
		gl.BindFramebuffer(gl.FRAMEBUFFER, fbo)
		defer gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		gl.Viewport(0, 0, hazardValues, 1)
		gl.UseProgram(prog)
		gl.BindVertexArray(vao)
		gl.BindBufferBase(gl.SHADER_STORAGE_BUFFER, 1, out)
		gl.ProgramUniform1ui(prog, 0, 0)

		b.ReportAllocs()
		b.SetBytes(int64(n))
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if persistent {
				if _, err := clock.BeginFrame(); err != nil {
					return err
				}
				off, view, err := arena.Alloc(n, gb.Alignment())
				if err != nil {
					return err
				}
				copy(view, src)
				gl.BindBufferRange(gl.SHADER_STORAGE_BUFFER, 0, gb.Buffer(), off, n)
				gl.DrawArrays(gl.TRIANGLES, 0, 3)
				if err := clock.EndFrame(); err != nil {
					return err
				}
				continue
			}
			gl.NamedBufferSubData(plain, 0, n, unsafe.Pointer(&src[0]))
			gl.BindBufferRange(gl.SHADER_STORAGE_BUFFER, 0, plain, 0, n)
			gl.DrawArrays(gl.TRIANGLES, 0, 3)
			gl.Flush()
		}
		gl.Finish()
		b.StopTimer()
		return nil
	})
}
