package gltex_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/go-gl/gl/v4.1-core/gl"
	gl45 "github.com/go-gl/gl/v4.5-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/glcaps"
	"github.com/steadyframe/steadyframe/internal/gltest"
	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/glfence"
	"github.com/steadyframe/steadyframe/upload/glbuf"
)

// ownContextEnv makes the test binary run ownContext instead of its
// tests (see TestMain): a process that, like a user's program, makes its
// own window and context and never calls internal/glctx, which used to
// load a function pointer gltex needed.
const ownContextEnv = "STEADYFRAME_GLTEX_OWN_CONTEXT"

// TestOwnContext runs the GL backends in a process of their own on a
// context made the way a user makes one, with glfw directly, by a program
// that binds go-gl's v4.5-core package and calls its gl.Init itself only
// after the backends have refused: they load what they call themselves
// (v3.3-core, whatever the application binds). It is the regression test for the first staged Create dying with SIGSEGV
// at PC=0 there, because gltex's offset upload called through a function
// pointer only internal/glctx loaded. The work runs in a child process so
// that a crash fails this test with the child's output instead of killing
// the test binary, and so that nothing in the process has made a context
// or loaded go-gl before the user's code does.
func TestOwnContext(t *testing.T) {
	out := runOwnContext(t, "full")
	for _, want := range []string{
		"gltex: glcaps: no current OpenGL context", "glbuf: glcaps: no current OpenGL context",
		"glfence: glcaps: no current OpenGL context", "own context: ok: 4.", // a 4.5 or newer context, as requested
		"upload persistent, textures by DSA",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the child's report lacks %q", want)
		}
	}
	t.Logf("child:\n%s", out)
}

// TestOwnContextMacOS runs the same program, binding go-gl's v4.1-core
// package as a macOS program must, on a context like macOS's: Mesa
// reports OpenGL 4.1 core and hides the 4.2+ extensions the backends
// could use (MacOSEnv). The backends take their 4.1 paths: per-frame
// glMapBufferRange uploads, textures bound to edit.
func TestOwnContextMacOS(t *testing.T) {
	out := runOwnContext(t, "macos", gltest.MacOSEnv...)
	if strings.Contains(out, "own context: not Mesa") {
		testenv.SkipOrFail(t, "the GL driver is not Mesa, which alone can hide an extension: "+out)
	}
	for _, want := range []string{
		"gltex: glcaps: no current OpenGL context", "glbuf: glcaps: no current OpenGL context",
		"own context: ok: 4.1 (Core Profile) Mesa", "upload map-range, textures bound to edit",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the child's report lacks %q", want)
		}
	}
	t.Logf("child:\n%s", out)
}

// runOwnContext runs this test binary as a child in the given mode, with
// extra environment, and returns its output; a failed child fails t.
func runOwnContext(t *testing.T, mode string, env ...string) string {
	t.Helper()
	if os.Getenv("DISPLAY") == "" {
		testenv.SkipOrFail(t, "no X display (set DISPLAY, e.g. to an Xvfb server)")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	// The child's context is what env makes it, whatever overrides this
	// process runs under (scripts/ci-platforms.sh runs it under them).
	var base []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MESA_") {
			base = append(base, kv)
		}
	}
	cmd.Env = append(append(base, ownContextEnv+"="+mode), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("a program on its own GL context (%s) failed: %v\n%s", mode, err, out)
	}
	return string(out)
}

// ownContextMain is the child's main, on the main OS thread (locked in
// this package's init), as GLFW requires.
func ownContextMain(mode string) int {
	if err := ownContext(mode); err != nil {
		fmt.Println("own context:", err)
		return 1
	}
	return 0
}

// ownContext does what a user's program does, in order, and checks on
// the way that each backend refuses when no context is current instead
// of calling GL through a nil pointer. It never calls gl.Init itself: the
// backends load what they need on the context the program made.
func ownContext(mode string) error {
	if err := glfw.Init(); err != nil {
		return fmt.Errorf("glfw.Init: %w", err)
	}
	defer glfw.Terminate()
	minor := 5
	if mode == "macos" {
		minor = 1 // what a macOS program asks for: the newest it can get
	}
	glfw.WindowHint(glfw.ContextVersionMajor, 4)
	glfw.WindowHint(glfw.ContextVersionMinor, minor)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	glfw.WindowHint(glfw.Visible, glfw.False)
	win, err := glfw.CreateWindow(64, 64, "own context", nil, nil)
	if err != nil {
		return fmt.Errorf("glfw.CreateWindow: %w", err)
	}
	defer win.Destroy()
	if err := refusals(glcaps.ErrNoContext); err != nil {
		return fmt.Errorf("before MakeContextCurrent: %w", err)
	}
	win.MakeContextCurrent()
	// The backends load their own table; the program loads the binding
	// it calls, as any go-gl program does. readBack, shared with the
	// other tests, calls v4.1-core, so this program loads that too.
	if mode == "full" {
		if err := gl45.Init(); err != nil {
			return fmt.Errorf("gl.Init (v4.5-core): %w", err)
		}
	}
	if err := gl.Init(); err != nil {
		return fmt.Errorf("gl.Init (v4.1-core): %w", err)
	}
	if mode == "macos" && !strings.Contains(gl.GoStr(gl.GetString(gl.VERSION)), "Mesa") {
		fmt.Println("own context: not Mesa:", gl.GoStr(gl.GetString(gl.VERSION)))
		return nil
	}
	return driveBackends()
}

// refusals checks that every backend constructor refuses with want, each
// with its own package prefix, and prints the errors a user would see.
func refusals(want error) error {
	_, texErr := gltex.New(gltex.Desc{})
	_, bufErr := glbuf.New()
	_, fenceErr := glfence.New()
	var errs []error
	for _, e := range []struct {
		prefix string
		err    error
	}{{"gltex: ", texErr}, {"glbuf: ", bufErr}, {"glfence: ", fenceErr}} {
		fmt.Println("refused:", e.err)
		if !errors.Is(e.err, want) || !strings.HasPrefix(e.err.Error(), e.prefix) {
			errs = append(errs, fmt.Errorf("got %v, want %v prefixed %q", e.err, want, e.prefix))
		}
	}
	return errors.Join(errs...)
}

// driveBackends is a renderer's life in short, wired as the package's
// other tests wire it (newRendererWith): a clock fenced with GL sync
// objects, an upload Set on a GL buffer whose arena stages texture
// uploads, textures created through it, read back and compared, churned
// over frames, then the teardown in order.
func driveBackends() error {
	r, err := newRendererWith(true, descriptors.HeapDesc{Capacity: 64}, frame.ClockDesc{NewFence: glfence.New})
	if err != nil {
		return err
	}
	tex := r.tex
	type live struct {
		h      descriptors.Handle
		pixels []byte
	}
	var textures []live
	mismatches := 0
	for f := 0; f < 12; f++ {
		if err := r.begin(); err != nil {
			return err
		}
		// Free the oldest texture every frame after the third, so slots
		// are reclaimed through the GL fences while new ones are staged.
		if f >= 3 {
			if err := tex.Free(textures[0].h); err != nil {
				return err
			}
			textures = textures[1:]
		}
		w, h := 5+f, 3+f%4 // odd widths: rows are not 4-byte aligned
		pixels := make([]byte, w*h*4)
		for i := range pixels {
			pixels[i] = byte(i*7 + f*31)
		}
		hd, err := tex.Create(w, h, gltex.FormatRGBA8, pixels)
		if err != nil {
			return fmt.Errorf("frame %d: Create: %w", f, err)
		}
		textures = append(textures, live{hd, pixels})
		for _, l := range textures {
			name, err := tex.Texture(l.h)
			if err != nil || !bytes.Equal(readBack(name, gl.RGBA, len(l.pixels)), l.pixels) {
				mismatches++
			}
		}
		if err := r.end(); err != nil {
			return err
		}
	}
	st := tex.Stats()
	for _, l := range textures {
		if err := tex.Free(l.h); err != nil {
			return err
		}
	}
	if err := r.drain(); err != nil {
		return err
	}
	var errs []error
	if mismatches != 0 {
		errs = append(errs, fmt.Errorf("%d texture read-backs differ from the pixels uploaded", mismatches))
	}
	if st.Staged != 12 || st.Direct != 0 {
		errs = append(errs, fmt.Errorf("%d uploads staged and %d direct, want all 12 staged", st.Staged, st.Direct))
	}
	if e := gl.GetError(); e != gl.NO_ERROR {
		errs = append(errs, fmt.Errorf("GL error 0x%x", e))
	}
	if err := r.close(); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	how := "textures bound to edit"
	if tex.DirectStateAccess() {
		how = "textures by DSA"
	}
	fmt.Printf("own context: ok: %s; upload %v, %s; 12 textures staged, %d deleted, 0 mismatches\n",
		gl.GoStr(gl.GetString(gl.VERSION)), r.set.Backend().(*glbuf.Backend).Mode(), how, tex.Stats().Deleted)
	return nil
}
