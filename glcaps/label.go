package glcaps

import (
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// HasDebugLabels reports whether the current context can label GL
// objects for GL debuggers (glObjectLabel): KHR_debug, core in 4.3, or
// listed as GL_KHR_debug. It queries the driver: call it when setting up
// and keep the answer.
func HasDebugLabels() bool {
	var major, minor, n int32
	gl.GetIntegerv(gl.MAJOR_VERSION, &major)
	gl.GetIntegerv(gl.MINOR_VERSION, &minor)
	if major > 4 || major == 4 && minor >= 3 {
		return true
	}
	gl.GetIntegerv(gl.NUM_EXTENSIONS, &n)
	for i := range uint32(n) {
		if gl.GoStr(gl.GetStringi(gl.EXTENSIONS, i)) == "GL_KHR_debug" {
			return true
		}
	}
	return false
}

// Label gives GL object name of kind identifier (gl.TEXTURE, gl.BUFFER,
// ...) the label s with glObjectLabel, on a context HasDebugLabels
// accepted. The driver copies the string; Label passes its bytes with
// their length and allocates nothing, so it may run in steady frames. An
// empty s removes the label.
func Label(identifier, name uint32, s string) {
	if s == "" {
		gl.ObjectLabel(identifier, name, 0, nil)
		return
	}
	gl.ObjectLabel(identifier, name, int32(len(s)), unsafe.StringData(s))
}
