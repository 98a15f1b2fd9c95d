package glbuf_test

import (
	"errors"
	"testing"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/glcaps"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/glfence"
	"github.com/steadyframe/steadyframe/upload"
	"github.com/steadyframe/steadyframe/upload/glbuf"
)

// The BenchmarkFrameUploadN benchmarks compare three ways to get n bytes
// of per-frame data to a draw that reads them: ours writes into the
// persistently mapped arena region of the frame (ModePersistent, fenced,
// triple-buffered); maprange is the same arena on a backend in
// ModeMapRange, the path of OpenGL 4.1 (macOS) and 3.3, which writes a CPU
// copy and maps the range written with glMapBufferRange(UNSYNCHRONIZED |
// INVALIDATE_RANGE) at Flush; the usual alternative calls glBufferSubData
// on one buffer every frame and lets the driver synchronise. Each op is
// one frame: upload, bind, one draw. On a context without
// GL_ARB_buffer_storage impl=ours is skipped.
func BenchmarkFrameUpload4KiB(b *testing.B)  { benchUploadPair(b, 4<<10) }
func BenchmarkFrameUpload64KiB(b *testing.B) { benchUploadPair(b, 64<<10) }
func BenchmarkFrameUpload1MiB(b *testing.B)  { benchUploadPair(b, 1<<20) }

func benchUploadPair(b *testing.B, n int) {
	b.Run("impl=ours", func(b *testing.B) { benchUpload(b, n, glbuf.ModePersistent) })
	b.Run("impl=maprange", func(b *testing.B) { benchUpload(b, n, glbuf.ModeMapRange) })
	b.Run("impl=BufferSubData", func(b *testing.B) { benchUpload(b, n, 0) })
}

// benchUpload runs one frame an op through an arena on a backend in
// mode, or through glBufferSubData when mode is 0.
func benchUpload(b *testing.B, n int, mode glbuf.Mode) {
	src := make([]byte, n)
	for i := range src {
		src[i] = byte(i)
	}
	gltest.Run(b, func(*glctx.Context) error {
		target, err := newHazardTarget(1)
		if err != nil {
			return err
		}
		defer target.close()
		var plain uint32
		gl.GenBuffers(1, &plain)
		defer gl.DeleteBuffers(1, &plain)
		gl.BindBuffer(gl.COPY_WRITE_BUFFER, plain)
		gl.BufferData(gl.COPY_WRITE_BUFFER, n, nil, gl.STREAM_DRAW)
		gl.BindBuffer(gl.COPY_WRITE_BUFFER, 0)

		gm := mode
		if gm == 0 {
			gm = glbuf.ModeMapRange // unused, but the Set needs a backend
		}
		gb, err := glbuf.NewWithMode(gm)
		if errors.Is(err, glcaps.ErrMissingFeature) {
			b.Skipf("no %v mode on this context: %v", mode, err)
		}
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

		b.ReportAllocs()
		b.SetBytes(int64(n))
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if mode != 0 {
				if _, err := clock.BeginFrame(); err != nil {
					return err
				}
				off, view, err := arena.Alloc(n, gb.Alignment())
				if err != nil {
					return err
				}
				copy(view, src)
				if err := arena.Flush(); err != nil {
					return err
				}
				target.draw(gb.Buffer(), off, 0)
				if err := clock.EndFrame(); err != nil {
					return err
				}
				continue
			}
			gl.BindBuffer(gl.COPY_WRITE_BUFFER, plain)
			gl.BufferSubData(gl.COPY_WRITE_BUFFER, 0, n, unsafe.Pointer(&src[0]))
			gl.BindBuffer(gl.COPY_WRITE_BUFFER, 0)
			target.draw(plain, 0, 0)
			gl.Flush()
		}
		gl.Finish()
		b.StopTimer()
		return nil
	})
}
