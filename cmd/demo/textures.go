package main

import (
	"fmt"
	"strconv"

	"github.com/go-gl/gl/v4.5-core/gl"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/internal/font"
)

// The demo's textures: 30 sprite textures at one of two qualities, a
// white texel for untextured quads, and the font atlas pages.
const (
	qualityTextures = 30
	qualityLow      = 32
	qualityHigh     = 64
	fontPerPage     = 4
)

// textureSet is the demo's texture population. It belongs to the render
// goroutine.
type textureSet struct {
	mgr     *gltex.Manager
	white   descriptors.Handle
	quality [qualityTextures]descriptors.Handle
	font    []descriptors.Handle
	atlas   font.Atlas
	high    bool
	rebakes int
	swaps   int
	// recycled counts the slots a rebake or swap got back from the free
	// list rather than from fresh heap space: the panel shows it.
	recycled uint64
	// slots is fontSlots formatted once per rebake, so the panel does not
	// build a string every frame.
	slots string
	// pix is the pixel scratch every rebake and swap fills in turn (Create
	// copies it before returning), so a churn frame allocates no pixels.
	pix []byte
}

// scratch returns pix resized to n bytes, growing it only for a size
// larger than any before.
func (t *textureSet) scratch(n int) []byte {
	if cap(t.pix) < n {
		t.pix = make([]byte, n)
	}
	return t.pix[:n]
}

func newTextureSet(mgr *gltex.Manager, scale int) (*textureSet, error) {
	t := &textureSet{mgr: mgr}
	var err error
	if t.white, err = mgr.Create(1, 1, gltex.FormatRGBA8, []byte{255, 255, 255, 255}); err != nil {
		return nil, err
	}
	if err := t.loadQuality(); err != nil {
		return nil, err
	}
	if err := t.rebakeFont(scale); err != nil {
		return nil, err
	}
	t.rebakes = 0
	return t, nil
}

// name returns the GL texture of h, 0 if h is stale.
func (t *textureSet) name(h descriptors.Handle) uint32 {
	n, err := t.mgr.Texture(h)
	if err != nil {
		return 0
	}
	return n
}

// rebakeFont frees the atlas pages and bakes them again at scale. The
// freed slots retire after the frames in flight and are reused LIFO, so a
// second rebake lands on the slots the first one freed.
func (t *textureSet) rebakeFont(scale int) error {
	a, err := font.NewAtlas(scale, fontPerPage)
	if err != nil {
		return err
	}
	for _, h := range t.font {
		if err := t.mgr.Free(h); err != nil {
			return err
		}
	}
	t.font = t.font[:0]
	before := t.mgr.Heap().Stats().Recycled
	page := t.scratch(a.PageBytes())
	for p := 0; p < a.Pages; p++ {
		if err := a.BakePage(p, page); err != nil {
			return err
		}
		h, err := t.mgr.Create(a.PageW, a.PageH, gltex.FormatRGBA8, page)
		if err != nil {
			return fmt.Errorf("demo: font page %d: %w", p, err)
		}
		// Whole font pixels: sample without blurring the glyph edges.
		name := t.name(h)
		gl.TextureParameteri(name, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
		gl.TextureParameteri(name, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
		t.font = append(t.font, h)
	}
	t.recycled += t.mgr.Heap().Stats().Recycled - before
	t.atlas = a
	t.rebakes++
	t.slots = t.fontSlots()
	return nil
}

// swapQuality replaces all 30 sprite textures at the other resolution.
func (t *textureSet) swapQuality() error {
	for i, h := range t.quality {
		if err := t.mgr.Free(h); err != nil {
			return err
		}
		t.quality[i] = descriptors.Handle{}
	}
	t.high = !t.high
	before := t.mgr.Heap().Stats().Recycled
	err := t.loadQuality()
	t.recycled += t.mgr.Heap().Stats().Recycled - before
	t.swaps++
	return err
}

func (t *textureSet) loadQuality() error {
	n := qualityLow
	if t.high {
		n = qualityHigh
	}
	px := t.scratch(n * n * 4)
	for i := range t.quality {
		checker(px, n, i, t.high)
		h, err := t.mgr.Create(n, n, gltex.FormatRGBA8, px)
		if err != nil {
			return fmt.Errorf("demo: quality texture %d: %w", i, err)
		}
		t.quality[i] = h
	}
	return nil
}

// checker paints texture i: a hue from i, a checkerboard whose squares are
// finer at high quality, and a lighter rim, so a swap is visible.
func checker(px []byte, n, i int, high bool) {
	r, g, b := hue(float32(i) / qualityTextures)
	cell := n / 4
	if high {
		cell = n / 16
	}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			k := 0.65
			if (x/cell+y/cell)%2 == 0 {
				k = 1
			}
			if x == 0 || y == 0 || x == n-1 || y == n-1 {
				k = 1.3
			}
			o := (y*n + x) * 4
			px[o] = byte(min(255, float64(r)*k))
			px[o+1] = byte(min(255, float64(g)*k))
			px[o+2] = byte(min(255, float64(b)*k))
			px[o+3] = 255
		}
	}
}

// hue maps h in [0, 1) to a saturated colour.
func hue(h float32) (r, g, b uint8) {
	s := h * 6
	f := s - float32(int(s))
	up, down := uint8(200*f), uint8(200*(1-f))
	switch int(s) % 6 {
	case 0:
		return 200, up, 0
	case 1:
		return down, 200, 0
	case 2:
		return 0, 200, up
	case 3:
		return 0, down, 200
	case 4:
		return up, 0, 200
	}
	return 200, 0, down
}

// fontSlots lists the atlas pages' slot indices, "3-16" when they are
// consecutive, for the log and the panel.
func (t *textureSet) fontSlots() string {
	if len(t.font) == 0 {
		return "none"
	}
	first, last := int(t.font[0].Index()), int(t.font[len(t.font)-1].Index())
	consecutive := true
	for i, h := range t.font {
		if int(h.Index()) != first+i && int(h.Index()) != first-i {
			consecutive = false
		}
	}
	if consecutive {
		return strconv.Itoa(min(first, last)) + "-" + strconv.Itoa(max(first, last))
	}
	s := ""
	for i, h := range t.font {
		if i > 0 {
			s += ","
		}
		s += strconv.Itoa(int(h.Index()))
	}
	return s
}

// release frees every texture, for teardown.
func (t *textureSet) release() error {
	var first error
	free := func(h descriptors.Handle) {
		if h.IsZero() {
			return
		}
		if err := t.mgr.Free(h); err != nil && first == nil {
			first = fmt.Errorf("%w", err) // the heap's error describes only its latest refusal
		}
	}
	free(t.white)
	for _, h := range t.quality {
		free(h)
	}
	for _, h := range t.font {
		free(h)
	}
	t.white, t.quality, t.font = descriptors.Handle{}, [qualityTextures]descriptors.Handle{}, nil
	return first
}
