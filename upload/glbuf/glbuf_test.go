package glbuf_test

import (
	"errors"
	"os"
	"runtime"
	"testing"

	"github.com/go-gl/gl/v4.5-core/gl"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/glfence"
	"github.com/steadyframe/steadyframe/upload"
	"github.com/steadyframe/steadyframe/upload/glbuf"
)

// GLFW must run on the main OS thread: lock the main goroutine to it and
// serve GL calls from it.
func init() { runtime.LockOSThread() }

func TestMain(m *testing.M) { os.Exit(gltest.ServeMain(m.Run)) }

// layout is 9 MiB of arenas per frame: 27 MiB over three frames in flight.
var layout = []upload.ArenaDesc{{Name: "renderer", Size: 4 << 20}, {Name: "sprites", Size: 4 << 20}, {Name: "particles", Size: 1 << 20}}

func TestSetOnGL(t *testing.T) {
	gltest.Run(t, func(c *glctx.Context) error {
		b, err := glbuf.New()
		if err != nil {
			return err
		}
		info := c.Info()
		want := max(info.MinMapBufferAlignment, info.UniformBufferOffsetAlign, info.StorageBufferOffsetAlign)
		if b.Alignment() != want {
			t.Errorf("alignment %d, want %d (%v)", b.Alignment(), want, info)
		}
		clock, err := frame.NewClock(frame.ClockDesc{NewFence: glfence.New})
		if err != nil {
			return err
		}
		defer clock.Close()
		s, err := upload.NewSet(upload.SetDesc{Arenas: layout, Backend: b, Clock: clock})
		if err != nil {
			return err
		}
		if got := s.Stats().Reserved; got != 27<<20 {
			t.Errorf("reserved %d, want 27 MiB", got)
		}
		var size int64
		gl.GetNamedBufferParameteri64v(b.Buffer(), gl.BUFFER_SIZE, &size)
		if size != 27<<20 {
			t.Errorf("GL buffer is %d bytes, want 27 MiB", size)
		}
		var flags int32
		gl.GetNamedBufferParameteriv(b.Buffer(), gl.BUFFER_STORAGE_FLAGS, &flags)
		const wantFlags = gl.MAP_WRITE_BIT | gl.MAP_PERSISTENT_BIT | gl.MAP_COHERENT_BIT
		if flags != wantFlags {
			t.Errorf("storage flags 0x%x, want 0x%x", flags, wantFlags)
		}
		for f := 0; f < 10; f++ {
			if _, err := clock.BeginFrame(); err != nil {
				return err
			}
			for i := 0; i < s.Len(); i++ {
				off, view, err := s.Arena(i).Alloc(256, b.Alignment())
				if err != nil {
					return err
				}
				if off%b.Alignment() != 0 {
					t.Errorf("offset %d not aligned to %d", off, b.Alignment())
				}
				view[0] = byte(f)
			}
			if err := clock.EndFrame(); err != nil {
				return err
			}
		}
		if err := clock.Drain(); err != nil {
			return err
		}
		if err := s.Close(); err != nil {
			return err
		}
		if b.Buffer() != 0 {
			t.Error("buffer name kept after Close")
		}
		if _, err := b.Map(64); !errors.Is(err, upload.ErrClosed) {
			t.Errorf("Map after Close: %v", err)
		}
		if e := gl.GetError(); e != gl.NO_ERROR {
			t.Errorf("GL error 0x%x", e)
		}
		return nil
	})
}

// Steady GL frames must not allocate: the fence, the wait and the bump are
// all allocation-free.
func TestGLFramesDoNotAllocate(t *testing.T) {
	testenv.SkipUnderRace(t)
	gltest.Run(t, func(*glctx.Context) error {
		b, err := glbuf.New()
		if err != nil {
			return err
		}
		clock, err := frame.NewClock(frame.ClockDesc{NewFence: glfence.New})
		if err != nil {
			return err
		}
		defer clock.Close()
		s, err := upload.NewSet(upload.SetDesc{Arenas: layout, Backend: b, Clock: clock})
		if err != nil {
			return err
		}
		defer func() {
			_ = clock.Drain()
			_ = s.Close()
		}()
		a := s.Arena(0)
		var failed error
		testenv.NoAllocs(t, "a GL frame", 200, func() {
			if _, err := clock.BeginFrame(); err != nil {
				failed = err
				return
			}
			if _, v, err := a.Alloc(1024, 64); err == nil {
				v[0] = 1
			}
			if err := clock.EndFrame(); err != nil {
				failed = err
			}
		})
		return failed
	})
}

// Map reports what the driver refuses as ErrGL, leaves no buffer and no
// GL error behind, and refuses a second mapping of a backend.
func TestMapErrors(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		b, err := glbuf.New()
		if err != nil {
			return err
		}
		if _, err := b.Map(0); !errors.Is(err, glbuf.ErrGL) {
			t.Errorf("Map(0): %v, want ErrGL (glNamedBufferStorage refuses size 0)", err)
		}
		if b.Buffer() != 0 {
			t.Errorf("a failed Map left buffer %d", b.Buffer())
		}
		if e := gl.GetError(); e != gl.NO_ERROR {
			t.Errorf("a failed Map left GL error 0x%x", e)
		}
		if _, err := b.Map(64); err != nil {
			return err
		}
		if _, err := b.Map(64); !errors.Is(err, upload.ErrInvalidConfig) {
			t.Errorf("second Map: %v, want ErrInvalidConfig", err)
		}
		return b.Close()
	})
}
