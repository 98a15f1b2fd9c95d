package upload

import (
	"fmt"

	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// Backend provides the one buffer behind a Set and, for a Set that owns
// its frame clock, the fences. upload/glbuf implements it with a GL buffer
// object; CPUBackend with plain memory. A Vulkan or D3D12 backend would map
// an upload heap here.
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
	// NewFence makes the fence for one frame in flight.
	NewFence() (frame.Fence, error)
	// Close unmaps and deletes the buffer.
	Close() error
}

// DefaultCPUAlignment is the region alignment of a CPUBackend made with
// alignment 0: the largest offset alignment common GPUs ask for, so a CPU
// run lays memory out as a GPU run would.
const DefaultCPUAlignment = 256

// CPUBackend is a Backend over ordinary memory with CPU fences, for tests
// and headless servers. Its fences complete when signalled, unless
// ManualFences is set, in which case they complete only when the test calls
// CompleteAll (a slow "GPU").
//
// A CPUBackend belongs to the goroutine that owns its Set; CompleteAll may
// be called from any goroutine.
type CPUBackend struct {
	align  int
	manual bool
	mem    []byte
	fences []*frame.CPUFence
}

// CPUBackendDesc configures NewCPUBackend. It is a plain value, read once.
type CPUBackendDesc struct {
	// Alignment of regions; 0 means DefaultCPUAlignment.
	Alignment int
	// ManualFences makes fences complete only on CompleteAll.
	ManualFences bool
}

// NewCPUBackend returns a CPU backend.
func NewCPUBackend(d CPUBackendDesc) *CPUBackend {
	if d.Alignment == 0 {
		d.Alignment = DefaultCPUAlignment
	}
	return &CPUBackend{align: d.Alignment, manual: d.ManualFences}
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

// NewFence returns a CPU fence, manual if the backend was made so.
func (b *CPUBackend) NewFence() (frame.Fence, error) {
	f := frame.NewCPUFence(b.manual)
	b.fences = append(b.fences, f)
	return f, nil
}

// CompleteAll completes every fence signalled so far: the simulated GPU
// catching up.
func (b *CPUBackend) CompleteAll() {
	for _, f := range b.fences {
		f.Complete()
	}
}

// Close drops the memory.
func (b *CPUBackend) Close() error {
	b.mem = nil
	return nil
}
