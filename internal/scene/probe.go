package scene

import (
	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/steadyframe/steadyframe/upload/glbuf"
	"github.com/steadyframe/steadyframe/voices"
)

// PlayProbe starts the music clip looping, quietly and unprotected, at
// priority prio: a voice that never ends by itself, so whether it still
// plays later says whether it was stolen. The stress tool's voice-storm
// scenario uses it to check the engine's steal order. It allocates
// nothing; refusals are the engine's bare sentinels.
func (a *Audio) PlayProbe(prio int16) (voices.Handle, error) {
	return a.Engine.Play(a.clips[Effects], voices.PlayDesc{Volume: 0.01, Loop: true, Priority: prio})
}

// ReadUpload copies len(dst) bytes of the upload Set's buffer at off (an
// offset upload.Arena.Alloc returned) into dst, as the device sees them.
// In a window it reads what the GPU reads, with glGetBufferSubData on
// GL_COPY_READ_BUFFER (OpenGL 3.3 and newer). It reports false headless,
// where the CPU memory the caller wrote is all a device would read. It
// allocates nothing; dst must be preallocated and non-empty.
func (r *Render) ReadUpload(off int, dst []byte) bool {
	b, ok := r.Set.Backend().(*glbuf.Backend)
	if !ok || len(dst) == 0 {
		return false
	}
	gl.BindBuffer(gl.COPY_READ_BUFFER, b.Buffer())
	gl.GetBufferSubData(gl.COPY_READ_BUFFER, off, len(dst), gl.Ptr(&dst[0]))
	gl.BindBuffer(gl.COPY_READ_BUFFER, 0)
	return true
}
