package deps

import (
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// The GL packages call go-gl's v3.3-core package and nothing newer: its
// gl.Init needs only OpenGL 3.3 core functions, so they load on macOS's
// 4.1, and an application binding v4.1-core or v4.5-core loads its own
// table beside theirs. A newer binding's gl.Init fails on a 4.1 context
// (go-gl/gl#87): importing one would stop the library loading on a Mac.
func TestGLPackagesBindGoGL33(t *testing.T) {
	const want = "github.com/go-gl/gl/v3.3-core/gl"
	for _, pkg := range []string{"glcaps", "lifetime/glfence", "upload/glbuf", "descriptors/gltex", "descriptors/glarray"} {
		found := false
		for _, d := range testenv.Deps(t, module+"/"+pkg, false) {
			switch {
			case d.Path == want:
				found = true
			case strings.HasPrefix(d.Path, "github.com/go-gl/gl/"):
				t.Errorf("%s depends on %s; the GL packages bind %s only", pkg, d.Path, want)
			}
		}
		if !found {
			t.Errorf("%s does not depend on %s: the check is not looking at it", pkg, want)
		}
	}
}
