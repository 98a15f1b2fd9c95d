package glctx_test

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
)

// GLFW must run on the main OS thread: lock the main goroutine to it here
// and serve GL calls from it in TestMain.
func init() { runtime.LockOSThread() }

func TestMain(m *testing.M) { os.Exit(gltest.ServeMain(m.Run)) }

func TestContextReportsDriver(t *testing.T) {
	c := gltest.Context(t)
	info := c.Info()
	t.Logf("context: %v", info)
	if info.Renderer == "" || info.Version == "" {
		t.Errorf("empty renderer %q or version %q", info.Renderer, info.Version)
	}
	if info.Major < 3 || (info.Major == 3 && info.Minor < 3) {
		t.Errorf("got GL %d.%d, want at least 3.3 core", info.Major, info.Minor)
	}
	// The map and storage alignments are 4.2 and 4.3 queries.
	if info.UniformBufferOffsetAlign < 1 || info.Major == 4 && info.Minor >= 3 && (info.MinMapBufferAlignment < 1 || info.StorageBufferOffsetAlign < 1) {
		t.Errorf("alignments not reported: %+v", info)
	}
	if info.Bindless != c.HasExtension(glctx.Bindless) {
		t.Errorf("Info.Bindless %t disagrees with HasExtension", info.Bindless)
	}
	if info.Extensions == 0 {
		t.Error("no extensions listed")
	}
	for _, f := range []glcaps.Feature{glcaps.FeatureSync, glcaps.FeatureBufferStorage, glcaps.FeatureDirectStateAccess} {
		t.Logf("%v listed: %t (Has: %t)", f, c.HasExtension(f.String()), glcaps.Has(f))
	}
}

func TestErrorsAreDistinct(t *testing.T) {
	errs := []error{glctx.ErrNoDisplay, glctx.ErrMissingFeature, glctx.ErrClosed, glctx.ErrShader}
	for i, a := range errs {
		if !strings.HasPrefix(a.Error(), "glctx: ") {
			t.Errorf("%q lacks the package prefix", a)
		}
		for j, b := range errs {
			if i != j && errors.Is(a, b) {
				t.Errorf("%v matches %v", a, b)
			}
		}
	}
}

func TestProgramErrorsCarryTheDriverLog(t *testing.T) {
	gltest.Run(t, func(c *glctx.Context) error {
		_, err := glctx.NewComputeProgram("#version 450 core\nvoid main() { undefined_call(); }")
		if !errors.Is(err, glctx.ErrShader) || !strings.Contains(err.Error(), "compute shader") {
			t.Errorf("bad compute shader: %v, want ErrShader naming the stage", err)
		}
		// Compute shaders are 4.3: elsewhere (macOS's 4.1) the refusal
		// above is all there is to check.
		if info := c.Info(); info.Major == 4 && info.Minor < 3 || info.Major < 4 {
			t.Logf("no compute shaders on GL %d.%d: only the refusal checked", info.Major, info.Minor)
			glcaps.ClearErrors() // glCreateShader's GL_INVALID_ENUM
			return nil
		}
		prog, err := glctx.NewComputeProgram("#version 450 core\nlayout(local_size_x = 1) in;\nvoid main() {}")
		if err != nil {
			return err
		}
		gl.DeleteProgram(prog)
		return nil
	})
}

// A second context can come and go without terminating GLFW under the
// first, which becomes current again.
func TestSecondContextCloses(t *testing.T) {
	gltest.Run(t, func(shared *glctx.Context) error {
		c, err := glctx.New(glctx.Desc{Width: 32, Height: 16, Title: "second"})
		if err != nil {
			return err
		}
		if c.Info().Renderer != shared.Info().Renderer {
			t.Errorf("second context on %q, first on %q", c.Info().Renderer, shared.Info().Renderer)
		}
		if err := c.Close(); err != nil {
			return err
		}
		if err := c.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
		if err := c.MakeCurrent(); !errors.Is(err, glctx.ErrClosed) {
			t.Errorf("MakeCurrent after Close: %v, want ErrClosed", err)
		}
		if err := shared.MakeCurrent(); err != nil {
			return err
		}
		gl.Clear(gl.COLOR_BUFFER_BIT)
		if e := gl.GetError(); e != gl.NO_ERROR {
			t.Errorf("GL error 0x%x on the first context after the second closed", e)
		}
		return nil
	})
}
