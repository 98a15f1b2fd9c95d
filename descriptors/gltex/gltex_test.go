package gltex_test

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"os"
	"reflect"
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/descriptors"
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

func TestMain(m *testing.M) {
	if mode := os.Getenv(ownContextEnv); mode != "" {
		os.Exit(ownContextMain(mode))
	}
	os.Exit(gltest.ServeMain(m.Run))
}

// renderer is the smallest GL renderer: one frame clock with GL fences
// that the upload Set (staging) and the texture Manager follow.
type renderer struct {
	clock *frame.Clock
	set   *upload.Set
	tex   *gltex.Manager
}

func newRenderer(staging bool) (*renderer, error) {
	return newRendererWith(staging, descriptors.HeapDesc{}, frame.ClockDesc{NewFence: glfence.New})
}

// newRendererWith is newRenderer with the heap configured by hd and the
// clock by cd; a nil Logger is replaced by one that discards.
func newRendererWith(staging bool, hd descriptors.HeapDesc, cd frame.ClockDesc) (*renderer, error) {
	r := &renderer{}
	var err error
	r.clock, err = frame.NewClock(cd)
	if err != nil {
		return nil, err
	}
	if hd.Logger == nil {
		hd.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	hd.Clock = r.clock
	d := gltex.Desc{Heap: hd}
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
	r.tex, err = gltex.New(d)
	return r, err
}

func (r *renderer) begin() error {
	_, err := r.clock.BeginFrame()
	return err
}

func (r *renderer) end() error { return r.clock.EndFrame() }

func (r *renderer) drain() error { return r.clock.Drain() }

func (r *renderer) close() error {
	if err := r.drain(); err != nil {
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

func solid(w, h int, c [4]byte) []byte {
	return bytes.Repeat(c[:], w*h)
}

// readBack reads n bytes of texture name's level 0 in format, rows
// packed without padding (a texture of odd width in R8 or RGBA8).
func readBack(name, format uint32, n int) []byte {
	got := make([]byte, n)
	gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
	// Bound rather than glGetTextureImage, which needs 4.5 or DSA.
	gl.BindTexture(gl.TEXTURE_2D, name)
	gl.GetTexImage(gl.TEXTURE_2D, 0, format, gl.UNSIGNED_BYTE, unsafe.Pointer(&got[0]))
	gl.BindTexture(gl.TEXTURE_2D, 0)
	gl.PixelStorei(gl.PACK_ALIGNMENT, 4)
	return got
}

func TestCreateUploadsThroughStagingAndDirect(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		for _, staging := range []bool{true, false} {
			r, err := newRenderer(staging)
			if err != nil {
				return err
			}
			if err := r.begin(); err != nil {
				return err
			}
			want := make([]byte, 13*7*4) // odd width: rows are not 4-aligned in R8
			for i := range want {
				want[i] = byte(i * 7)
			}
			h, err := r.tex.Create(13, 7, gltex.FormatRGBA8, want)
			if err != nil {
				return err
			}
			font := make([]byte, 13*7)
			copy(font, want)
			hf, err := r.tex.Create(13, 7, gltex.FormatR8, font)
			if err != nil {
				return err
			}
			if err := r.end(); err != nil {
				return err
			}
			if err := r.drain(); err != nil {
				return err
			}
			name, _ := r.tex.Texture(h)
			if !bytes.Equal(readBack(name, gl.RGBA, len(want)), want) {
				t.Errorf("staging=%t: RGBA8 texture read back differs", staging)
			}
			fname, _ := r.tex.Texture(hf)
			if !bytes.Equal(readBack(fname, gl.RED, len(font)), font) {
				t.Errorf("staging=%t: R8 texture read back differs", staging)
			}
			st := r.tex.Stats()
			if staging && (st.Staged != 2 || st.Direct != 0) || !staging && (st.Direct != 2 || st.Staged != 0) {
				t.Errorf("staging=%t: staged %d direct %d", staging, st.Staged, st.Direct)
			}
			if err := r.begin(); err != nil {
				return err
			}
			_ = r.tex.Free(h)
			_ = r.tex.Free(hf)
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

func TestCreateRejectsBadInputAndTakesNothing(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		r, err := newRenderer(false)
		if err != nil {
			return err
		}
		if err := r.begin(); err != nil {
			return err
		}
		for _, c := range []struct {
			w, h int
			f    gltex.Format
			px   []byte
		}{{0, 4, gltex.FormatRGBA8, nil}, {4, -1, gltex.FormatRGBA8, nil}, {1 << 20, 1, gltex.FormatR8, nil},
			{4, 4, gltex.Format(99), nil}, {4, 4, gltex.FormatRGBA8, make([]byte, 63)}} {
			if _, err := r.tex.Create(c.w, c.h, c.f, c.px); !errors.Is(err, gltex.ErrInvalidTexture) {
				t.Errorf("Create(%d, %d, %d, %d bytes): %v, want ErrInvalidTexture", c.w, c.h, c.f, len(c.px), err)
			}
		}
		if st := r.tex.Stats(); st.Heap.Live != 0 || st.Created != 0 {
			t.Errorf("bad input took something: %+v", st)
		}
		if err := r.end(); err != nil {
			return err
		}
		return r.close()
	})
}

// Freeing a texture must not delete it while a frame that may sample it
// is in flight: with fences that do not complete, the GL texture survives
// every later frame, Poll and a timed-out Drain, the Manager refuses to
// close, and the texture is deleted exactly when its frame completes.
func TestFreeDefersDeleteToRetirement(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		var gpu []*frame.CPUFence
		r, err := newRendererWith(true, descriptors.HeapDesc{}, frame.ClockDesc{InFlight: 8, Timeout: 10 * time.Millisecond,
			NewFence: func() (frame.Fence, error) {
				f := frame.NewCPUFence(true)
				gpu = append(gpu, f)
				return f, nil
			}})
		if err != nil {
			return err
		}
		if err := r.begin(); err != nil {
			return err
		}
		h, err := r.tex.Create(4, 4, gltex.FormatRGBA8, solid(4, 4, [4]byte{1, 2, 3, 4}))
		if err != nil {
			return err
		}
		name, _ := r.tex.Texture(h)
		if err := r.tex.Free(h); err != nil {
			return err
		}
		if _, err := r.tex.Texture(h); !errors.Is(err, descriptors.ErrStaleHandle) {
			t.Errorf("Texture after Free: %v, want ErrStaleHandle", err)
		}
		if err := r.tex.Bind(0, h); !errors.Is(err, descriptors.ErrStaleHandle) {
			t.Errorf("Bind after Free: %v, want ErrStaleHandle", err)
		}
		if !gl.IsTexture(name) {
			t.Error("texture deleted while its frame is still being recorded")
		}
		if err := r.end(); err != nil {
			return err
		}
		held := func(when string) {
			if !gl.IsTexture(name) || r.tex.Stats().Deleted != 0 {
				t.Errorf("%s: texture deleted while frame 1 is in flight", when)
			}
			if err := r.tex.Close(); !errors.Is(err, descriptors.ErrInUse) {
				t.Errorf("%s: Close over a texture in flight: %v, want ErrInUse", when, err)
			}
		}
		for i := 0; i < 5; i++ {
			if err := r.begin(); err != nil {
				return err
			}
			r.clock.Poll()
			if err := r.end(); err != nil {
				return err
			}
			held("a later frame")
		}
		if err := r.drain(); !errors.Is(err, frame.ErrFenceTimeout) {
			t.Errorf("Drain over fences that never complete: %v", err)
		}
		held("a timed-out Drain")
		gpu[r.clock.Slot(1)].Complete() // the GPU finishes frame 1, and only it
		r.clock.Poll()
		if gl.IsTexture(name) {
			t.Error("texture not deleted once frame 1 completed")
		}
		if st := r.tex.Stats(); st.Deleted != 1 || st.Textures != 0 {
			t.Errorf("stats %+v", st)
		}
		for _, f := range gpu {
			f.Complete()
		}
		return r.close()
	})
}

// GLSL 3.30 with the sampler's unit set by glUniform1i, so the test runs
// on every context the Manager supports (layout(binding) needs 4.20).
const bindVertex = `#version 330 core
void main() {
	vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
	gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}`

const bindFragment = `#version 330 core
uniform sampler2D tex;
out vec4 color;
void main() { color = texelFetch(tex, ivec2(0, 0), 0); }`

// A shader reaches a slot through the unit Bind puts it on.
func TestBindReachesTheSlotFromAShader(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		r, err := newRenderer(true)
		if err != nil {
			return err
		}
		prog, err := glctx.NewProgram(bindVertex, bindFragment)
		if err != nil {
			return err
		}
		defer gl.DeleteProgram(prog)
		var vao, target, fbo uint32
		gl.GenVertexArrays(1, &vao)
		defer gl.DeleteVertexArrays(1, &vao)
		gl.GenTextures(1, &target)
		defer gl.DeleteTextures(1, &target)
		gl.BindTexture(gl.TEXTURE_2D, target)
		gl.TexImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, 1, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, nil)
		gl.BindTexture(gl.TEXTURE_2D, 0)
		gl.GenFramebuffers(1, &fbo)
		defer gl.DeleteFramebuffers(1, &fbo)
		gl.BindFramebuffer(gl.FRAMEBUFFER, fbo)
		gl.FramebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, target, 0)
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)

		if err := r.begin(); err != nil {
			return err
		}
		colors := [][4]byte{{255, 0, 0, 255}, {0, 200, 0, 255}, {10, 20, 30, 40}}
		var hs []descriptors.Handle
		for _, c := range colors {
			h, err := r.tex.Create(2, 2, gltex.FormatRGBA8, solid(2, 2, c))
			if err != nil {
				return err
			}
			hs = append(hs, h)
		}
		gl.BindFramebuffer(gl.FRAMEBUFFER, fbo)
		gl.Viewport(0, 0, 1, 1)
		gl.UseProgram(prog)
		gl.Uniform1i(gl.GetUniformLocation(prog, gl.Str("tex\x00")), 3)
		gl.BindVertexArray(vao)
		for k := len(hs) - 1; k >= 0; k-- {
			if err := r.tex.Bind(3, hs[k]); err != nil {
				return err
			}
			gl.DrawArrays(gl.TRIANGLES, 0, 3)
			var px [4]byte
			gl.ReadPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, unsafe.Pointer(&px[0]))
			if px != colors[k] {
				t.Errorf("slot %d bound to unit 3: shader saw %v, want %v", hs[k].Index(), px, colors[k])
			}
		}
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		for _, h := range hs {
			_ = r.tex.Free(h)
		}
		if err := r.end(); err != nil {
			return err
		}
		return r.close()
	})
}

// No Manager method takes a frame serial: the Manager learns of frames
// from the clock its heap follows, so a renderer cannot hand it the wrong
// one (it once had BeginFrame(serial) and Retire(completed), and passing
// the open frame's serial to Retire deleted textures still in flight).
func TestNoMethodTakesAFrameSerial(t *testing.T) {
	typ := reflect.TypeOf(&gltex.Manager{})
	for i := 0; i < typ.NumMethod(); i++ {
		m := typ.Method(i)
		for a := 1; a < m.Type.NumIn(); a++ {
			if m.Type.In(a) == reflect.TypeOf(uint64(0)) {
				t.Errorf("%v.%s takes a %v: a frame serial the caller could get wrong", typ, m.Name, m.Type.In(a))
			}
		}
	}
}
