package glctx

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// ErrShader is returned by NewProgram and NewComputeProgram when a shader
// does not compile or a program does not link; the message holds the
// driver's log.
var ErrShader = errors.New("glctx: shader")

// NewProgram compiles and links a vertex and a fragment shader. The GL
// context must be current. The caller deletes the program with
// gl.DeleteProgram.
func NewProgram(vertex, fragment string) (uint32, error) {
	return link(stage{gl.VERTEX_SHADER, "vertex", vertex}, stage{gl.FRAGMENT_SHADER, "fragment", fragment})
}

// NewComputeProgram compiles and links one compute shader.
func NewComputeProgram(compute string) (uint32, error) {
	return link(stage{gl.COMPUTE_SHADER, "compute", compute})
}

type stage struct {
	kind uint32
	name string
	src  string
}

func link(stages ...stage) (uint32, error) {
	prog := gl.CreateProgram()
	var shaders []uint32
	defer func() {
		for _, s := range shaders {
			gl.DeleteShader(s)
		}
	}()
	for _, st := range stages {
		s, err := compile(st)
		if err != nil {
			gl.DeleteProgram(prog)
			return 0, err
		}
		shaders = append(shaders, s)
		gl.AttachShader(prog, s)
	}
	gl.LinkProgram(prog)
	var ok int32
	gl.GetProgramiv(prog, gl.LINK_STATUS, &ok)
	if ok == gl.FALSE {
		log := infoLog(prog, gl.GetProgramiv, gl.GetProgramInfoLog)
		gl.DeleteProgram(prog)
		return 0, fmt.Errorf("%w: link failed: %s", ErrShader, log)
	}
	return prog, nil
}

func compile(st stage) (uint32, error) {
	s := gl.CreateShader(st.kind)
	src, free := gl.Strs(st.src + "\x00")
	defer free()
	gl.ShaderSource(s, 1, src, nil)
	gl.CompileShader(s)
	var ok int32
	gl.GetShaderiv(s, gl.COMPILE_STATUS, &ok)
	if ok == gl.FALSE {
		log := infoLog(s, gl.GetShaderiv, gl.GetShaderInfoLog)
		gl.DeleteShader(s)
		return 0, fmt.Errorf("%w: %s shader: %s", ErrShader, st.name, log)
	}
	return s, nil
}

func infoLog(obj uint32, getiv func(uint32, uint32, *int32), getLog func(uint32, int32, *int32, *uint8)) string {
	var n int32
	getiv(obj, gl.INFO_LOG_LENGTH, &n)
	if n <= 1 {
		return "(no log)"
	}
	buf := make([]byte, n)
	getLog(obj, n, nil, &buf[0])
	return strings.TrimRight(string(buf), "\x00\n")
}
