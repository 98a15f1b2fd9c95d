package glarray_test

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/descriptors/glarray"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
)

// The vertex shader places instance i in cell i of an 8-column grid of
// 16×16-pixel cells and passes its layer on; the fragment shader samples
// the sprites array at that layer. texelFetch reads the texel under each
// pixel, so the framebuffer must equal the textures exactly. GLSL 3.30,
// the sampler's unit set by glUniform1i, so the test runs on every
// context the Manager supports (layout(binding) needs 4.20).
const (
	drawVertex = `#version 330 core
layout(location = 0) in uint layer; // per instance: Handle.Layer()
uniform vec2 target;
out vec2 uv;
flat out uint vLayer;
void main() {
	vec2 corner = vec2(gl_VertexID & 1, gl_VertexID >> 1);
	vec2 px = (vec2(gl_InstanceID % 8, gl_InstanceID / 8) + corner) * 16.0;
	uv = corner * 16.0;
	vLayer = layer;
	gl_Position = vec4(px / target * 2.0 - 1.0, 0.0, 1.0);
}`
	drawFragment = `#version 330 core
uniform sampler2DArray sprites; // unit 0: Manager.Bind(0, class)
in vec2 uv;
flat in uint vLayer;
out vec4 color;
void main() { color = texelFetch(sprites, ivec3(ivec2(uv), int(vLayer)), 0); }`
)

// One instanced draw samples N = 24 different live textures of one array
// by their slots, and the framebuffer read back equals every texture
// pixel for pixel. The slots are not in creation order: textures are
// freed and others created in their layers first, so a draw that ignored
// the slot, or read a stale layer, would show.
func TestOneDrawSamplesEveryLiveTextureBySlot(t *testing.T) {
	gltest.Run(t, func(*glctx.Context) error {
		r, err := newRenderer()
		if err != nil {
			return err
		}
		const n, w, h = 24, 128, 64
		if err := r.begin(); err != nil {
			return err
		}
		var all []glarray.Handle
		for i := range n + 6 {
			x, err := r.tex.Create(0, pattern(sprites, i), fmt.Sprint("sprite ", i))
			if err != nil {
				return err
			}
			all = append(all, x)
		}
		for _, x := range all[3:9] { // six freed, their layers reused below
			if err := r.tex.Free(x); err != nil {
				return err
			}
		}
		if err := r.end(); err != nil {
			return err
		}
		if err := r.clock.Drain(); err != nil {
			return err
		}
		if err := r.begin(); err != nil {
			return err
		}
		live := append(append([]glarray.Handle{}, all[:3]...), all[9:]...)
		number := map[glarray.Handle]int{}
		for i, x := range live {
			number[x] = i
			if i >= 3 {
				number[x] = i + 6
			}
		}
		for i := range 6 {
			x, err := r.tex.Create(0, pattern(sprites, 1000+i), "reused")
			if err != nil {
				return err
			}
			live = append(live, x)
			number[x] = 1000 + i
		}
		// Newest first, so instance order differs from layer order too.
		for i, j := 0, len(live)-1; i < j; i, j = i+1, j-1 {
			live[i], live[j] = live[j], live[i]
		}
		everything := live
		live = live[:n]
		layers := make([]uint32, n)
		for i, x := range live {
			l, err := r.tex.Layer(x)
			if err != nil {
				return err
			}
			layers[i] = uint32(l)
		}

		prog, err := glctx.NewProgram(drawVertex, drawFragment)
		if err != nil {
			return err
		}
		defer gl.DeleteProgram(prog)
		var fbo, color, vao, buf uint32
		gl.GenFramebuffers(1, &fbo)
		gl.GenRenderbuffers(1, &color)
		gl.BindRenderbuffer(gl.RENDERBUFFER, color)
		gl.RenderbufferStorage(gl.RENDERBUFFER, gl.RGBA8, w, h)
		gl.BindRenderbuffer(gl.RENDERBUFFER, 0)
		gl.BindFramebuffer(gl.FRAMEBUFFER, fbo)
		gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, color)
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		gl.GenVertexArrays(1, &vao)
		gl.BindVertexArray(vao)
		gl.GenBuffers(1, &buf)
		gl.BindBuffer(gl.ARRAY_BUFFER, buf)
		gl.BufferData(gl.ARRAY_BUFFER, 4*n, unsafe.Pointer(&layers[0]), gl.STATIC_DRAW)
		gl.VertexAttribIPointerWithOffset(0, 1, gl.UNSIGNED_INT, 4, 0)
		gl.VertexAttribDivisor(0, 1)
		gl.EnableVertexAttribArray(0)
		gl.BindBuffer(gl.ARRAY_BUFFER, 0)
		gl.BindVertexArray(0)
		defer func() {
			gl.DeleteVertexArrays(1, &vao)
			gl.DeleteBuffers(1, &buf)
			gl.DeleteFramebuffers(1, &fbo)
			gl.DeleteRenderbuffers(1, &color)
		}()

		gl.BindFramebuffer(gl.FRAMEBUFFER, fbo)
		gl.Viewport(0, 0, w, h)
		gl.ClearColor(0, 0, 0, 0)
		gl.Clear(gl.COLOR_BUFFER_BIT)
		gl.UseProgram(prog)
		gl.Uniform2f(gl.GetUniformLocation(prog, gl.Str("target\x00")), w, h)
		gl.Uniform1i(gl.GetUniformLocation(prog, gl.Str("sprites\x00")), 0)
		gl.BindVertexArray(vao)
		if err := r.tex.Bind(0, 0); err != nil {
			return err
		}
		gl.DrawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, n) // the one draw
		px := make([]byte, w*h*4)
		gl.ReadPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, unsafe.Pointer(&px[0]))
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
		gl.BindVertexArray(0)
		if e := gl.GetError(); e != gl.NO_ERROR {
			t.Errorf("GL error 0x%x", e)
		}

		distinct := map[uint32]bool{}
		bad := 0
		for i, x := range live {
			distinct[layers[i]] = true
			want := pattern(sprites, number[x])
			cx, cy := i%8*16, i/8*16
			for v := range 16 {
				for u := range 16 {
					got := px[((cy+v)*w+cx+u)*4:][:4]
					if string(got) != string(want[(v*16+u)*4:][:4]) {
						if bad++; bad <= 5 {
							t.Errorf("instance %d (%v, texture %d) texel %d,%d: framebuffer %v, texture %v",
								i, x, number[x], u, v, got, want[(v*16+u)*4:][:4])
						}
					}
				}
			}
		}
		if len(distinct) != n {
			t.Errorf("%d distinct layers among %d textures", len(distinct), n)
		}
		if bad > 0 {
			t.Errorf("%d of %d pixels differ", bad, n*256)
		}
		t.Logf("one draw sampled %d live textures at layers %v: %d pixels exact", n, layers, n*256-bad)
		for _, x := range everything {
			if err := r.tex.Free(x); err != nil {
				return err
			}
		}
		if err := r.end(); err != nil {
			return err
		}
		return r.close()
	})
}
