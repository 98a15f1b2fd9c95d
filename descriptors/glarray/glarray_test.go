package glarray_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/glarray"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/glfence"
	"github.com/steadyframe/steadyframe/upload"
	"github.com/steadyframe/steadyframe/upload/glbuf"
)

// GLFW must run on the main OS thread: lock the main goroutine to it and
// serve GL calls from it.
func init() { runtime.LockOSThread() }

func TestMain(m *testing.M) { os.Exit(gltest.ServeMain(m.Run)) }

// renderer is the smallest GL renderer: a frame clock that the upload
// Set (staging) and the array Manager follow.
type renderer struct {
	clock *frame.Clock
	set   *upload.Set
	tex   *glarray.Manager
}

// sprites and glyphs are the two classes the tests declare.
var (
	sprites = glarray.Class{Width: 16, Height: 16, Format: gltex.FormatRGBA8, Layers: 32}
	glyphs  = glarray.Class{Name: "glyphs", Width: 13, Height: 7, Format: gltex.FormatR8, Layers: 8}
)

// newRenderer makes a renderer with GL fences, staging and both classes.
func newRenderer() (*renderer, error) {
	return newRendererWith(frame.ClockDesc{NewFence: glfence.New}, true, nil, sprites, glyphs)
}

// newRendererWith makes a renderer whose clock is configured by cd, with
// or without staging, logging to log (nil: discarded), with classes cs.
func newRendererWith(cd frame.ClockDesc, staging bool, log *slog.Logger, cs ...glarray.Class) (*renderer, error) {
	r := &renderer{}
	var err error
	if r.clock, err = frame.NewClock(cd); err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	d := glarray.Desc{Heap: descriptors.HeapDesc{Clock: r.clock, Logger: log}, Classes: cs}
	if staging {
		b, err := glbuf.New()
		if err != nil {
			return nil, err
		}
		r.set, err = upload.NewSet(upload.SetDesc{Arenas: []upload.ArenaDesc{{Name: "textures", Size: 1 << 20}},
			Backend: b, Clock: r.clock})
		if err != nil {
			return nil, err
		}
		d.Staging, d.StagingBuffer = r.set.Arena(0), b.Buffer()
	}
	r.tex, err = glarray.New(d)
	return r, err
}

func (r *renderer) begin() error {
	_, err := r.clock.BeginFrame()
	return err
}

func (r *renderer) end() error { return r.clock.EndFrame() }

func (r *renderer) close() error {
	if err := r.clock.Drain(); err != nil {
		return err
	}
	if err := r.tex.Close(); err != nil {
		return err
	}
	if r.set != nil {
		if err := r.set.Close(); err != nil {
			return err
		}
	}
	return r.clock.Close()
}

// pattern returns the pixels of texture number n of class c: every texel
// different within the texture, and from texture to texture.
func pattern(c glarray.Class, n int) []byte {
	bpp := 4
	if c.Format == gltex.FormatR8 {
		bpp = 1
	}
	px := make([]byte, c.Width*c.Height*bpp)
	for i := range px {
		px[i] = byte(i*7 + n*31 + n>>8)
	}
	if bpp == 4 {
		for i := 3; i < len(px); i += 4 {
			px[i] = byte(n) // alpha holds the texture number
		}
	}
	return px
}

// readLayer reads layer of the Manager's class i back from GL.
func readLayer(m *glarray.Manager, i, layer int) []byte {
	c := m.Class(i)
	format, bpp := uint32(gl.RGBA), 4
	if c.Format == gltex.FormatR8 {
		format, bpp = gl.RED, 1
	}
	size := c.Width * c.Height * bpp
	got := make([]byte, size)
	gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
	defer gl.PixelStorei(gl.PACK_ALIGNMENT, 4)
	if hasGetTextureSubImage() {
		gl.GetTextureSubImage(m.Texture(i), 0, 0, 0, int32(layer), int32(c.Width), int32(c.Height), 1,
			format, gl.UNSIGNED_BYTE, int32(len(got)), unsafe.Pointer(&got[0]))
		return got
	}
	// OpenGL 4.1 and 3.3: the whole array, bound, and the layer cut out.
	all := make([]byte, size*c.Layers)
	gl.BindTexture(gl.TEXTURE_2D_ARRAY, m.Texture(i))
	gl.GetTexImage(gl.TEXTURE_2D_ARRAY, 0, format, gl.UNSIGNED_BYTE, unsafe.Pointer(&all[0]))
	gl.BindTexture(gl.TEXTURE_2D_ARRAY, 0)
	copy(got, all[layer*size:])
	return got
}

// getTextureSubImage caches hasGetTextureSubImage's answer: a test
// process runs on one kind of context.
var getTextureSubImage struct {
	sync.Once
	ok bool
}

// hasGetTextureSubImage reports whether the context has
// glGetTextureSubImage: OpenGL 4.5, or GL_ARB_get_texture_sub_image.
func hasGetTextureSubImage() bool {
	getTextureSubImage.Do(func() {
		var major, minor, n int32
		gl.GetIntegerv(gl.MAJOR_VERSION, &major)
		gl.GetIntegerv(gl.MINOR_VERSION, &minor)
		getTextureSubImage.ok = major > 4 || major == 4 && minor >= 5
		gl.GetIntegerv(gl.NUM_EXTENSIONS, &n)
		for k := range uint32(n) {
			if gl.GoStr(gl.GetStringi(gl.EXTENSIONS, k)) == "GL_ARB_get_texture_sub_image" {
				getTextureSubImage.ok = true
			}
		}
	})
	return getTextureSubImage.ok
}

// The staged and the direct upload each fill exactly the slot's layer of
// the class's array, in both formats (R8 at an odd width, whose rows are
// not 4-byte aligned), and leave the other layers alone.
func TestCreateFillsTheSlotsLayer(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		for _, staging := range []bool{true, false} {
			r, err := newRendererWith(frame.ClockDesc{NewFence: glfence.New}, staging, nil, sprites, glyphs)
			if err != nil {
				return err
			}
			if err := r.begin(); err != nil {
				return err
			}
			var hs []glarray.Handle
			for n := range 5 {
				c := n % 2
				h, err := r.tex.Create(c, pattern(r.tex.Class(c), n), fmt.Sprint("t", n))
				if err != nil {
					return err
				}
				hs = append(hs, h)
			}
			if err := r.end(); err != nil {
				return err
			}
			for n, h := range hs {
				layer, err := r.tex.Layer(h)
				if err != nil {
					return err
				}
				if h.Class() != n%2 || layer != n/2 || int(h.Layer()) != layer {
					t.Errorf("texture %d: %v (layer %d), want class %d layer %d", n, h, layer, n%2, n/2)
				}
				if got := readLayer(r.tex, h.Class(), layer); !bytes.Equal(got, pattern(r.tex.Class(h.Class()), n)) {
					t.Errorf("staging %v: texture %d (%v) reads back different pixels", staging, n, h)
				}
			}
			st := r.tex.Stats()
			if staging && (st.Staged != 5 || st.Direct != 0) || !staging && (st.Staged != 0 || st.Direct != 5) {
				t.Errorf("staging %v: %d staged and %d direct uploads, want all 5 %s", staging, st.Staged, st.Direct,
					map[bool]string{true: "staged", false: "direct"}[staging])
			}
			if st.Live != 5 || st.Capacity != sprites.Layers+glyphs.Layers {
				t.Errorf("stats %+v: want 5 live of %d", st, sprites.Layers+glyphs.Layers)
			}
			if err := r.begin(); err != nil {
				return err
			}
			for _, h := range hs {
				if err := r.tex.Free(h); err != nil {
					return err
				}
			}
			if err := r.end(); err != nil {
				return err
			}
			if err := r.close(); err != nil {
				return err
			}
		}
		if e := gl.GetError(); e != gl.NO_ERROR {
			t.Errorf("GL error 0x%x", e)
		}
		return nil
	})
}

// Bad arguments are refused with a clear error and take nothing; so is a
// class outside the context's limits at New.
func TestBadInputIsRefused(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		r, err := newRenderer()
		if err != nil {
			return err
		}
		if _, err := r.tex.Create(2, nil, "x"); !errors.Is(err, glarray.ErrInvalidTexture) || !strings.Contains(err.Error(), "class 2") {
			t.Errorf("Create of class 2: %v", err)
		}
		if _, err := r.tex.Create(0, make([]byte, 10), "x"); !errors.Is(err, glarray.ErrInvalidTexture) ||
			!strings.Contains(err.Error(), "want 1024") {
			t.Errorf("Create with 10 bytes: %v", err)
		}
		if err := r.tex.Free(glarray.Handle{}); !errors.Is(err, descriptors.ErrInvalidHandle) {
			t.Errorf("Free(zero): %v", err)
		}
		if err := r.tex.Bind(0, 2); !errors.Is(err, glarray.ErrInvalidTexture) || !strings.Contains(err.Error(), "class 2") {
			t.Errorf("Bind of class 2: %v", err)
		}
		if st := r.tex.Stats(); st.Live != 0 || st.Created != 0 {
			t.Errorf("refusals took slots: %+v", st)
		}
		if err := r.close(); err != nil {
			return err
		}

		var max int32
		gl.GetIntegerv(gl.MAX_ARRAY_TEXTURE_LAYERS, &max)
		clock, err := frame.NewClock(frame.ClockDesc{})
		if err != nil {
			return err
		}
		defer clock.Close()
		for _, tc := range []struct {
			d    glarray.Desc
			want string
		}{
			{glarray.Desc{Heap: descriptors.HeapDesc{Clock: clock}}, "no Classes"},
			{glarray.Desc{Heap: descriptors.HeapDesc{Clock: clock, Capacity: 8}, Classes: []glarray.Class{sprites}}, "leave it 0"},
			{glarray.Desc{Classes: []glarray.Class{sprites}}, "nil Heap.Clock"},
			{glarray.Desc{Heap: descriptors.HeapDesc{Clock: clock},
				Classes: []glarray.Class{sprites, {Width: 4, Height: 4, Format: gltex.FormatR8, Layers: int(max) + 1}}},
				fmt.Sprintf("class 1: %d layers (want 1..%d", max+1, max)},
			{glarray.Desc{Heap: descriptors.HeapDesc{Clock: clock},
				Classes: []glarray.Class{{Width: 0, Height: 4, Format: gltex.FormatR8, Layers: 1}}}, "class 0: 0×4"},
			{glarray.Desc{Heap: descriptors.HeapDesc{Clock: clock},
				Classes: []glarray.Class{{Width: 4, Height: 4, Format: 9, Layers: 1}}}, "class 0: format 9"},
		} {
			m, err := glarray.New(tc.d)
			if !errors.Is(err, descriptors.ErrInvalidConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New: %v, want ErrInvalidConfig saying %q", err, tc.want)
			}
			if m != nil {
				t.Errorf("New returned a Manager with its error")
			}
		}
		if n := clock.Followers(); n != 0 {
			t.Errorf("refused News left %d heaps following the clock", n)
		}
		return nil
	})
}

// lateGPU is a device that finishes frames late: its fences report done
// only for frames it has reached, which the test advances by hand, and a
// wait (the clock reusing a frame's slot) finishes that frame at once,
// unless the device is stuck, when the wait times out.
type lateGPU struct {
	signalled, reached uint64
	stuck              bool
}

type lateFence struct {
	g  *lateGPU
	at uint64
}

func (g *lateGPU) fence() (frame.Fence, error) { return &lateFence{g: g}, nil }

func (f *lateFence) Signal() error { f.g.signalled++; f.at = f.g.signalled; return nil }
func (f *lateFence) Done() bool    { return f.at <= f.g.reached }
func (f *lateFence) Close() error  { return nil }
func (f *lateFence) Wait(time.Duration) error {
	if f.at <= f.g.reached {
		return nil
	}
	if f.g.stuck {
		return fmt.Errorf("%w: lateGPU is stuck before frame %d", frame.ErrFenceTimeout, f.at)
	}
	f.g.reached = f.at
	return nil
}
