package glcaps

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// Sentinel errors returned by Check. Check them with errors.Is; the
// returned values say what was found and what to do.
var (
	// ErrNoContext is returned when no OpenGL context is current on the
	// calling thread (glGetString(GL_VERSION) returns NULL), or when the
	// platform's GL library has no glGetString at all.
	ErrNoContext = errors.New("glcaps: no current OpenGL context")
	// ErrNotLoaded is returned when a context is current but go-gl's
	// v3.3-core function table, the one the backends call, cannot be
	// loaded for it: gl.Init, which Check runs, found an OpenGL 3.3 core
	// function missing (the message names it).
	ErrNotLoaded = errors.New("glcaps: go-gl's v3.3-core functions not loaded")
	// ErrMissingFeature is returned when the context lacks a Feature: its
	// version is below the one that made the feature core and it does not
	// list the feature's extension. The message names every missing one.
	ErrMissingFeature = errors.New("glcaps: missing OpenGL feature")
)

// Feature is a part of OpenGL a backend relies on: core from some
// version on, and available before it through an ARB extension. It is a
// plain value.
type Feature uint8

// Features the backends check for.
const (
	// FeatureSync is fence sync objects (glFenceSync, glClientWaitSync):
	// core in 3.2, GL_ARB_sync. lifetime/glfence needs it.
	FeatureSync Feature = iota + 1
	// FeatureTextureStorage is immutable texture storage
	// (glTexStorage2D): core in 4.2, GL_ARB_texture_storage. gltex needs
	// it.
	FeatureTextureStorage
	// FeatureBufferStorage is immutable, persistently mappable buffer
	// storage (glBufferStorage): core in 4.4, GL_ARB_buffer_storage.
	// glbuf needs it.
	FeatureBufferStorage
	// FeatureDirectStateAccess is the DSA entry points (glCreateBuffers,
	// glNamedBufferStorage, glCreateTextures, glTextureSubImage2D, ...):
	// core in 4.5, GL_ARB_direct_state_access. glbuf and gltex need it.
	FeatureDirectStateAccess
)

var features = [...]struct {
	ext          string
	major, minor int
}{
	FeatureSync:              {"GL_ARB_sync", 3, 2},
	FeatureTextureStorage:    {"GL_ARB_texture_storage", 4, 2},
	FeatureBufferStorage:     {"GL_ARB_buffer_storage", 4, 4},
	FeatureDirectStateAccess: {"GL_ARB_direct_state_access", 4, 5},
}

func (f Feature) valid() bool { return f > 0 && int(f) < len(features) }

// String returns the feature's extension name, such as "GL_ARB_sync".
func (f Feature) String() string {
	if !f.valid() {
		return fmt.Sprintf("Feature(%d)", uint8(f))
	}
	return features[f].ext
}

// Core returns the OpenGL version that made the feature core, or 0, 0
// for a value that is not a Feature.
func (f Feature) Core() (major, minor int) {
	if !f.valid() {
		return 0, 0
	}
	return features[f].major, features[f].minor
}

// Check makes sure the context current on the calling thread can run
// code that needs the given features through go-gl. It checks, in order:
//
//   - that a context is current (ErrNoContext);
//   - that gl.Init loads go-gl's function table for it (ErrNotLoaded when
//     that fails);
//   - that the context's version or extensions provide every feature
//     (ErrMissingFeature, naming all the missing ones at once).
//
// Until gl.Init has run, every go-gl wrapper calls through a nil pointer
// and kills the process with SIGSEGV. So Check calls GL only through
// entry points it resolves itself before that. It is safe without a
// context and before the application's own gl.Init. Running gl.Init again
// when the application already did loads the same addresses for the same
// context.
//
// Check allocates and queries the driver: call it when setting up, as
// the backends' constructors do, not per frame.
func Check(need ...Feature) error {
	for _, f := range need {
		if !f.valid() {
			return fmt.Errorf("%w: %v is not a feature this package knows", ErrMissingFeature, f)
		}
	}
	getString := ProcAddress("glGetString")
	if getString == nil {
		return fmt.Errorf("%w: the platform's GL loader has no glGetString (is an OpenGL library installed?)", ErrNoContext)
	}
	version := callGetString(getString, glVersion)
	if version == "" {
		return fmt.Errorf("%w: glGetString(GL_VERSION) returned NULL; make the application's context current on this thread first", ErrNoContext)
	}
	// The backends call go-gl's wrappers: load its table for this
	// context, as the application's own gl.Init does, rather than make
	// every user remember to.
	if err := gl.Init(); err != nil {
		return fmt.Errorf("%w: gl.Init from github.com/go-gl/gl/v3.3-core/gl on %q: %v", ErrNotLoaded, version, err)
	}
	major, minor, ok := parseVersion(version)
	if !ok {
		return fmt.Errorf("%w: desktop OpenGL (the context reports version %q)", ErrMissingFeature, version)
	}
	var exts map[string]bool // read only when the version falls short
	var missing []string
	for _, f := range need {
		if !provides(f, major, minor, &exts, getString) {
			fmaj, fmin := f.Core()
			missing = append(missing, fmt.Sprintf("%v (core in %d.%d)", f, fmaj, fmin))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: %s; the context is OpenGL %s on %s", ErrMissingFeature,
			strings.Join(missing, ", "), version, callGetString(getString, glRenderer))
	}
	return nil
}

// parseVersion reads the "major.minor" that starts a desktop GL_VERSION
// string ("4.5 (Core Profile) Mesa 22.3.6", "4.6.0 NVIDIA 535.54.03").
// OpenGL ES reports "OpenGL ES 3.2 ...", which go-gl's desktop tables do
// not serve, so it does not parse.
func parseVersion(s string) (major, minor int, ok bool) {
	num := func(s string) (int, string, bool) {
		n, i := 0, 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9' && i < 4; i++ {
			n = n*10 + int(s[i]-'0')
		}
		return n, s[i:], i > 0
	}
	major, rest, ok := num(s)
	if !ok || !strings.HasPrefix(rest, ".") {
		return 0, 0, false
	}
	minor, _, ok = num(rest[1:])
	if !ok {
		return 0, 0, false
	}
	return major, minor, true
}

// extensions lists the context's extensions the GL 3.0 way, one
// glGetStringi each; before 3.0 it reads the single space-separated
// string (through getString, Check's glGetString), which core profiles
// no longer have.
func extensions(getString unsafe.Pointer, major int) map[string]bool {
	exts := map[string]bool{}
	if major < 3 {
		for _, e := range strings.Fields(callGetString(getString, glExtensions)) {
			exts[e] = true
		}
		return exts
	}
	getInteger, getStringi := ProcAddress("glGetIntegerv"), ProcAddress("glGetStringi")
	if getInteger == nil || getStringi == nil {
		return exts
	}
	n := callGetInteger(getInteger, glNumExtensions)
	for i := 0; i < n; i++ {
		exts[callGetStringi(getStringi, glExtensions, uint32(i))] = true
	}
	return exts
}

// ClearErrors discards the errors earlier GL code left queued, so that a
// caller's glGetError after its own calls sees only its own errors. The
// bound keeps a lost context, which may report an error on every call,
// from spinning here for ever. It calls go-gl: Check must have passed on
// the current context.
func ClearErrors() {
	for i := 0; i < 64 && gl.GetError() != gl.NO_ERROR; i++ {
	}
}
