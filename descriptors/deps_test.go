package descriptors_test

import (
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// The slot table must build without cgo or any device package: only the
// gltex subpackage may reach OpenGL.
func TestSlotTableDoesNotImportGL(t *testing.T) {
	for _, d := range testenv.Deps(t, "github.com/steadyframe/steadyframe/descriptors", false) {
		if strings.Contains(d.Path, "go-gl") || strings.Contains(d.Path, "glfw") || d.Path == "runtime/cgo" ||
			strings.HasSuffix(d.Path, "internal/glctx") || strings.HasSuffix(d.Path, "/upload") {
			t.Errorf("descriptors imports %s", d.Path)
		}
	}
}
