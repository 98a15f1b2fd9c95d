package glbuf

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/go-gl/gl/v4.5-core/gl"
	"github.com/steadyframe/steadyframe/glcaps"
	"github.com/steadyframe/steadyframe/upload"
)

// ErrGL is returned by Map when the driver refuses to create or map the
// buffer; the message holds the call, the size and the GL error code.
var ErrGL = errors.New("glbuf: GL error")

// Backend is an upload.Backend over one persistently mapped GL buffer.
//
// A Backend belongs to the render goroutine with the GL context current.
type Backend struct {
	buf    uint32
	align  int
	closed bool
	hold   upload.Hold
}

var (
	_ upload.Backend = (*Backend)(nil)
	_ upload.Held    = (*Backend)(nil)
)

// New returns a backend whose region alignment is the largest of
// GL_MIN_MAP_BUFFER_ALIGNMENT and the uniform and shader storage buffer
// offset alignments, so any Alloc aligned to the backend can be bound as
// either.
//
// It runs on the GL context current on the calling thread, which the
// application made (loading go-gl's table for it), and checks that
// context first (glcaps.Check): OpenGL 4.5, or GL_ARB_buffer_storage and
// GL_ARB_direct_state_access. When it falls short, New returns an error
// prefixed "glbuf:" that matches glcaps.ErrNoContext,
// glcaps.ErrNotLoaded or glcaps.ErrMissingFeature and says what to do.
func New() (*Backend, error) {
	if err := glcaps.Check(glcaps.FeatureBufferStorage, glcaps.FeatureDirectStateAccess); err != nil {
		return nil, fmt.Errorf("glbuf: %w", err)
	}
	align := 1
	for _, name := range []uint32{gl.MIN_MAP_BUFFER_ALIGNMENT, gl.UNIFORM_BUFFER_OFFSET_ALIGNMENT, gl.SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT} {
		var v int32
		gl.GetIntegerv(name, &v)
		if int(v) > align {
			align = int(v)
		}
	}
	return &Backend{align: align}, nil
}

// Alignment returns the region alignment the driver requires.
func (b *Backend) Alignment() int { return b.align }

// Map creates the buffer with immutable storage and maps all of it for
// persistent, coherent writing.
func (b *Backend) Map(size int) ([]byte, error) {
	if b.closed {
		return nil, fmt.Errorf("%w: Map on a closed glbuf backend", upload.ErrClosed)
	}
	if b.buf != 0 {
		return nil, fmt.Errorf("%w: glbuf backend mapped twice", upload.ErrInvalidConfig)
	}
	const flags = gl.MAP_WRITE_BIT | gl.MAP_PERSISTENT_BIT | gl.MAP_COHERENT_BIT
	glcaps.ClearErrors() // so the checks below see only this call's errors
	gl.CreateBuffers(1, &b.buf)
	gl.NamedBufferStorage(b.buf, size, nil, flags)
	if e := gl.GetError(); e != gl.NO_ERROR {
		b.deleteBuffer()
		return nil, fmt.Errorf("%w: glNamedBufferStorage(%d bytes): 0x%x", ErrGL, size, e)
	}
	p := gl.MapNamedBufferRange(b.buf, 0, size, flags)
	if p == nil {
		e := gl.GetError()
		b.deleteBuffer()
		return nil, fmt.Errorf("%w: glMapNamedBufferRange(%d bytes): 0x%x", ErrGL, size, e)
	}
	return unsafe.Slice((*byte)(p), size), nil
}

// Buffer returns the GL buffer name to bind with the offsets Alloc
// returns. It is 0 before Map and after Close.
func (b *Backend) Buffer() uint32 { return b.buf }

// Hold implements upload.Held: Close asks the Set first.
func (b *Backend) Hold(closeSet func() error) { b.hold.Set(closeSet) }

// Close closes the Set that holds the backend, and refuses with its
// error (upload.ErrInFlight), changing nothing, while a frame may still
// read the buffer. Then it unmaps and deletes the buffer; every view
// into it is invalid afterwards. Close is idempotent.
func (b *Backend) Close() error {
	if b.closed {
		return nil
	}
	if err := b.hold.Release(); err != nil {
		return err
	}
	if b.closed { // the Set's Close closed it
		return nil
	}
	b.closed = true
	if b.buf != 0 {
		gl.UnmapNamedBuffer(b.buf)
		b.deleteBuffer()
	}
	return nil
}

func (b *Backend) deleteBuffer() {
	gl.DeleteBuffers(1, &b.buf)
	b.buf = 0
}
