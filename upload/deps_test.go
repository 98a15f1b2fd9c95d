package upload_test

import (
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// The core of upload must build without cgo: only upload/glbuf may reach
// go-gl or GLFW.
func TestCoreDoesNotImportGL(t *testing.T) {
	for _, d := range testenv.Deps(t, "github.com/steadyframe/steadyframe/upload", false) {
		if strings.Contains(d.Path, "go-gl") || strings.Contains(d.Path, "glfw") || d.Path == "runtime/cgo" ||
			strings.HasSuffix(d.Path, "internal/glctx") {
			t.Errorf("upload imports %s", d.Path)
		}
	}
}
