package glbuf

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
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
	mode   Mode
	shadow []byte // ModeMapRange: the CPU copy Map returns
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
// application made, and checks that context first (glcaps.Check): a
// desktop OpenGL 3.3 core context or newer. When it falls short, New
// returns an error prefixed "glbuf:" that matches glcaps.ErrNoContext,
// glcaps.ErrNotLoaded or glcaps.ErrMissingFeature and says what to do.
// It picks the backend's Mode from what the context offers.
func New() (*Backend, error) {
	if err := glcaps.Check(); err != nil {
		return nil, fmt.Errorf("glbuf: %w", err)
	}
	return newBackend(pickMode()), nil
}

// newBackend reads the context's alignments for a backend in mode.
func newBackend(mode Mode) *Backend {
	align := 1
	glcaps.ClearErrors()
	for _, name := range []uint32{gl.MIN_MAP_BUFFER_ALIGNMENT, gl.UNIFORM_BUFFER_OFFSET_ALIGNMENT, gl.SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT} {
		// Before 4.2 and 4.3 the map and storage alignments are unknown
		// enums: the query leaves v at 0 and queues an error, cleared below.
		var v int32
		gl.GetIntegerv(name, &v)
		if int(v) > align {
			align = int(v)
		}
	}
	glcaps.ClearErrors()
	return &Backend{align: align, mode: mode}
}

// Alignment returns the region alignment the driver requires.
func (b *Backend) Alignment() int { return b.align }

// Map creates the buffer. In ModePersistent it has immutable storage,
// all of it mapped for persistent, coherent writing; in ModeMapRange it
// has mutable storage (glBufferData) and Map returns a CPU copy of it that
// Flush carries into the buffer.
func (b *Backend) Map(size int) ([]byte, error) {
	if b.closed {
		return nil, fmt.Errorf("%w: Map on a closed glbuf backend", upload.ErrClosed)
	}
	if b.buf != 0 {
		return nil, fmt.Errorf("%w: glbuf backend mapped twice", upload.ErrInvalidConfig)
	}
	if b.mode == ModeMapRange {
		return b.mapRange(size)
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
		if b.mode == ModePersistent {
			gl.UnmapNamedBuffer(b.buf)
		}
		b.deleteBuffer()
	}
	b.shadow = nil
	return nil
}

func (b *Backend) deleteBuffer() {
	gl.DeleteBuffers(1, &b.buf)
	b.buf = 0
}
