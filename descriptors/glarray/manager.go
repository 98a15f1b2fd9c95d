package glarray

import (
	"errors"
	"fmt"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/glcaps"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/upload"
)

// Sentinel errors returned by this package; check them with errors.Is.
// Refusals of the heaps (a full class, a stale handle, a closed heap)
// are the descriptors package's own errors.
var (
	// ErrInvalidTexture is returned by Create for a class or a pixel
	// slice that cannot fill a layer; nothing is taken.
	ErrInvalidTexture = errors.New("glarray: invalid texture")
	// ErrGL is returned when the driver reports an error; the message
	// holds the GL error code.
	ErrGL = errors.New("glarray: GL error")
)

// Class declares one size and format of texture: one GL_TEXTURE_2D_ARRAY
// of Layers layers, each Width × Height texels of Format. It is a plain
// value.
type Class struct {
	// Name appears in the class's heap name, errors and the array's GL
	// label; "" means "WxH format", such as "64x64 rgba8".
	Name string
	// Width and Height are every layer's size, 1..GL_MAX_TEXTURE_SIZE.
	Width, Height int
	// Format is the texel format (gltex.FormatRGBA8 or gltex.FormatR8).
	Format gltex.Format
	// Layers is the class's capacity: the slots of its heap and the
	// layers of its array, 1..GL_MAX_ARRAY_TEXTURE_LAYERS (at least 256
	// from GL 3.3 on; llvmpipe offers 2048). It is fixed at New.
	Layers int
}

// Desc configures New, which reads it once on the render goroutine; the
// Staging arena it names must belong to that goroutine too.
type Desc struct {
	// Heap configures every class's heap. Its Clock is required: the
	// frame clock whose frames sample the layers, and whose completed
	// frames make freed layers reusable. Its Name ("" means "textures")
	// prefixes each class's heap name ("textures/64x64 rgba8"). Its
	// Capacity must be 0: each class's Layers is its heap's capacity.
	// Its Logger also receives each heap's exhaustion record.
	Heap descriptors.HeapDesc
	// Classes are the arrays to make, at least one. A texture's class is
	// its index here.
	Classes []Class
	// Staging, if set, is the upload arena Create copies pixels into
	// before GL reads them as a pixel unpack buffer. Create uses it only
	// inside an open frame and falls back to a direct upload when the
	// arena is full or no frame is open.
	Staging *upload.Arena
	// StagingBuffer is the GL buffer behind Staging (glbuf.Backend.Buffer).
	StagingBuffer uint32
}

// Manager owns one GL_TEXTURE_2D_ARRAY per class and hands out its
// layers as descriptor slots: layer L of class C is slot L of class C's
// heap, so the index a shader uses is the slot.
//
// A Manager belongs to the render goroutine with the GL context current;
// it is not safe for concurrent use.
type Manager struct {
	clock      *frame.Clock
	classes    []class
	live       []descriptors.Live // scratch for AppendLive, as large as the largest class
	staging    *upload.Arena
	stagingBuf uint32
	ops        arrayOps // DSA or bind-to-edit, resolved by New on the Manager's context
	labelled   bool     // the context has KHR_debug: the arrays carry labels
	closed     bool

	created, freed, staged, direct uint64
}

// class is one declared Class with its heap and its array. The heap
// keeps each live texture's name and creation frame.
type class struct {
	Class
	heap             *descriptors.Heap
	tex              uint32
	internal, format uint32
	bpp              int
}

// glFormat maps a gltex.Format to GL's enums, as gltex does for its own
// textures; an array layer takes the same formats.
func glFormat(f gltex.Format) (internal, format uint32, bytes int, name string, ok bool) {
	switch f {
	case gltex.FormatRGBA8:
		return gl.RGBA8, gl.RGBA, 4, "rgba8", true
	case gltex.FormatR8:
		return gl.R8, gl.RED, 1, "r8", true
	}
	return 0, 0, 0, "", false
}

// New makes a Manager on the GL context current on the calling thread,
// which the application made: OpenGL 3.3 core or newer (array textures
// and instanced draws are core since 3.3). It makes one heap following
// Desc.Heap.Clock and one array texture per class. It checks the context
// first (glcaps.Check), picks the DSA or the bind-to-edit path
// (DirectStateAccess), and checks each class against
// GL_MAX_TEXTURE_SIZE and GL_MAX_ARRAY_TEXTURE_LAYERS, and returns an
// error naming what is wrong and makes nothing when anything falls short.
// New allocates; call it at load time.
func New(d Desc) (*Manager, error) {
	switch {
	case d.Heap.Clock == nil:
		return nil, fmt.Errorf("%w: nil Heap.Clock (the layers follow the renderer's frame clock)", descriptors.ErrInvalidConfig)
	case d.Heap.Capacity != 0:
		return nil, fmt.Errorf("%w: Heap.Capacity %d (each class's Layers is its capacity; leave it 0)",
			descriptors.ErrInvalidConfig, d.Heap.Capacity)
	case len(d.Classes) == 0:
		return nil, fmt.Errorf("%w: no Classes (declare each texture size and format)", descriptors.ErrInvalidConfig)
	case d.Staging != nil && d.StagingBuffer == 0:
		return nil, fmt.Errorf("%w: Staging arena without its GL buffer", descriptors.ErrInvalidConfig)
	}
	if err := glcaps.Check(); err != nil {
		return nil, fmt.Errorf("glarray: %w", err)
	}
	ops, err := loadOps()
	if err != nil {
		return nil, fmt.Errorf("glarray: %w", err)
	}
	var maxSize, maxLayers int32
	gl.GetIntegerv(gl.MAX_TEXTURE_SIZE, &maxSize)
	gl.GetIntegerv(gl.MAX_ARRAY_TEXTURE_LAYERS, &maxLayers)
	if d.Heap.Name == "" {
		d.Heap.Name = "textures"
	}
	m := &Manager{clock: d.Heap.Clock, classes: make([]class, len(d.Classes)),
		staging: d.Staging, stagingBuf: d.StagingBuffer, ops: ops, labelled: glcaps.HasDebugLabels()}
	for i, c := range d.Classes {
		cl := &m.classes[i]
		var fname string
		var ok bool
		cl.internal, cl.format, cl.bpp, fname, ok = glFormat(c.Format)
		switch {
		case !ok:
			err = fmt.Errorf("%w: class %d: format %d", descriptors.ErrInvalidConfig, i, c.Format)
		case c.Width < 1 || c.Height < 1 || c.Width > int(maxSize) || c.Height > int(maxSize):
			err = fmt.Errorf("%w: class %d: %d×%d (want 1..%d on each side, GL_MAX_TEXTURE_SIZE)",
				descriptors.ErrInvalidConfig, i, c.Width, c.Height, maxSize)
		case c.Layers < 1 || c.Layers > int(maxLayers):
			err = fmt.Errorf("%w: class %d: %d layers (want 1..%d, this context's GL_MAX_ARRAY_TEXTURE_LAYERS; split the class in two)",
				descriptors.ErrInvalidConfig, i, c.Layers, maxLayers)
		}
		if err != nil {
			m.destroy()
			return nil, err
		}
		if c.Name == "" {
			c.Name = fmt.Sprintf("%dx%d %s", c.Width, c.Height, fname)
		}
		cl.Class = c
		if err := m.makeClass(cl, d.Heap); err != nil {
			m.destroy()
			return nil, err
		}
	}
	return m, nil
}

// makeClass makes cl's heap and array texture.
func (m *Manager) makeClass(cl *class, hd descriptors.HeapDesc) error {
	hd.Name += "/" + cl.Name
	hd.Capacity = cl.Layers
	hd.Releaser = nil // a layer outlives its textures: nothing to delete
	h, err := descriptors.NewHeap(hd)
	if err != nil {
		return err
	}
	cl.heap = h
	if cl.Layers > cap(m.live) {
		m.live = make([]descriptors.Live, 0, cl.Layers)
	}
	glcaps.ClearErrors()
	m.ops.create(&cl.tex, int32(cl.Width), int32(cl.Height), int32(cl.Layers), cl.internal, cl.format)
	if e := gl.GetError(); e != gl.NO_ERROR {
		return fmt.Errorf("%w: 0x%x making array %q (%d×%d, %d layers)", ErrGL, e, hd.Name, cl.Width, cl.Height, cl.Layers)
	}
	if m.labelled {
		glcaps.Label(gl.TEXTURE, cl.tex, "glarray "+hd.Name)
	}
	return nil
}

// destroy undoes a New that failed part way: every heap made is closed
// (none has a slot yet) and every array deleted.
func (m *Manager) destroy() {
	for i := range m.classes {
		cl := &m.classes[i]
		if cl.heap != nil {
			_ = cl.heap.Close()
		}
		if cl.tex != 0 {
			gl.DeleteTextures(1, &cl.tex)
			cl.tex = 0 // a Bind after Close binds nothing, not a deleted name
		}
	}
}

// Classes returns the number of classes, each one array texture. The
// accessors below take a class index in 0..Classes()-1, as a slice does,
// and panic outside it; Bind, which a frame calls, checks it instead.
func (m *Manager) Classes() int { return len(m.classes) }

// Class returns class i as declared, with its Name filled in.
func (m *Manager) Class(i int) Class { return m.classes[i].Class }

// Heap returns class i's slot table, for its Stats.
func (m *Manager) Heap(i int) *descriptors.Heap { return m.classes[i].heap }

// Texture returns the GL name of class i's GL_TEXTURE_2D_ARRAY. It stays
// the same from New until Close.
func (m *Manager) Texture(i int) uint32 { return m.classes[i].tex }

// Bind binds class i's array to texture unit unit: once per array per
// frame, however many of its layers the draw samples. It calls
// glBindTextureUnit, or without DSA glActiveTexture and glBindTexture,
// which leave unit active. On that path Create binds 0 on the active
// unit, so call Bind after the frame's Creates. A class the Manager does
// not have returns ErrInvalidTexture and binds nothing. It does not
// allocate otherwise.
func (m *Manager) Bind(unit uint32, i int) error {
	if i < 0 || i >= len(m.classes) {
		return fmt.Errorf("%w: Bind of class %d on a Manager with %d", ErrInvalidTexture, i, len(m.classes))
	}
	m.ops.bind(unit, m.classes[i].tex)
	return nil
}
