package glbuf

import (
	"fmt"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/steadyframe/steadyframe/glcaps"
	"github.com/steadyframe/steadyframe/upload"
)

// Mode is how a Backend gets the CPU's writes to the GPU: a plain value.
type Mode uint8

// The modes New picks from, in order of preference.
const (
	// ModePersistent maps the whole buffer once, persistent and coherent
	// (glNamedBufferStorage, glMapNamedBufferRange): views are GL memory
	// and Flush does nothing. It needs OpenGL 4.5, or
	// GL_ARB_buffer_storage and GL_ARB_direct_state_access.
	ModePersistent Mode = iota + 1
	// ModeMapRange is for OpenGL 3.3 to 4.4 without those extensions
	// (macOS stops at 4.1). Views are a CPU copy of the buffer. Each
	// Flush maps just the range written since the last one with
	// glMapBufferRange(WRITE | UNSYNCHRONIZED | INVALIDATE_RANGE), copies
	// it in and unmaps. Unsynchronized is safe for the reason the
	// persistent mapping is: the range lies in the open frame's region,
	// whose previous frame the clock's BeginFrame waited for, and no
	// command of this frame reads it yet.
	ModeMapRange
)

// String returns "persistent" or "map-range".
func (m Mode) String() string {
	switch m {
	case ModePersistent:
		return "persistent"
	case ModeMapRange:
		return "map-range"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// pickMode chooses the mode for the current context, which Check passed.
func pickMode() Mode {
	if glcaps.Has(glcaps.FeatureBufferStorage) && glcaps.Has(glcaps.FeatureDirectStateAccess) {
		return ModePersistent
	}
	return ModeMapRange
}

// NewWithMode is New with the mode chosen by the caller instead of by
// the context. ModeMapRange runs wherever New does, which lets a test or
// a benchmark compare both modes on one context. ModePersistent on a
// context without its features returns an error matching
// glcaps.ErrMissingFeature that names them; a value that is not a Mode
// returns upload.ErrInvalidConfig.
func NewWithMode(m Mode) (*Backend, error) {
	var need []glcaps.Feature
	switch m {
	case ModePersistent:
		need = []glcaps.Feature{glcaps.FeatureBufferStorage, glcaps.FeatureDirectStateAccess}
	case ModeMapRange:
	default:
		return nil, fmt.Errorf("%w: glbuf mode %v", upload.ErrInvalidConfig, m)
	}
	if err := glcaps.Check(need...); err != nil {
		return nil, fmt.Errorf("glbuf: %w", err)
	}
	return newBackend(m), nil
}

// Mode returns the mode the backend runs in.
func (b *Backend) Mode() Mode { return b.mode }

var _ upload.Flusher = (*Backend)(nil)

// mapRange is Map in ModeMapRange: a mutable buffer of size bytes and
// the CPU copy the views point into.
func (b *Backend) mapRange(size int) ([]byte, error) {
	if size < 1 {
		// glBufferData accepts 0 bytes; the persistent mode's storage
		// does not, and both modes refuse alike.
		return nil, fmt.Errorf("%w: glBufferData(%d bytes): a buffer needs at least 1 byte", ErrGL, size)
	}
	glcaps.ClearErrors()
	gl.GenBuffers(1, &b.buf)
	// GL_COPY_WRITE_BUFFER is the binding point no draw state depends on,
	// so borrowing it disturbs nothing the application bound.
	gl.BindBuffer(gl.COPY_WRITE_BUFFER, b.buf)
	gl.BufferData(gl.COPY_WRITE_BUFFER, size, nil, gl.STREAM_DRAW)
	gl.BindBuffer(gl.COPY_WRITE_BUFFER, 0)
	if e := gl.GetError(); e != gl.NO_ERROR {
		b.deleteBuffer()
		return nil, fmt.Errorf("%w: glBufferData(%d bytes): 0x%x", ErrGL, size, e)
	}
	b.shadow = make([]byte, size)
	return b.shadow, nil
}

// Flush copies bytes [offset, offset+size) of the views into the buffer
// through glMapBufferRange(WRITE | UNSYNCHRONIZED | INVALIDATE_RANGE), so
// commands issued after it read them. The Set calls it from
// Arena.Flush. In ModePersistent it does nothing. It unbinds
// GL_COPY_WRITE_BUFFER and does not allocate; a range outside the buffer
// or a driver that refuses the map returns an error matching ErrGL.
func (b *Backend) Flush(offset, size int) error {
	if b.mode != ModeMapRange || size == 0 {
		return nil
	}
	if offset < 0 || size < 0 || offset+size > len(b.shadow) {
		return errFlushRange
	}
	const access = gl.MAP_WRITE_BIT | gl.MAP_UNSYNCHRONIZED_BIT | gl.MAP_INVALIDATE_RANGE_BIT
	gl.BindBuffer(gl.COPY_WRITE_BUFFER, b.buf)
	p := gl.MapBufferRange(gl.COPY_WRITE_BUFFER, offset, size, access)
	if p == nil {
		gl.BindBuffer(gl.COPY_WRITE_BUFFER, 0)
		return errFlushMap
	}
	copy(unsafe.Slice((*byte)(p), size), b.shadow[offset:offset+size])
	ok := gl.UnmapBuffer(gl.COPY_WRITE_BUFFER)
	gl.BindBuffer(gl.COPY_WRITE_BUFFER, 0)
	if !ok {
		// The spec's "data store contents have become corrupt" (a lost
		// video mode, say): what the range held is undefined.
		return errFlushLost
	}
	return nil
}

// Flush's refusals are made once: Flush runs inside steady frames.
var (
	errFlushRange = fmt.Errorf("%w: Flush range outside the buffer", ErrGL)
	errFlushMap   = fmt.Errorf("%w: glMapBufferRange refused the range", ErrGL)
	errFlushLost  = fmt.Errorf("%w: glUnmapBuffer reported the range's contents lost", ErrGL)
)
