package quads

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Vertex layout: position (2 × float32, pixels, y down), texture
// coordinate (2 × float32) and colour (4 × uint8, RGBA, normalised).
const (
	VertexBytes = 20
	QuadBytes   = 4 * VertexBytes
	// MaxQuads is the most quads one frame can hold: the shared index
	// buffer uses 16-bit indices, four vertices per quad.
	MaxQuads = 1 << 14
)

// ErrInvalid is returned for a Writer configuration or view that cannot
// work.
var ErrInvalid = errors.New("quads: invalid argument")

// Run is a range of consecutive quads drawn with one texture.
type Run struct {
	Texture uint32 // the backend's texture name (a GL texture name)
	First   int    // index of the first quad
	Count   int
}

// Writer appends quads to a frame's vertex memory. Quad never allocates;
// when the view or the run list is full it refuses and counts.
type Writer struct {
	view    []byte
	n       int
	runs    []Run
	refused uint64
}

// NewWriter returns a writer that tracks up to maxRuns texture changes per
// frame.
func NewWriter(maxRuns int) (*Writer, error) {
	if maxRuns < 1 {
		return nil, fmt.Errorf("%w: %d runs", ErrInvalid, maxRuns)
	}
	return &Writer{runs: make([]Run, 0, maxRuns)}, nil
}

// Reset starts a frame on view, which must hold a whole number of quads
// (at most MaxQuads). The view is borrowed until the next Reset.
func (w *Writer) Reset(view []byte) error {
	w.view, w.n, w.runs = nil, 0, w.runs[:0]
	if len(view)%QuadBytes != 0 || len(view)/QuadBytes > MaxQuads {
		return fmt.Errorf("%w: view of %d bytes (want a multiple of %d, at most %d quads)", ErrInvalid, len(view), QuadBytes, MaxQuads)
	}
	w.view = view
	return nil
}

// Len returns the quads written this frame.
func (w *Writer) Len() int { return w.n }

// Cap returns how many quads the current view holds.
func (w *Writer) Cap() int { return len(w.view) / QuadBytes }

// Refused returns how many quads did not fit since the Writer was made.
func (w *Writer) Refused() uint64 { return w.refused }

// Runs returns this frame's draw runs, valid until the next Reset.
func (w *Writer) Runs() []Run { return w.runs }

// Bytes returns the bytes written this frame: the prefix of the view that
// a draw needs.
func (w *Writer) Bytes() int { return w.n * QuadBytes }

// Rect is a screen rectangle and the texture rectangle mapped onto it.
type Rect struct {
	X0, Y0, X1, Y1 float32
	U0, V0, U1, V1 float32
}

// Quad writes one quad with texture tex tinted by rgba (0xRRGGBBAA). It
// returns false, and counts a refusal, when the frame is full.
func (w *Writer) Quad(tex uint32, r Rect, rgba uint32) bool {
	if w.n >= w.Cap() {
		w.refused++
		return false
	}
	last := len(w.runs) - 1
	if last < 0 || w.runs[last].Texture != tex {
		if len(w.runs) == cap(w.runs) {
			w.refused++
			return false
		}
		w.runs = append(w.runs, Run{Texture: tex, First: w.n})
		last++
	}
	o := w.view[w.n*QuadBytes : (w.n+1)*QuadBytes]
	putVertex(o[0:], r.X0, r.Y0, r.U0, r.V0, rgba)
	putVertex(o[VertexBytes:], r.X1, r.Y0, r.U1, r.V0, rgba)
	putVertex(o[2*VertexBytes:], r.X1, r.Y1, r.U1, r.V1, rgba)
	putVertex(o[3*VertexBytes:], r.X0, r.Y1, r.U0, r.V1, rgba)
	w.runs[last].Count++
	w.n++
	return true
}

// Fill writes an untextured quad: white is a texture whose texels are all
// opaque white, so the tint is the colour.
func (w *Writer) Fill(white uint32, x0, y0, x1, y1 float32, rgba uint32) bool {
	return w.Quad(white, Rect{X0: x0, Y0: y0, X1: x1, Y1: y1, U1: 1, V1: 1}, rgba)
}

func putVertex(o []byte, x, y, u, v float32, rgba uint32) {
	binary.LittleEndian.PutUint32(o[0:], math.Float32bits(x))
	binary.LittleEndian.PutUint32(o[4:], math.Float32bits(y))
	binary.LittleEndian.PutUint32(o[8:], math.Float32bits(u))
	binary.LittleEndian.PutUint32(o[12:], math.Float32bits(v))
	binary.BigEndian.PutUint32(o[16:], rgba) // bytes R, G, B, A in memory
}

// Indices fills dst with the 16-bit index pattern for quads quads
// (0,1,2, 2,3,0 per quad); the GL side uploads it once.
func Indices(dst []uint16, quads int) error {
	if quads < 0 || quads > MaxQuads || len(dst) < quads*6 {
		return fmt.Errorf("%w: %d quads into %d indices", ErrInvalid, quads, len(dst))
	}
	for q := 0; q < quads; q++ {
		b := uint16(q * 4)
		copy(dst[q*6:], []uint16{b, b + 1, b + 2, b + 2, b + 3, b})
	}
	return nil
}
