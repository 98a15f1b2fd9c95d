package scene

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/upload"
)

// Indices of the arenas in Arenas, for upload.Set.Arena.
const (
	ArenaRenderer  = 0 // panel quads and texture staging (a pixel unpack buffer)
	ArenaSprites   = 1 // sprite quads
	ArenaParticles = 2 // particle quads
)

// ArenaCount is the number of arenas in Arenas.
const ArenaCount = 3

// Reserved is the upload memory the layout reserves at start-up and never
// exceeds with three frames in flight (frame.DefaultInFlight): (4 + 4 + 1)
// MiB per frame, three times.
const Reserved = 27 << 20

// Arenas returns the layout: the renderer and the sprite batch take 4 MiB
// per frame each, particles 1 MiB. The sizes are the reference engine's
// measured peaks with headroom; each command's stress run reports how much
// of each it used.
func Arenas() []upload.ArenaDesc {
	return []upload.ArenaDesc{
		ArenaRenderer:  {Name: "renderer", Size: 4 << 20},
		ArenaSprites:   {Name: "sprites", Size: 4 << 20},
		ArenaParticles: {Name: "particles", Size: 1 << 20},
	}
}

// Render is what both commands render with. It holds one frame clock and
// the managers that follow it: the upload Set on the Arenas layout and the
// descriptor heap. It also holds the Texturer that makes textures in that
// heap and, in a window, the Window. A renderer opens and closes each frame on
// Clock alone; the Set and the heap follow it.
//
// A Render belongs to the render goroutine (with a window, the main
// goroutine locked to the main OS thread with the GL context current).
type Render struct {
	// Backend names what renders, for logs and reports: "opengl:
	// <renderer> (<version>)" or "cpu (headless)".
	Backend string
	Clock   *frame.Clock
	Set     *upload.Set
	Heap    *descriptors.Heap
	Tex     Texturer
	// Window is the GL window; nil headless.
	Window *Window

	// closeHeap closes the heap through its owner (the texture Manager in
	// a window, which then stops following the clock).
	closeHeap func() error
}

// RenderDesc configures OpenHeadless and OpenWindow. The zero value of
// each field picks its default.
type RenderDesc struct {
	// Logger receives the heap's occupancy warnings and lines; nil means
	// slog.Default().
	Logger *slog.Logger
	// HeapLogInterval is how often the heap logs an occupancy line; 0
	// turns the line off.
	HeapLogInterval time.Duration
	// Width and Height are the window's size in pixels; 0 means 1280×720.
	Width, Height int
	// Title is the window's title.
	Title string
	// Quads is the most quads one draw of the window's quad renderer
	// takes; 0 means quads.MaxQuads.
	Quads int
}

// OpenHeadless builds the CPU backends: CPU fences, the upload Set in
// plain memory, and bare descriptor slots. A slot's pixels are copied into
// the renderer arena, as a GL upload through a pixel unpack buffer would
// be. So a headless run carries the same upload traffic as a windowed one.
func OpenHeadless(d RenderDesc) (*Render, error) {
	clock, err := frame.NewClock(frame.ClockDesc{})
	if err != nil {
		return nil, fmt.Errorf("scene: frame clock: %w", err)
	}
	set, err := upload.NewSet(upload.SetDesc{Arenas: Arenas(), Clock: clock})
	if err != nil {
		_ = clock.Close()
		return nil, fmt.Errorf("scene: upload arenas: %w", err)
	}
	heap, err := descriptors.NewHeap(descriptors.HeapDesc{Logger: d.Logger, LogInterval: d.HeapLogInterval, Clock: clock})
	if err != nil {
		_ = set.Close()
		_ = clock.Close()
		return nil, fmt.Errorf("scene: descriptor heap: %w", err)
	}
	return &Render{
		Backend: "cpu (headless)", Clock: clock, Set: set, Heap: heap,
		Tex:       &cpuTextures{heap: heap, arena: set.Arena(ArenaRenderer)},
		closeHeap: heap.Close,
	}, nil
}

// CloseHeap closes the descriptor heap (the teardown's descriptors-close
// stage). It refuses while slots are live or pending: free the textures
// and drain the clock first.
func (r *Render) CloseHeap() error { return r.closeHeap() }

// Abort releases everything after a start that failed before any frame
// ran: above all it stops an Xvfb that OpenWindow started. Its errors are
// dropped, since the caller is already reporting the failure.
func (r *Render) Abort() {
	_ = r.Clock.Drain()
	_ = r.closeHeap()
	_ = r.Set.Close()
	_ = r.Clock.Close()
	if r.Window != nil {
		_ = r.Window.Close()
	}
}

// cpuTextures is the headless Texturer: descriptor slots with no device
// object behind them. It belongs to the render goroutine.
type cpuTextures struct {
	heap  *descriptors.Heap
	arena *upload.Arena
}

func (c *cpuTextures) Create(w, h int, rgba []byte, _ Filter) (descriptors.Handle, error) {
	hd, err := c.heap.Alloc()
	if err != nil {
		return descriptors.Handle{}, err
	}
	// A full arena refuses and counts the failure itself, as a GL upload
	// through the same arena would; the slot is still made.
	if _, view, ok := c.arena.TryAlloc(len(rgba), 256); ok {
		copy(view, rgba)
	}
	return hd, nil
}

func (c *cpuTextures) Free(h descriptors.Handle) error { return c.heap.Free(h) }

func (c *cpuTextures) Name(descriptors.Handle) uint32 { return 0 }
