package glarray

import (
	"fmt"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/glcaps"
)

// Create takes a layer of class c and fills it with pixels (tightly
// packed rows of the class's Width × Height texels of its Format), or
// leaves it holding whatever it held if pixels is nil. name is the
// texture's debug name (descriptors.Heap.SetName), kept, not copied,
// and shown by Close's leak report and the exhaustion record; "" is
// allowed.
//
// The layer is the most recently reclaimed one of the class, else its
// lowest never-used one (the heap's order). A full class returns the
// class heap's error matching descriptors.ErrHeapExhausted, which names
// the class, and the heap logs one exhaustion record naming its oldest
// live textures; bad arguments return ErrInvalidTexture and take
// nothing.
// Create does not allocate when it succeeds or when the class is full.
func (m *Manager) Create(c int, pixels []byte, name string) (Handle, error) {
	if c < 0 || c >= len(m.classes) {
		return Handle{}, fmt.Errorf("%w: class %d of a Manager with %d", ErrInvalidTexture, c, len(m.classes))
	}
	cl := &m.classes[c]
	if pixels != nil && len(pixels) != cl.Width*cl.Height*cl.bpp {
		return Handle{}, fmt.Errorf("%w: %d bytes of pixels for class %q of %d×%d at %d bytes a texel (want %d)",
			ErrInvalidTexture, len(pixels), cl.Name, cl.Width, cl.Height, cl.bpp, cl.Width*cl.Height*cl.bpp)
	}
	h, err := cl.heap.Alloc()
	if err != nil {
		return Handle{}, err
	}
	layer := h.Index()
	// Errors left by earlier GL code would otherwise be charged to this
	// texture and free it.
	glcaps.ClearErrors()
	if pixels != nil {
		m.upload(cl, int32(layer), pixels)
	}
	if e := gl.GetError(); e != gl.NO_ERROR {
		_ = cl.heap.Free(h)
		return Handle{}, fmt.Errorf("%w: 0x%x filling layer %d of %q", ErrGL, e, layer, cl.heap.Stats().Name)
	}
	if err := cl.heap.SetName(h, name); err != nil {
		panic(fmt.Sprintf("glarray: the heap refused to name %v it had just handed out: %v", h, err))
	}
	m.created++
	return Handle{h: h, class: uint32(c)}, nil
}

// upload copies pixels into the staging arena and lets GL read them from
// there into the layer, or hands GL the client memory when there is no
// arena or no room. The staging region is fenced with the frame, so it
// is not reused until the GPU has read it.
func (m *Manager) upload(cl *class, layer int32, pixels []byte) {
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 1)
	defer gl.PixelStorei(gl.UNPACK_ALIGNMENT, 4)
	// Between frames the arena has no region to give (upload.ErrNoFrame),
	// and asking would count a refusal in its Stats.
	if m.staging != nil && m.clock.Current() != 0 {
		// Flush carries the copy into the GL buffer where the arena's
		// backend is not persistently mapped (glbuf.ModeMapRange); if it
		// cannot, GL would read stale bytes, so the upload goes direct.
		if off, view, ok := m.staging.TryAlloc(len(pixels), 4); ok && m.flushed(view, pixels) {
			gl.BindBuffer(gl.PIXEL_UNPACK_BUFFER, m.stagingBuf)
			m.ops.layerFromBuffer(cl.tex, layer, int32(cl.Width), int32(cl.Height), cl.format, off)
			gl.BindBuffer(gl.PIXEL_UNPACK_BUFFER, 0)
			m.staged++
			return
		}
	}
	m.ops.layer(cl.tex, layer, int32(cl.Width), int32(cl.Height), cl.format, unsafe.Pointer(&pixels[0]))
	m.direct++
}

// flushed copies pixels into the staging view and flushes the arena.
func (m *Manager) flushed(view, pixels []byte) bool {
	copy(view, pixels)
	return m.staging.Flush() == nil
}

// heapOf returns the class heap of h, or an error for a class index no
// Manager with these classes issued.
func (m *Manager) heapOf(h Handle, op string) (*descriptors.Heap, error) {
	if int(h.class) >= len(m.classes) {
		return nil, fmt.Errorf("%w: %v passed to %s names class %d of a Manager with %d",
			descriptors.ErrInvalidHandle, h, op, h.class, len(m.classes))
	}
	return m.classes[h.class].heap, nil
}

// Layer validates h and returns its layer, the index a shader samples
// its class's array at. A stale or foreign handle returns an error
// matching descriptors.ErrStaleHandle or ErrInvalidHandle. It does not
// allocate for a handle of one of the Manager's classes.
func (m *Manager) Layer(h Handle) (int, error) {
	heap, err := m.heapOf(h, "Layer")
	if err != nil {
		return 0, err
	}
	return heap.Get(h.h)
}

// Valid reports whether h names a live texture of this Manager.
func (m *Manager) Valid(h Handle) bool {
	return int(h.class) < len(m.classes) && m.classes[h.class].heap.Valid(h.h)
}

// Free invalidates h at once. Its layer stays out of reuse until the
// frame clock reports complete the frame that was its newest when Free
// was called (the heap's rule). Until then a frame in flight may still
// sample the layer, so nothing is written to it. A stale, zero or
// foreign handle returns an error and changes nothing. For a handle of
// one of the Manager's classes, Free does not allocate, refused or not.
func (m *Manager) Free(h Handle) error {
	heap, err := m.heapOf(h, "Free")
	if err != nil {
		return err
	}
	if err := heap.Free(h.h); err != nil {
		return err
	}
	m.freed++
	return nil
}

// Stats describes the Manager's textures: a plain value, safe to hand to
// any goroutine once Manager.Stats (on the render goroutine) has returned
// it.
type Stats struct {
	Live     int    // textures live in every class
	Pending  int    // layers freed and waiting for their frames
	Capacity int    // layers in every class
	Created  uint64 // textures created
	Freed    uint64 // textures freed
	Staged   uint64 // uploads through the staging arena
	Direct   uint64 // uploads from client memory
}

// Stats returns the counters summed over the classes; Heap(i).Stats()
// has one class's. It does not allocate.
func (m *Manager) Stats() Stats {
	s := Stats{Created: m.created, Freed: m.freed, Staged: m.staged, Direct: m.direct}
	for i := range m.classes {
		st := m.classes[i].heap.Stats()
		s.Live += st.Live
		s.Pending += st.Pending
		s.Capacity += st.Capacity
	}
	return s
}
