package glbuf_test

import (
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/glcaps"
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

// modes returns the backend modes the test context can run, New's
// choice first: both on OpenGL 4.5, ModeMapRange alone on a macOS-like
// 4.1 or on 3.3.
func modes(t *testing.T) []glbuf.Mode {
	t.Helper()
	ms := []glbuf.Mode{glbuf.ModeMapRange}
	gltest.Run(t, func(*glctx.Context) error {
		if glcaps.Has(glcaps.FeatureBufferStorage) && glcaps.Has(glcaps.FeatureDirectStateAccess) {
			ms = []glbuf.Mode{glbuf.ModePersistent, glbuf.ModeMapRange}
		}
		return nil
	})
	return ms
}

// New picks the best mode the context has, and NewWithMode refuses the
// persistent one where the context lacks it, naming what is missing.
func TestNewPicksTheMode(t *testing.T) {
	ms := modes(t)
	gltest.Run(t, func(c *glctx.Context) error {
		b, err := glbuf.New()
		if err != nil {
			return err
		}
		t.Logf("%s: New picked %v", c.Info().Version, b.Mode())
		if b.Mode() != ms[0] {
			t.Errorf("New picked %v on %s, want %v", b.Mode(), c.Info().Version, ms[0])
		}
		_, err = glbuf.NewWithMode(glbuf.ModePersistent)
		if len(ms) == 1 && (!errors.Is(err, glcaps.ErrMissingFeature) || !strings.Contains(err.Error(), "GL_ARB_buffer_storage")) {
			t.Errorf("NewWithMode(ModePersistent) on %s = %v, want ErrMissingFeature naming GL_ARB_buffer_storage", c.Info().Version, err)
		}
		if len(ms) == 2 && err != nil {
			t.Errorf("NewWithMode(ModePersistent) on %s: %v", c.Info().Version, err)
		}
		if _, err := glbuf.NewWithMode(0); !errors.Is(err, upload.ErrInvalidConfig) {
			t.Errorf("NewWithMode(0) = %v, want ErrInvalidConfig", err)
		}
		return nil
	})
}

func TestSetOnGL(t *testing.T) {
	for _, m := range modes(t) {
		t.Run(m.String(), func(t *testing.T) { testSetOnGL(t, m) })
	}
}

func testSetOnGL(t *testing.T, m glbuf.Mode) {
	gltest.Run(t, func(c *glctx.Context) error {
		b, err := glbuf.NewWithMode(m)
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
		gl.BindBuffer(gl.COPY_READ_BUFFER, b.Buffer())
		gl.GetBufferParameteri64v(gl.COPY_READ_BUFFER, gl.BUFFER_SIZE, &size)
		if size != 27<<20 {
			t.Errorf("GL buffer is %d bytes, want 27 MiB", size)
		}
		if m == glbuf.ModePersistent {
			var flags int32
			gl.GetBufferParameteriv(gl.COPY_READ_BUFFER, gl.BUFFER_STORAGE_FLAGS, &flags)
			const wantFlags = gl.MAP_WRITE_BIT | gl.MAP_PERSISTENT_BIT | gl.MAP_COHERENT_BIT
			if flags != wantFlags {
				t.Errorf("storage flags 0x%x, want 0x%x", flags, wantFlags)
			}
		}
		gl.BindBuffer(gl.COPY_READ_BUFFER, 0)
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
	for _, m := range modes(t) {
		t.Run(m.String(), func(t *testing.T) { testGLFramesDoNotAllocate(t, m) })
	}
}

func testGLFramesDoNotAllocate(t *testing.T, m glbuf.Mode) {
	gltest.Run(t, func(*glctx.Context) error {
		b, err := glbuf.NewWithMode(m)
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
			if err := a.Flush(); err != nil {
				failed = err
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
	for _, m := range modes(t) {
		t.Run(m.String(), func(t *testing.T) { testMapErrors(t, m) })
	}
}

func testMapErrors(t *testing.T, m glbuf.Mode) {
	gltest.Run(t, func(*glctx.Context) error {
		b, err := glbuf.NewWithMode(m)
		if err != nil {
			return err
		}
		if _, err := b.Map(0); !errors.Is(err, glbuf.ErrGL) {
			t.Errorf("Map(0): %v, want ErrGL (a buffer of 0 bytes is refused)", err)
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
