package spritegl

import (
	"fmt"
	"strconv"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/glarray"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/internal/sprites"
	"github.com/steadyframe/steadyframe/upload"
)

// The shaders are GLSL 3.30 so that the array path runs on every context
// glarray supports, macOS's 4.1 among them: the sampler's unit is set with
// glUniform1i (layout(binding) needs 4.20).
const vertexShader = `#version 330 core
layout(location = 0) in vec3 place; // x, y, size in pixels, y down
layout(location = 1) in uint layer; // the texture's slot: glarray.Handle.Layer()
layout(location = 2) in vec4 tint;
uniform vec2 screen;
out vec2 uv;
flat out uint vLayer;
out vec4 vTint;
void main() {
	vec2 corner = vec2(gl_VertexID & 1, gl_VertexID >> 1);
	vec2 pos = place.xy + corner * place.z;
	uv = corner;
	vLayer = layer;
	vTint = tint;
	gl_Position = vec4(pos.x / screen.x * 2.0 - 1.0, 1.0 - pos.y / screen.y * 2.0, 0.0, 1.0);
}
`

const fragmentShader = `#version 330 core
uniform sampler2DArray sprites; // unit 0: the Manager's Bind(0, 0)
in vec2 uv;
flat in uint vLayer;
in vec4 vTint;
out vec4 color;
void main() { color = texture(sprites, vec3(uv, float(vLayer))) * vTint; }
`

// Desc configures New.
type Desc struct {
	// Heap configures the array's heap (its Clock is required).
	Heap descriptors.HeapDesc
	// Textures is how many sprite textures are live; Size their side in
	// pixels. Layers, at least Textures, is the array's capacity: the
	// live textures plus those freed and waiting for their frames.
	Textures, Size, Layers int
	// Staging and Buffer are the upload arena the pixels are staged in
	// and the GL buffer behind it.
	Staging *upload.Arena
	Buffer  uint32
}

// Array is the sprite textures as layers of one texture array, and the
// program that draws sprite instances from it.
type Array struct {
	tex     *glarray.Manager
	handles []glarray.Handle
	names   []string
	pix     []byte
	seed    uint64
	next    int

	program, vao uint32
	screen       int32
	draws        uint64
}

// attribs are the instance attributes: x, y, size as floats, the layer
// as an integer, the tint as normalised bytes (sprites.InstanceBytes
// apart). They are pointed at the instance buffer at each Draw's offset.
var attribs = [...]struct {
	loc, size, typ, off uint32
	integer, norm       bool
}{{0, 3, gl.FLOAT, 0, false, false}, {1, 1, gl.UNSIGNED_INT, 12, true, false}, {2, 4, gl.UNSIGNED_BYTE, 16, false, true}}

// New makes the array and its Textures textures, named "sprite N", and
// the program. It allocates; call it at load time on the render
// goroutine.
func New(d Desc) (*Array, error) {
	if d.Textures < 1 || d.Layers < d.Textures || d.Size < 1 {
		return nil, fmt.Errorf("spritegl: %d textures of %d pixels in %d layers", d.Textures, d.Size, d.Layers)
	}
	d.Heap.Name = "sprites"
	tex, err := glarray.New(glarray.Desc{Heap: d.Heap, Staging: d.Staging, StagingBuffer: d.Buffer,
		Classes: []glarray.Class{{Name: "sprites", Width: d.Size, Height: d.Size, Format: gltex.FormatRGBA8, Layers: d.Layers}}})
	if err != nil {
		return nil, err
	}
	a := &Array{tex: tex, handles: make([]glarray.Handle, d.Textures), names: make([]string, d.Textures),
		pix: make([]byte, d.Size*d.Size*4)}
	for i := range a.handles {
		a.names[i] = "sprite " + strconv.Itoa(i)
		if err := a.make(i); err != nil {
			return nil, err
		}
	}
	if a.program, err = glctx.NewProgram(vertexShader, fragmentShader); err != nil {
		return nil, err
	}
	a.screen = gl.GetUniformLocation(a.program, gl.Str("screen\x00"))
	gl.UseProgram(a.program)
	gl.Uniform1i(gl.GetUniformLocation(a.program, gl.Str("sprites\x00")), 0)
	gl.UseProgram(0)
	// OpenGL 3.3 vertex arrays: the divisors and enables are the VAO's,
	// set once; the buffer and offset are pointed at in Draw.
	gl.GenVertexArrays(1, &a.vao)
	gl.BindVertexArray(a.vao)
	for _, f := range attribs {
		gl.EnableVertexAttribArray(f.loc)
		gl.VertexAttribDivisor(f.loc, 1)
	}
	gl.BindVertexArray(0)
	if e := gl.GetError(); e != gl.NO_ERROR {
		return nil, fmt.Errorf("spritegl: GL error 0x%x building the sprite program", e)
	}
	return a, nil
}

// make creates texture i with fresh pixels.
func (a *Array) make(i int) error {
	a.seed++
	scene.Fill(a.pix, a.seed)
	for k := 3; k < len(a.pix); k += 4 {
		a.pix[k] = 0xff
	}
	h, err := a.tex.Create(0, a.pix, a.names[i])
	if err != nil {
		return err
	}
	a.handles[i] = h
	return nil
}

// Churn frees n textures, round robin, and makes each again with new
// pixels in whatever layer the heap gives: texture churn in steady
// frames. The freed layers wait for their frames. It does not allocate.
func (a *Array) Churn(n int) error {
	for range n {
		i := a.next
		a.next = (a.next + 1) % len(a.handles)
		if err := a.tex.Free(a.handles[i]); err != nil {
			return err
		}
		if err := a.make(i); err != nil {
			return err
		}
	}
	return nil
}

// Len returns the number of sprite textures.
func (a *Array) Len() int { return len(a.handles) }

// Layer returns texture i's layer: what a sprite drawn with it streams.
func (a *Array) Layer(i int) uint32 { return a.handles[i].Layer() }

// Draw draws count sprite instances whose data (sprites.InstanceBytes
// each) start at offset in buffer, on a w×h screen, with alpha blending:
// the array bound once, one draw. It does not allocate.
func (a *Array) Draw(buffer uint32, offset, count, w, h int) {
	if count == 0 {
		return
	}
	gl.Enable(gl.BLEND)
	gl.BlendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA)
	gl.UseProgram(a.program)
	gl.Uniform2f(a.screen, float32(w), float32(h))
	gl.BindVertexArray(a.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, buffer)
	for _, f := range attribs {
		at := uintptr(offset) + uintptr(f.off)
		if f.integer {
			gl.VertexAttribIPointerWithOffset(f.loc, int32(f.size), f.typ, sprites.InstanceBytes, at)
		} else {
			gl.VertexAttribPointerWithOffset(f.loc, int32(f.size), f.typ, f.norm, sprites.InstanceBytes, at)
		}
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	_ = a.tex.Bind(0, 0) // class 0 is the Array's only class
	gl.DrawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, int32(count))
	a.draws++
	gl.BindVertexArray(0)
}

// Draws returns the draw calls issued so far.
func (a *Array) Draws() uint64 { return a.draws }

// Stats returns the array's texture counters.
func (a *Array) Stats() glarray.Stats { return a.tex.Stats() }

// Release frees every sprite texture, for teardown; their layers wait
// for the frames in flight.
func (a *Array) Release() error {
	for i, h := range a.handles {
		if h.IsZero() {
			continue
		}
		if err := a.tex.Free(h); err != nil {
			return err
		}
		a.handles[i] = glarray.Handle{}
	}
	return nil
}

// Close deletes the program and closes the array, which refuses, naming
// the live textures, before Release or while frames are in flight.
func (a *Array) Close() error {
	if err := a.tex.Close(); err != nil {
		return err
	}
	if a.vao != 0 {
		gl.DeleteVertexArrays(1, &a.vao)
		a.vao = 0
	}
	if a.program != 0 {
		gl.DeleteProgram(a.program)
		a.program = 0
	}
	return nil
}
