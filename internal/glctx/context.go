package glctx

import (
	"errors"
	"fmt"
	"os"
	"runtime"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/steadyframe/steadyframe/glcaps"
)

// Sentinel errors returned by New. Check them with errors.Is.
var (
	// ErrNoDisplay is returned when GLFW cannot initialise or open a
	// window, which on Linux almost always means DISPLAY is unset (run
	// under xvfb-run).
	ErrNoDisplay = errors.New("glctx: no display")
	// ErrMissingFeature is returned when the context lacks OpenGL 4.5 core
	// or an extension steadyframe needs; the message names what is missing.
	ErrMissingFeature = errors.New("glctx: missing OpenGL feature")
	// ErrClosed is returned by MakeCurrent on a closed Context.
	ErrClosed = errors.New("glctx: closed")
)

// Bindless names the extension that would let shaders index textures by
// handle. steadyframe detects it and reports it in Info, and does not use
// it (no driver in CI has it, so no test could cover it).
const Bindless = "GL_ARB_bindless_texture"

// Desc configures New; it is a plain value, read once. The zero value
// makes a hidden 64×64 window, which is what tests and headless tools
// want.
type Desc struct {
	Width, Height int    // 0 means 64
	Title         string // "" means "steadyframe"
	Visible       bool   // show the window (the demo); false for tests
	Debug         bool   // request a debug context
}

// Info describes the context New made: a plain value, safe to hand to any
// goroutine.
type Info struct {
	Renderer, Vendor, Version, GLSL string
	Major, Minor                    int
	Extensions                      int  // number of extensions listed
	Bindless                        bool // GL_ARB_bindless_texture present (not used)
	// Alignments the upload arenas must honour, in bytes.
	MinMapBufferAlignment      int
	UniformBufferOffsetAlign   int
	StorageBufferOffsetAlign   int
	MaxCombinedTextureUnits    int
	MaxFragmentTextureUnits    int
	MaxArrayTextureLayers      int
	MaxShaderStorageBlockBytes int
}

// String is a one-line summary for logs and test output.
func (i Info) String() string {
	return fmt.Sprintf("%s | %s | GL %d.%d | %d extensions | bindless %t | map align %d, UBO align %d, SSBO align %d",
		i.Renderer, i.Version, i.Major, i.Minor, i.Extensions, i.Bindless,
		i.MinMapBufferAlignment, i.UniformBufferOffsetAlign, i.StorageBufferOffsetAlign)
}

// Context is a GLFW window with a current OpenGL 4.5 core context.
//
// A Context belongs to the goroutine that called New, which must stay
// locked to its OS thread; no method is safe for concurrent use.
type Context struct {
	win    *glfw.Window
	info   Info
	exts   map[string]bool
	closed bool
}

// live counts open Contexts so GLFW is terminated with the last one.
var live int

// New initialises GLFW, creates a window with an OpenGL 4.5 core context,
// makes it current on the calling thread and loads GL. The caller must be
// on the main OS thread (see the package doc). It returns ErrNoDisplay when
// there is no display and ErrMissingFeature when the driver is too old.
func New(d Desc) (*Context, error) {
	if d.Width <= 0 {
		d.Width = 64
	}
	if d.Height <= 0 {
		d.Height = 64
	}
	if d.Title == "" {
		d.Title = "steadyframe"
	}
	if err := initGLFW(); err != nil {
		return nil, err
	}
	live++
	// A 3.3 core request gets the newest core context the driver has
	// (4.5 on Mesa llvmpipe, 4.1 on macOS, 4.1 or 3.3 under
	// MESA_GL_VERSION_OVERRIDE); the backends pick their path from it.
	glfw.WindowHint(glfw.ContextVersionMajor, 3)
	glfw.WindowHint(glfw.ContextVersionMinor, 3)
	glfw.WindowHint(glfw.OpenGLProfile, glfw.OpenGLCoreProfile)
	glfw.WindowHint(glfw.OpenGLForwardCompatible, glfw.True)
	glfw.WindowHint(glfw.Visible, boolHint(d.Visible))
	glfw.WindowHint(glfw.OpenGLDebugContext, boolHint(d.Debug))
	win, err := glfw.CreateWindow(d.Width, d.Height, d.Title, nil, nil)
	if err != nil {
		release()
		return nil, fmt.Errorf("%w: creating a GL 3.3+ core window: %v", ErrNoDisplay, err)
	}
	win.MakeContextCurrent()
	c := &Context{win: win, exts: make(map[string]bool)}
	// The same check the GL backends make in their constructors, so a
	// context that New hands out is one they accept. It loads the
	// v3.3-core table the backends call; the helpers and tests call
	// v4.1-core, the newest binding whose gl.Init succeeds on macOS, and
	// load it as an application does. Its 4.2+ functions load where the
	// context has them and stay nil elsewhere.
	if err := glcaps.Check(glcaps.FeatureSync); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("%w: %w", ErrMissingFeature, err)
	}
	if err := gl.Init(); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("%w: gl.Init from go-gl's v4.1-core: %v", ErrMissingFeature, err)
	}
	c.query()
	return c, nil
}

// initGLFW initialises GLFW and proves it worked. glfw.Init reports a
// platform error (no X display) only by logging it and returning nil; the
// next call then panics with NotInitialized. So initGLFW checks for a
// display first, for a clear message, and turns that panic into an error.
func initGLFW() (err error) {
	if runtime.GOOS == "linux" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return fmt.Errorf("%w: DISPLAY is unset (run GL tests under xvfb-run)", ErrNoDisplay)
	}
	if err := glfw.Init(); err != nil {
		return fmt.Errorf("%w: glfw.Init: %v", ErrNoDisplay, err)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: glfw.Init failed: %v", ErrNoDisplay, r)
		}
	}()
	glfw.DefaultWindowHints()
	return nil
}

func boolHint(b bool) int {
	if b {
		return glfw.True
	}
	return glfw.False
}

func release() {
	live--
	if live == 0 {
		glfw.Terminate()
	}
}

func (c *Context) query() {
	str := func(name uint32) string { return gl.GoStr(gl.GetString(name)) }
	geti := func(name uint32) int {
		var v int32
		gl.GetIntegerv(name, &v)
		return int(v)
	}
	c.info = Info{
		Renderer: str(gl.RENDERER), Vendor: str(gl.VENDOR), Version: str(gl.VERSION),
		GLSL:  str(gl.SHADING_LANGUAGE_VERSION),
		Major: geti(gl.MAJOR_VERSION), Minor: geti(gl.MINOR_VERSION),
		MinMapBufferAlignment:      geti(gl.MIN_MAP_BUFFER_ALIGNMENT),
		UniformBufferOffsetAlign:   geti(gl.UNIFORM_BUFFER_OFFSET_ALIGNMENT),
		StorageBufferOffsetAlign:   geti(gl.SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT),
		MaxCombinedTextureUnits:    geti(gl.MAX_COMBINED_TEXTURE_IMAGE_UNITS),
		MaxFragmentTextureUnits:    geti(gl.MAX_TEXTURE_IMAGE_UNITS),
		MaxArrayTextureLayers:      geti(gl.MAX_ARRAY_TEXTURE_LAYERS),
		MaxShaderStorageBlockBytes: geti(gl.MAX_SHADER_STORAGE_BLOCK_SIZE),
	}
	n := geti(gl.NUM_EXTENSIONS)
	for i := 0; i < n; i++ {
		c.exts[gl.GoStr(gl.GetStringi(gl.EXTENSIONS, uint32(i)))] = true
	}
	c.info.Extensions = n
	c.info.Bindless = c.exts[Bindless]
	// A 4.1 or 3.3 context refuses the 4.2 and 4.3 queries (their
	// fields stay 0) with GL_INVALID_ENUM: leave no error behind.
	glcaps.ClearErrors()
}

// Info returns what the driver reported at creation.
func (c *Context) Info() Info { return c.info }

// HasExtension reports whether the driver lists the named extension.
func (c *Context) HasExtension(name string) bool { return c.exts[name] }

// Window returns the GLFW window, for swapping buffers and polling events.
// It is valid until Close.
func (c *Context) Window() *glfw.Window { return c.win }

// MakeCurrent makes the context current on the calling thread, after
// another Context was current or after a Close detached it.
func (c *Context) MakeCurrent() error {
	if c.closed {
		return fmt.Errorf("%w: MakeCurrent on a closed context", ErrClosed)
	}
	c.win.MakeContextCurrent()
	return nil
}

// Close destroys the window and its context and, with the last open
// Context, terminates GLFW. Close fences and GL objects first. Close
// leaves no context current: call MakeCurrent on another Context to go on
// with it. Close is idempotent.
func (c *Context) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	glfw.DetachCurrentContext()
	c.win.Destroy()
	release()
	return nil
}
