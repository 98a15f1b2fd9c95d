package pools

import (
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// TestDepsStandardLibraryOnly keeps pools the foundation everything else
// stands on: it imports the standard library only, its tests add only the
// standard-library test helper internal/testenv, and nothing in its import
// graph has cgo files, so it builds and tests with CGO_ENABLED=0 on any
// platform Go supports, with no GL, GLFW or oto.
func TestDepsStandardLibraryOnly(t *testing.T) {
	checkDeps(t, "github.com/steadyframe/steadyframe/pools")
}

// checkDeps fails the test when pkg, or its tests, depend on a package
// outside the standard library other than pkg itself and the test helper,
// or on a package with cgo files. It lists with CGO_ENABLED=0, the build
// it protects.
func checkDeps(t *testing.T, pkg string) {
	t.Helper()
	for _, d := range testenv.Deps(t, pkg, true, "CGO_ENABLED=0") {
		own := d.Path == pkg || d.Path == pkg+"_test" || d.Path == pkg+".test"
		if !d.Standard && !own && d.Path != testenvPath {
			t.Errorf("%s depends on %s; it must stay standard-library only", pkg, d.Path)
		}
		if d.Cgo {
			t.Errorf("%s depends on %s, which has cgo files", pkg, d.Path)
		}
	}
}

// testenvPath is the one module package pools' tests may import; its own
// imports are listed and checked like every other.
const testenvPath = "github.com/steadyframe/steadyframe/internal/testenv"
