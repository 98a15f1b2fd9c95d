package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// openWindow makes the application's own window and an OpenGL 3.3 core
// context or newer (drivers hand out their newest core version: 4.1 on
// macOS, 4.5 or 4.6 elsewhere) with GLFW, makes the context current on this (the main) thread
// and loads go-gl for the renderer's own GL calls. Nothing of steadyframe
// is involved: its GL packages run on whatever context is current when
// their constructors are called (loading go-gl for it themselves), and
// refuse with a glcaps error if there is none.
func openWindow(hidden bool) (win *glfw.Window, err error) {
	// go-gl/glfw's Init only logs a platform error (no X display) and
	// returns nil; the next GLFW call then panics. Turn that into an error.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("GLFW could not start (is there a display?): %v", r)
		}
	}()
	if err := glfw.Init(); err != nil {
		return nil, fmt.Errorf("glfw.Init: %w", err)
	}
	glfw.WindowHint(glfw.ContextVersionMajor, 3)
	glfw.WindowHint(glfw.ContextVersionMinor, 3)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	if hidden {
		glfw.WindowHint(glfw.Visible, glfw.False)
	}
	win, err = glfw.CreateWindow(640, 360, "steadyframe renderer", nil, nil)
	if err != nil {
		glfw.Terminate()
		return nil, fmt.Errorf("creating a GL 3.3+ core window: %w", err)
	}
	win.MakeContextCurrent()
	glfw.SwapInterval(1)
	if err := gl.Init(); err != nil {
		win.Destroy()
		glfw.Terminate()
		return nil, fmt.Errorf("gl.Init: %w", err)
	}
	return win, nil
}

// pipeline is the one shader program and vertex array every quad is drawn
// with. The vertex array reads 16-byte vertices (position, texture
// coordinates) from the vertex arena's buffer, which each frame points
// (glVertexAttribPointer) at that frame's region of it.
type pipeline struct{ program, vao uint32 }

// GLSL 3.30 (OpenGL 3.3 and up, macOS included): units and uniform
// block bindings are set from the program (glUniform1i,
// glUniformBlockBinding), since layout(binding) needs 4.20.
const vertexShader = `#version 330 core
layout(location = 0) in vec2 pos;
layout(location = 1) in vec2 uv;
out vec2 texUV;
void main() { texUV = uv; gl_Position = vec4(pos, 0.0, 1.0); }
`

// The sampler reads texture unit 0, which gltex.Manager.Bind fills before
// each quad's draw; the level's tint comes from the level buffer bound to
// uniform binding 0.
const fragmentShader = `#version 330 core
uniform sampler2D tex;
layout(std140) uniform Level { vec4 tint; };
in vec2 texUV;
out vec4 color;
void main() { color = texture(tex, texUV) * tint; }
`

func newPipeline() (pipeline, error) {
	vs, err := compile(gl.VERTEX_SHADER, vertexShader)
	if err != nil {
		return pipeline{}, err
	}
	defer gl.DeleteShader(vs)
	fs, err := compile(gl.FRAGMENT_SHADER, fragmentShader)
	if err != nil {
		return pipeline{}, err
	}
	defer gl.DeleteShader(fs)
	p := pipeline{program: gl.CreateProgram()}
	gl.AttachShader(p.program, vs)
	gl.AttachShader(p.program, fs)
	gl.LinkProgram(p.program)
	var ok int32
	if gl.GetProgramiv(p.program, gl.LINK_STATUS, &ok); ok == gl.FALSE {
		gl.DeleteProgram(p.program)
		return pipeline{}, errors.New("linking the quad shader failed")
	}
	gl.UseProgram(p.program)
	gl.Uniform1i(gl.GetUniformLocation(p.program, gl.Str("tex\x00")), 0)
	gl.UniformBlockBinding(p.program, gl.GetUniformBlockIndex(p.program, gl.Str("Level\x00")), 0)
	gl.UseProgram(0)
	gl.GenVertexArrays(1, &p.vao)
	gl.BindVertexArray(p.vao)
	for attr := uint32(0); attr < 2; attr++ {
		gl.EnableVertexAttribArray(attr)
	}
	gl.BindVertexArray(0)
	return p, nil
}

func compile(kind uint32, src string) (uint32, error) {
	sh := gl.CreateShader(kind)
	csrc, free := gl.Strs(src + "\x00")
	gl.ShaderSource(sh, 1, csrc, nil)
	free()
	gl.CompileShader(sh)
	var ok, n int32
	if gl.GetShaderiv(sh, gl.COMPILE_STATUS, &ok); ok == gl.FALSE {
		gl.GetShaderiv(sh, gl.INFO_LOG_LENGTH, &n)
		log := strings.Repeat("\x00", int(n)+1)
		gl.GetShaderInfoLog(sh, n, nil, gl.Str(log))
		gl.DeleteShader(sh)
		return 0, fmt.Errorf("compiling a shader: %s", strings.TrimRight(log, "\x00"))
	}
	return sh, nil
}

// delete deletes the program and the vertex array; the teardown runs it
// with the context still current, before the window goes.
func (p pipeline) delete() {
	gl.DeleteVertexArrays(1, &p.vao)
	gl.DeleteProgram(p.program)
}
