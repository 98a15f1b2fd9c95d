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
	// Close unmaps and deletes the buffer.
	Close() error
}

// DefaultCPUAlignment is the region alignment of a CPUBackend made with
// alignment 0: the largest offset alignment common GPUs ask for, so a CPU
// run lays memory out as a GPU run would.
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

// Close drops the memory.
func (b *CPUBackend) Close() error {
	b.mem = nil
	return nil
}
