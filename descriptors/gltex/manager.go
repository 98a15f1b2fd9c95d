package gltex

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/glcaps"
	"github.com/steadyframe/steadyframe/upload"
)

// ErrInvalidTexture is returned by Create for a size, format or pixel
// slice that cannot make a texture; nothing is allocated.
var ErrInvalidTexture = errors.New("gltex: invalid texture")

// ErrGL is returned when the driver reports an error; the message holds
// the GL error code.
var ErrGL = errors.New("gltex: GL error")

// Format is a texel format: a plain value, safe to share.
type Format int

// Formats a Manager can create.
const (
	FormatRGBA8 Format = iota + 1 // four 8-bit channels, 4 bytes a texel
	FormatR8                      // one 8-bit channel (font atlases), 1 byte a texel
)

func (f Format) gl() (internal, format uint32, bytes int, ok bool) {
	switch f {
	case FormatRGBA8:
		return gl.RGBA8, gl.RGBA, 4, true
	case FormatR8:
		return gl.R8, gl.RED, 1, true
	}
	return 0, 0, 0, false
}

// Desc configures New, which reads it once on the render goroutine; the
// Staging arena it names must belong to that goroutine too.
type Desc struct {
	// Heap configures the slot table; its Releaser is set by New. Its
	// Clock is required: the frame clock whose frames sample the
	// textures, and whose completed frames delete them.
	Heap descriptors.HeapDesc
	// Staging, if set, is the upload arena Create copies pixels into
	// before the GL copy reads them as a pixel unpack buffer. Create uses
	// it only inside an open frame and falls back to a direct upload when
	// the arena is full or no frame is open.
	Staging *upload.Arena
	// StagingBuffer is the GL buffer behind Staging (glbuf.Backend.Buffer).
	StagingBuffer uint32
}

// Manager owns GL textures, one per descriptor slot.
//
// A Manager belongs to the render goroutine with the GL context current;
// it is not safe for concurrent use.
type Manager struct {
	heap       *descriptors.Heap
	names      []uint32 // GL texture of each slot; 0 when none
	staging    *upload.Arena
	stagingBuf uint32
	ops        texOps // DSA or bind-to-edit, resolved by New on the Manager's context
	maxSize    int
	rel        releaser
	labelled   bool // the context has KHR_debug: CreateNamed labels textures

	created, deleted, staged, direct uint64
}

// releaser deletes a slot's texture when the heap reclaims the slot. It is
// a separate type so ReleaseSlot is not part of the Manager's API.
type releaser struct{ m *Manager }

func (r *releaser) ReleaseSlot(i int) {
	// The name is passed from the heap-held table, not a local: a local's
	// address handed to cgo escapes, and a texture freed in a steady frame
	// would allocate (the stress tool's guard caught exactly that).
	if r.m.names[i] != 0 {
		gl.DeleteTextures(1, &r.m.names[i])
		r.m.names[i] = 0
		r.m.deleted++
	}
}

// New makes a Manager and its heap on the GL context current on the
// calling thread, which the application made: OpenGL 3.3 core or newer.
// Before touching anything it checks that context (glcaps.Check). It
// picks the DSA or the bind-to-edit path (DirectStateAccess) and resolves
// the one entry point it calls outside go-gl. When the context falls
// short it makes nothing. It returns an error prefixed "gltex:" that
// matches glcaps.ErrNoContext, glcaps.ErrNotLoaded or
// glcaps.ErrMissingFeature and says what to do.
func New(d Desc) (*Manager, error) {
	if d.Staging != nil && d.StagingBuffer == 0 {
		return nil, fmt.Errorf("%w: Staging arena without its GL buffer", descriptors.ErrInvalidConfig)
	}
	if err := glcaps.Check(); err != nil {
		return nil, fmt.Errorf("gltex: %w", err)
	}
	ops, err := loadOps()
	if err != nil {
		return nil, fmt.Errorf("gltex: %w", err)
	}
	m := &Manager{staging: d.Staging, stagingBuf: d.StagingBuffer, ops: ops}
	m.rel.m = m
	d.Heap.Releaser = &m.rel
	h, err := descriptors.NewHeap(d.Heap)
	if err != nil {
		return nil, err
	}
	m.heap = h
	m.names = make([]uint32, h.Capacity())
	var max int32
	gl.GetIntegerv(gl.MAX_TEXTURE_SIZE, &max)
	m.maxSize = int(max)
	m.labelled = glcaps.HasDebugLabels()
	return m, nil
}

// Grow raises the capacity of the heap to capacity slots and the
// per-slot texture table with it, so textures can be created in the new
// slots. Existing handles and textures are untouched, and textures of
// pending slots are still deleted when they are reclaimed. Nothing
// else in GL is sized by the heap: shaders reach a slot by binding its
// texture per draw (Bind). Grow allocates; call it at load time on the
// render goroutine, never in steady frames. A capacity not above the
// current one, or above descriptors.MaxCapacity, returns an error matching
// descriptors.ErrInvalidCapacity and changes nothing.
func (m *Manager) Grow(capacity int) error {
	if err := m.heap.Grow(capacity); err != nil {
		return err
	}
	names := make([]uint32, m.heap.Capacity())
	copy(names, m.names)
	m.names = names
	return nil
}

// Heap returns the slot table, for its Stats and for handle checks.
func (m *Manager) Heap() *descriptors.Heap { return m.heap }

// Create makes a width × height texture of format f with one mip level
// and fills it with pixels (tightly packed rows, len = width × height ×
// texel size), or leaves it undefined if pixels is nil. It takes a slot
// first, so a full heap costs no GL work; bad arguments return
// ErrInvalidTexture and take nothing.
func (m *Manager) Create(width, height int, f Format, pixels []byte) (descriptors.Handle, error) {
	internal, format, bpp, ok := f.gl()
	switch {
	case !ok:
		return descriptors.Handle{}, fmt.Errorf("%w: format %d", ErrInvalidTexture, f)
	case width < 1 || height < 1 || width > m.maxSize || height > m.maxSize:
		return descriptors.Handle{}, fmt.Errorf("%w: %d×%d (want 1..%d on each side)", ErrInvalidTexture, width, height, m.maxSize)
	case pixels != nil && len(pixels) != width*height*bpp:
		return descriptors.Handle{}, fmt.Errorf("%w: %d bytes of pixels for %d×%d at %d bytes a texel (want %d)",
			ErrInvalidTexture, len(pixels), width, height, bpp, width*height*bpp)
	}
	h, err := m.heap.Alloc()
	if err != nil {
		return descriptors.Handle{}, err
	}
	// Errors left by earlier GL code would otherwise be charged to this
	// texture and free it.
	glcaps.ClearErrors()
	// Created straight into the slot's table entry: a local's address
	// passed to cgo escapes and would allocate once per texture.
	m.ops.create(&m.names[h.Index()], int32(width), int32(height), internal, format)
	name := m.names[h.Index()]
	m.created++
	if pixels != nil {
		m.upload(name, width, height, format, pixels)
	}
	if e := gl.GetError(); e != gl.NO_ERROR {
		// The slot is reclaimed like any other; its releaser deletes the name.
		_ = m.heap.Free(h)
		return descriptors.Handle{}, fmt.Errorf("%w: 0x%x creating a %d×%d texture", ErrGL, e, width, height)
	}
	return h, nil
}

// upload copies pixels into the staging arena and lets GL read them from
// there, or hands GL the client memory when no arena, no open frame or no
// room exists. Outside a frame it does not ask the arena at all: the
// direct path is the documented one there, not a staging failure. The
// staging copy is fenced with the frame, so the region is not reused
// until the GPU has read it.
func (m *Manager) upload(name uint32, width, height int, format uint32, pixels []byte) {
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 1)
	defer gl.PixelStorei(gl.UNPACK_ALIGNMENT, 4)
	if m.staging != nil && m.staging.InFrame() {
		// Flush carries the copy into the GL buffer where the arena's
		// backend is not persistently mapped; if it cannot, GL would read
		// stale bytes, so the upload goes direct instead.
		if off, view, ok := m.staging.TryAlloc(len(pixels), 4); ok && m.flushed(view, pixels) {
			gl.BindBuffer(gl.PIXEL_UNPACK_BUFFER, m.stagingBuf)
			m.ops.subImageFromBuffer(name, int32(width), int32(height), format, off)
			gl.BindBuffer(gl.PIXEL_UNPACK_BUFFER, 0)
			m.staged++
			return
		}
	}
	m.ops.subImage(name, int32(width), int32(height), format, unsafe.Pointer(&pixels[0]))
	m.direct++
}

// flushed copies pixels into the staging view and flushes the arena.
func (m *Manager) flushed(view, pixels []byte) bool {
	copy(view, pixels)
	return m.staging.Flush() == nil
}

// Texture returns the GL texture name of a live handle, or an error
// matching descriptors.ErrStaleHandle or ErrInvalidHandle.
func (m *Manager) Texture(h descriptors.Handle) (uint32, error) {
	i, err := m.heap.Get(h)
	if err != nil {
		return 0, err
	}
	return m.names[i], nil
}

// Bind binds the texture of h to texture unit unit for the next draws:
// how a shader reaches a slot without bindless textures.
func (m *Manager) Bind(unit uint32, h descriptors.Handle) error {
	name, err := m.Texture(h)
	if err != nil {
		return err
	}
	m.ops.bind(unit, name)
	return nil
}

// Free invalidates h now; the GL texture is deleted when its slot is
// reclaimed, once the frame clock reports complete the frame that was
// its newest when Free was called.
func (m *Manager) Free(h descriptors.Handle) error { return m.heap.Free(h) }

// Stats describes the manager's textures: a plain value, safe to hand to
// any goroutine once Manager.Stats (on the render goroutine) has returned it.
type Stats struct {
	Heap     descriptors.Stats
	Textures int    // GL textures alive: live plus pending slots
	Created  uint64 // textures created
	Deleted  uint64 // textures deleted when their slots were reclaimed
	Staged   uint64 // uploads through the staging arena
	Direct   uint64 // uploads from client memory
}

// Stats returns the counters. It does not allocate.
func (m *Manager) Stats() Stats {
	return Stats{Heap: m.heap.Stats(), Textures: int(m.created - m.deleted),
		Created: m.created, Deleted: m.deleted, Staged: m.staged, Direct: m.direct}
}

// Close closes the heap, which refuses (descriptors.ErrInUse) while
// textures are live or pending: free them and Drain the clock first, so
// every texture has been deleted. Close the Manager before the clock.
func (m *Manager) Close() error { return m.heap.Close() }
