package glcaps

import (
	"errors"
	"strings"
	"testing"
)

func TestParseVersion(t *testing.T) {
	for _, c := range []struct {
		in           string
		major, minor int
		ok           bool
	}{
		{"4.5 (Core Profile) Mesa 22.3.6", 4, 5, true},
		{"4.6.0 NVIDIA 535.54.03", 4, 6, true},
		{"3.2.0 - Build 10.18.10.5161", 3, 2, true},
		{"4.10", 4, 10, true},
		{"OpenGL ES 3.2 Mesa 22.3.6", 0, 0, false},
		{"", 0, 0, false},
		{"4", 0, 0, false},
		{"4.", 0, 0, false},
		{"x.5", 0, 0, false},
		{"99999999999999999999.1", 0, 0, false}, // no overflow: at most 4 digits are read
	} {
		major, minor, ok := parseVersion(c.in)
		if major != c.major || minor != c.minor || ok != c.ok {
			t.Errorf("parseVersion(%q) = %d, %d, %t; want %d, %d, %t", c.in, major, minor, ok, c.major, c.minor, c.ok)
		}
	}
}

func TestFeatureNamesAndVersions(t *testing.T) {
	for _, c := range []struct {
		f            Feature
		name         string
		major, minor int
	}{
		{FeatureSync, "GL_ARB_sync", 3, 2},
		{FeatureTextureStorage, "GL_ARB_texture_storage", 4, 2},
		{FeatureBufferStorage, "GL_ARB_buffer_storage", 4, 4},
		{FeatureDirectStateAccess, "GL_ARB_direct_state_access", 4, 5},
		{0, "Feature(0)", 0, 0},
		{99, "Feature(99)", 0, 0},
	} {
		major, minor := c.f.Core()
		if c.f.String() != c.name || major != c.major || minor != c.minor {
			t.Errorf("Feature %d: %q core %d.%d; want %q core %d.%d", uint8(c.f), c.f, major, minor, c.name, c.major, c.minor)
		}
	}
}

// No test process has a context current, so Check must refuse without
// calling go-gl (whose table no test here loads: a call would crash).
// It needs no display: the loader and glGetString answer without one.
func TestCheckWithoutAContext(t *testing.T) {
	err := Check(FeatureSync, FeatureDirectStateAccess)
	if !errors.Is(err, ErrNoContext) || !strings.Contains(err.Error(), "make the application's context current") {
		t.Fatalf("Check with no context = %v, want ErrNoContext saying what to do", err)
	}
	if err := Check(Feature(42)); !errors.Is(err, ErrMissingFeature) || !strings.Contains(err.Error(), "Feature(42)") {
		t.Fatalf("Check(Feature(42)) = %v, want ErrMissingFeature naming it", err)
	}
}

func TestProcAddressResolvesGL(t *testing.T) {
	for _, name := range []string{"glGetString", "glGetIntegerv", "glGetStringi", "glTextureSubImage2D"} {
		if ProcAddress(name) == nil {
			t.Errorf("ProcAddress(%q) = nil", name)
		}
	}
}

func TestErrorsAreDistinct(t *testing.T) {
	errs := []error{ErrNoContext, ErrNotLoaded, ErrMissingFeature}
	for i, a := range errs {
		if !strings.HasPrefix(a.Error(), "glcaps: ") {
			t.Errorf("%q lacks the package prefix", a)
		}
		for j, b := range errs {
			if i != j && errors.Is(a, b) {
				t.Errorf("%v matches %v", a, b)
			}
		}
	}
}
