package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-gl/gl/v4.5-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// openWindow makes the application's own window and OpenGL 4.5 core
// context with GLFW, makes the context current on this (the main) thread
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
	glfw.WindowHint(glfw.ContextVersionMajor, 4)
	glfw.WindowHint(glfw.ContextVersionMinor, 5)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	if hidden {
		glfw.WindowHint(glfw.Visible, glfw.False)
	}
	win, err = glfw.CreateWindow(640, 360, "steadyframe renderer", nil, nil)
	if err != nil {
		glfw.Terminate()
		return nil, fmt.Errorf("creating a GL 4.5 core window: %w", err)
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
// coordinates) from binding 0, which each frame points at that frame's
// region of the vertex arena.
type pipeline struct{ program, vao uint32 }

const vertexShader = `#version 450 core
layout(location = 0) in vec2 pos;
layout(location = 1) in vec2 uv;
out vec2 texUV;
void main() { texUV = uv; gl_Position = vec4(pos, 0.0, 1.0); }
`

// The sampler reads texture unit 0, which gltex.Manager.Bind fills before
// each quad's draw; the level's tint comes from the level buffer bound to
// uniform binding 0.
const fragmentShader = `#version 450 core
layout(binding = 0) uniform sampler2D tex;
layout(std140, binding = 0) uniform Level { vec4 tint; };
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
	gl.CreateVertexArrays(1, &p.vao)
	gl.VertexArrayAttribFormat(p.vao, 0, 2, gl.FLOAT, false, 0)
	gl.VertexArrayAttribFormat(p.vao, 1, 2, gl.FLOAT, false, 8)
	for attr := uint32(0); attr < 2; attr++ {
		gl.VertexArrayAttribBinding(p.vao, attr, 0)
		gl.EnableVertexArrayAttrib(p.vao, attr)
	}
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
