package glarray_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/gltest"
)

// The capacity limits doc.go quotes are the context's: OpenGL 3.3's
// minimum GL_MAX_ARRAY_TEXTURE_LAYERS (4.5's is the same), and on
// llvmpipe (CI's driver) its own value, and the GLSL the doc shows
// compiles as GLSL 3.30.
func TestDocMatchesTheContext(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	// The prose with its comment markers and line breaks gone.
	prose := strings.Join(strings.Fields(strings.ReplaceAll(doc, "\n//", " ")), " ")
	gltest.Run(t, func(*glctx.Context) error {
		var layers int32
		gl.GetIntegerv(gl.MAX_ARRAY_TEXTURE_LAYERS, &layers)
		if layers < 256 || !strings.Contains(prose, "at least 256 in OpenGL 3.3") {
			t.Errorf("GL_MAX_ARRAY_TEXTURE_LAYERS %d; the doc's minimum is not 256", layers)
		}
		if renderer := gl.GoStr(gl.GetString(gl.RENDERER)); strings.Contains(renderer, "llvmpipe") {
			if want := fmt.Sprintf("%d on llvmpipe", layers); !strings.Contains(prose, want) {
				t.Errorf("%s offers %d layers; doc.go does not say %q", renderer, layers, want)
			}
		}
		// The doc's fragment shader, as written, with the version line.
		var body []string
		in := false
		for _, line := range strings.Split(doc, "\n") {
			switch {
			case strings.HasPrefix(line, "//\tuniform sampler2DArray"):
				in = true
			case in && !strings.HasPrefix(line, "//\t"):
				in = false
			}
			if in {
				code, _, _ := strings.Cut(strings.TrimPrefix(line, "//\t"), "//")
				body = append(body, code)
			}
		}
		frag := "#version 330 core\n" + strings.Join(body, "\n")
		if len(body) != 5 {
			t.Fatalf("found %d lines of GLSL in doc.go:\n%s", len(body), frag)
		}
		vert := "#version 330 core\nflat out uint layer;\nout vec2 uv;\nvoid main() { layer = 0u; uv = vec2(0.0); gl_Position = vec4(0.0); }"
		prog, err := glctx.NewProgram(vert, frag)
		if err != nil {
			t.Errorf("doc.go's shader: %v\n%s", err, frag)
			return nil
		}
		gl.DeleteProgram(prog)
		return nil
	})
}
