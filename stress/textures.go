package main

import (
	"encoding/binary"
	"fmt"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/font"
)

// texturer creates and frees textures on the render goroutine: the GL
// texture manager in a window, the bare descriptor heap when headless.
// Create copies pixels before it returns (into the device or an upload
// arena), so the caller may reuse its buffer at once.
type texturer interface {
	Create(w, h int, rgba []byte) (descriptors.Handle, error)
	Free(h descriptors.Handle) error
	// Name returns what a draw binds for h (a GL texture name), 0 headless.
	Name(h descriptors.Handle) uint32
	Heap() *descriptors.Heap
	// Close closes the heap; it refuses while slots are live or pending.
	Close() error
}

// Texture churn sizes, after the reference: a loaded level on 239 slots
// (14 font pages, 30 quality textures, the level's own 194 and a white
// texel for untextured quads), quality swaps of 30, font rebakes that
// recycle the atlas pages.
const (
	levelTextures   = 194
	qualityTextures = 30
	levelSize       = 16
	qualityLow      = 32
	qualityHigh     = 64
	fontPerPage     = 4
	fontMaxScale    = 4
)

// textures is the stress tool's texture population and the churn it
// suffers. Its pixel sources are allocated once at the largest size any
// churn event needs, so churn in a steady frame allocates nothing. It
// belongs to the render goroutine.
type textures struct {
	tx      texturer
	white   descriptors.Handle
	level   [levelTextures]descriptors.Handle
	quality [qualityTextures]descriptors.Handle
	font    []descriptors.Handle // one per atlas page, fixed length
	atlas   font.Atlas
	high    bool
	levelNo uint64

	pix      []byte // scratch, large enough for any texture made here
	made     uint64
	freed    uint64
	rebakes  uint64
	swaps    uint64
	levels   uint64
	failures uint64
	firstErr error
}

func newTextures(tx texturer) (*textures, error) {
	a, err := font.NewAtlas(1, fontPerPage)
	if err != nil {
		return nil, err
	}
	big, _ := font.NewAtlas(fontMaxScale, fontPerPage)
	scratch := max(qualityHigh*qualityHigh*4, big.PageBytes(), levelSize*levelSize*4)
	t := &textures{tx: tx, atlas: a, pix: make([]byte, scratch), font: make([]descriptors.Handle, a.Pages)}
	for i := range 4 {
		t.pix[i] = 0xff
	}
	if t.white, err = tx.Create(1, 1, t.pix[:4]); err != nil {
		return nil, fmt.Errorf("stress: white texture: %w", err)
	}
	t.made++
	if err := t.bakeFont(2); err != nil {
		return nil, err
	}
	if err := t.loadQuality(); err != nil {
		return nil, err
	}
	if err := t.loadLevel(); err != nil {
		return nil, err
	}
	// The start-up bake is the level load, not churn.
	t.rebakes = 0
	return t, nil
}

func (t *textures) create(w, h int, rgba []byte) descriptors.Handle {
	hd, err := t.tx.Create(w, h, rgba)
	if err != nil {
		t.fail(err)
		return descriptors.Handle{}
	}
	t.made++
	return hd
}

func (t *textures) free(h *descriptors.Handle) {
	if h.IsZero() {
		return
	}
	if err := t.tx.Free(*h); err != nil {
		t.fail(err)
	}
	*h = descriptors.Handle{}
	t.freed++
}

// fail counts a refused Create or Free and keeps the first error. The
// heap's error is its own and describes only its latest refusal, so the
// first one is copied out (a failure path: the run fails on it anyway).
func (t *textures) fail(err error) {
	t.failures++
	if t.firstErr == nil {
		t.firstErr = fmt.Errorf("%w", err)
	}
}

// bakeFont rebakes the atlas at scale, as a window resize does: every page
// is freed and made again, so its slots are retired and recycled.
func (t *textures) bakeFont(scale int) error {
	a, err := font.NewAtlas(scale, fontPerPage)
	if err != nil {
		return fmt.Errorf("stress: font rebake: %w", err)
	}
	for i := range t.font {
		t.free(&t.font[i])
	}
	t.atlas = a
	page := t.pix[:a.PageBytes()]
	for i := range t.font {
		if err := a.BakePage(i, page); err != nil {
			return fmt.Errorf("stress: font rebake: %w", err)
		}
		t.font[i] = t.create(a.PageW, a.PageH, page)
	}
	t.rebakes++
	return nil
}

// swapQuality replaces the 30 quality textures at the other resolution.
func (t *textures) swapQuality() {
	t.high = !t.high
	for i := range t.quality {
		t.free(&t.quality[i])
	}
	_ = t.loadQuality()
	t.swaps++
}

func (t *textures) loadQuality() error {
	n := qualityLow
	if t.high {
		n = qualityHigh
	}
	for i := range t.quality {
		px := t.pix[:n*n*4]
		pattern(px, uint64(i)<<32|uint64(n))
		t.quality[i] = t.create(n, n, px)
	}
	return t.firstErr
}

// transition frees the level's textures and loads the next level's.
func (t *textures) transition() {
	for i := range t.level {
		t.free(&t.level[i])
	}
	t.levelNo++
	_ = t.loadLevel()
	t.levels++
}

func (t *textures) loadLevel() error {
	px := t.pix[:levelSize*levelSize*4]
	for i := range t.level {
		pattern(px, t.levelNo<<16|uint64(i))
		// Opaque, so sprites drawn with them are visible.
		for a := 3; a < len(px); a += 4 {
			px[a] = 0xff
		}
		t.level[i] = t.create(levelSize, levelSize, px)
	}
	return t.firstErr
}

// releaseAll frees every texture, for teardown.
func (t *textures) releaseAll() {
	t.free(&t.white)
	for i := range t.font {
		t.free(&t.font[i])
	}
	for i := range t.quality {
		t.free(&t.quality[i])
	}
	for i := range t.level {
		t.free(&t.level[i])
	}
}

// pattern fills b with bytes derived from seed: cheap, deterministic and
// allocation-free, so uploads carry data that differs frame to frame.
func pattern(b []byte, seed uint64) {
	x := seed*0x9e3779b97f4a7c15 | 1
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		binary.LittleEndian.PutUint64(b[i:], x)
	}
	for ; i < len(b); i++ {
		b[i] = byte(x >> (8 * (i & 7)))
	}
}
