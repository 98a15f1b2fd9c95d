package quadgl

import (
	"errors"
	"fmt"

	"github.com/go-gl/gl/v4.1-core/gl"

	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/quads"
)

// ErrGL is returned when a shader does not compile or link, or GL reports
// an error while building the renderer.
var ErrGL = errors.New("quadgl: OpenGL error")

// GLSL 3.30, so the quads draw on OpenGL 3.3 and macOS's 4.1 too; the
// sampler's unit is set with glUniform1i, not layout(binding).
const vertexShader = `#version 330 core
layout(location = 0) in vec2 pos;
layout(location = 1) in vec2 uv;
layout(location = 2) in vec4 rgba;
uniform vec2 screen;
out vec2 vUV;
out vec4 vColor;
void main() {
	vUV = uv;
	vColor = rgba;
	gl_Position = vec4(pos.x / screen.x * 2.0 - 1.0, 1.0 - pos.y / screen.y * 2.0, 0.0, 1.0);
}
`

const fragmentShader = `#version 330 core
in vec2 vUV;
in vec4 vColor;
uniform sampler2D tex;
out vec4 color;
void main() {
	color = texture(tex, vUV) * vColor;
}
`

// Renderer draws quad runs from a GL buffer.
type Renderer struct {
	program uint32
	vao     uint32
	ibo     uint32
	screen  int32
	draws   uint64
}

// New builds the renderer for up to maxQuads quads per frame.
func New(maxQuads int) (*Renderer, error) {
	if maxQuads < 1 || maxQuads > quads.MaxQuads {
		return nil, fmt.Errorf("%w: %d quads (want 1..%d)", quads.ErrInvalid, maxQuads, quads.MaxQuads)
	}
	prog, err := glctx.NewProgram(vertexShader, fragmentShader)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGL, err)
	}
	r := &Renderer{program: prog, screen: gl.GetUniformLocation(prog, gl.Str("screen\x00"))}
	idx := make([]uint16, maxQuads*6)
	if err := quads.Indices(idx, maxQuads); err != nil {
		gl.DeleteProgram(prog)
		return nil, err
	}
	gl.UseProgram(prog)
	gl.Uniform1i(gl.GetUniformLocation(prog, gl.Str("tex\x00")), 0)
	gl.UseProgram(0)
	// OpenGL 3.3 calls only: the attribute formats are set per Draw,
	// at the buffer offset (glVertexAttribPointer), since separate
	// formats and bindings are 4.3.
	gl.GenVertexArrays(1, &r.vao)
	gl.BindVertexArray(r.vao)
	gl.GenBuffers(1, &r.ibo)
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, r.ibo)
	gl.BufferData(gl.ELEMENT_ARRAY_BUFFER, len(idx)*2, gl.Ptr(idx), gl.STATIC_DRAW)
	for loc := uint32(0); loc < 3; loc++ {
		gl.EnableVertexAttribArray(loc)
	}
	gl.BindVertexArray(0)
	if e := gl.GetError(); e != gl.NO_ERROR {
		r.Release()
		return nil, fmt.Errorf("%w: 0x%x building the quad renderer", ErrGL, e)
	}
	return r, nil
}

// Draw draws runs whose vertices start at offset in buffer, on a screen of
// w×h pixels, with alpha blending. It does not allocate.
func (r *Renderer) Draw(buffer uint32, offset int, runs []quads.Run, w, h int) {
	if len(runs) == 0 {
		return
	}
	gl.Enable(gl.BLEND)
	gl.BlendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA)
	gl.UseProgram(r.program)
	gl.Uniform2f(r.screen, float32(w), float32(h))
	gl.BindVertexArray(r.vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, buffer)
	gl.VertexAttribPointerWithOffset(0, 2, gl.FLOAT, false, quads.VertexBytes, uintptr(offset))
	gl.VertexAttribPointerWithOffset(1, 2, gl.FLOAT, false, quads.VertexBytes, uintptr(offset+8))
	gl.VertexAttribPointerWithOffset(2, 4, gl.UNSIGNED_BYTE, true, quads.VertexBytes, uintptr(offset+16))
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	gl.ActiveTexture(gl.TEXTURE0)
	for _, run := range runs {
		gl.BindTexture(gl.TEXTURE_2D, run.Texture)
		gl.DrawElementsWithOffset(gl.TRIANGLES, int32(run.Count*6), gl.UNSIGNED_SHORT, uintptr(run.First*6*2))
		r.draws++
	}
	gl.BindVertexArray(0)
}

// Draws returns the draw calls issued so far.
func (r *Renderer) Draws() uint64 { return r.draws }

// Release deletes the GL objects. It is idempotent.
func (r *Renderer) Release() {
	if r.vao != 0 {
		gl.DeleteVertexArrays(1, &r.vao)
		r.vao = 0
	}
	if r.ibo != 0 {
		gl.DeleteBuffers(1, &r.ibo)
		r.ibo = 0
	}
	if r.program != 0 {
		gl.DeleteProgram(r.program)
		r.program = 0
	}
}
