package upload

import "fmt"

// Backend provides the one buffer behind a Set. upload/glbuf implements it
// with a GL buffer object; CPUBackend with plain memory. A Vulkan or D3D12
// backend would map an upload heap here. Fences are not the backend's:
// they belong to the frame clock the Set follows.
//
// A Backend belongs to the goroutine that owns its Set.
type Backend interface {
	// Alignment returns the alignment, a power of two, that every region
	// must start on (for GL: the largest of GL_MIN_MAP_BUFFER_ALIGNMENT and
	// the uniform and storage buffer offset alignments).
	Alignment() int
	// Map creates the buffer, size bytes, and returns a write mapping of
	// all of it that stays valid until Close. A Set calls Map once.
	Map(size int) ([]byte, error)
	// Close unmaps and deletes the buffer. A backend that implements
	// Held asks its Set first, so that a Close that does not come from
	// the Set cannot unmap the buffer under frames in flight.
	Close() error
}

// Held is implemented by a Backend that refuses a Close its Set has not
// agreed to. NewSet calls Hold after Map with the Set's own Close. The
// backend's Close runs it first (through a Hold field) and refuses with
// its error. So set.Backend().Close() with frames in flight returns
// ErrInFlight and changes nothing; one without closes the Set too.
// CPUBackend and glbuf.Backend implement it.
type Held interface {
	Hold(closeSet func() error)
}

// Hold keeps the Close of the Set that holds a backend. A Backend keeps
// one in a field, forwards its Held.Hold to Hold.Set, and calls Release
// at the start of its Close. The zero Hold holds nothing.
//
// A Hold belongs to the goroutine that owns the backend's Set.
type Hold struct{ closeSet func() error }

// Set records closeSet, the holding Set's Close.
func (h *Hold) Set(closeSet func() error) { h.closeSet = closeSet }

// Release closes the holding Set, if any, and returns its refusal
// (ErrInFlight while a frame may still read the buffer), in which case
// the backend must not close and the Set still holds it. Called again
// from the Set's own Close, it returns nil at once: the Set is closed by
// then.
func (h *Hold) Release() error {
	c := h.closeSet
	if c == nil {
		return nil
	}
	h.closeSet = nil
	if err := c(); err != nil {
		h.closeSet = c
		return err
	}
	return nil
}

// DefaultCPUAlignment is the region alignment of a CPUBackend made with
// alignment 0: 256 bytes, the largest uniform-buffer offset alignment
// common GPUs ask for (D3D12's constant-buffer placement, Vulkan's limit
// on minUniformBufferOffsetAlignment). It is not the largest alignment
// there is: D3D12 places texture data on 512 bytes, so set
// CPUBackendDesc.Alignment to 512 to lay out texture staging as D3D12
// would.
const DefaultCPUAlignment = 256

// CPUBackend is a Backend over ordinary memory, for tests and headless
// servers. Pair it with a frame clock of CPU fences (frame.ClockDesc's
// default), or of manual ones (frame.NewCPUFence(true)) to simulate a slow
// GPU.
//
// A CPUBackend belongs to the goroutine that owns its Set.
type CPUBackend struct {
	align int
	mem   []byte
	hold  Hold
}

// CPUBackendDesc configures NewCPUBackend. It is a plain value, read once.
type CPUBackendDesc struct {
	// Alignment of regions; 0 means DefaultCPUAlignment.
	Alignment int
}

// NewCPUBackend returns a CPU backend.
func NewCPUBackend(d CPUBackendDesc) *CPUBackend {
	if d.Alignment == 0 {
		d.Alignment = DefaultCPUAlignment
	}
	return &CPUBackend{align: d.Alignment}
}

// Alignment returns the configured region alignment.
func (b *CPUBackend) Alignment() int { return b.align }

// Map allocates the buffer; this is the only allocation a CPU Set makes
// after NewSet's bookkeeping.
func (b *CPUBackend) Map(size int) ([]byte, error) {
	if b.mem != nil {
		return nil, fmt.Errorf("%w: CPUBackend mapped twice", ErrInvalidConfig)
	}
	b.mem = make([]byte, size)
	return b.mem, nil
}

// Hold implements Held: Close asks the Set first.
func (b *CPUBackend) Hold(closeSet func() error) { b.hold.Set(closeSet) }

// Close closes the Set that holds the backend, and refuses with its
// error (ErrInFlight) while frames may still read the memory; then it
// drops the memory. Close is idempotent.
func (b *CPUBackend) Close() error {
	if err := b.hold.Release(); err != nil {
		return err
	}
	b.mem = nil
	return nil
}
