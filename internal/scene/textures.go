package scene

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/font"
)

// Filter says how a texture is sampled between texels.
type Filter uint8

const (
	// FilterLinear blends neighbouring texels: sprites and level art.
	FilterLinear Filter = iota
	// FilterNearest keeps whole texels: font pages, whose glyph edges a
	// blend would blur.
	FilterNearest
)

// Texturer makes and frees the scene's textures: GL textures through
// descriptors/gltex in a window (OpenWindow), bare descriptor slots with
// their pixels staged through the renderer arena when headless
// (OpenHeadless). Create copies the pixels before it returns, so the
// caller may reuse its buffer at once. A Texturer belongs to the render
// goroutine.
type Texturer interface {
	Create(w, h int, rgba []byte, f Filter) (descriptors.Handle, error)
	Free(h descriptors.Handle) error
	// Name returns what a draw binds for h (a GL texture name); 0
	// headless or for a stale handle.
	Name(h descriptors.Handle) uint32
}

// The texture population, after the reference engine. A loaded level
// takes LoadedSlots slots: a white texel for untextured quads, the font
// atlas pages, QualityTextures quality textures and the level's own
// LevelTextures. Quality swaps replace all the quality textures at the
// other resolution. Font rebakes recycle the atlas pages. Level
// transitions free and reload the level set.
const (
	LevelTextures   = 194
	QualityTextures = 30
	// FontPages is how many pages the atlas takes at FontPerPage glyphs
	// each, whatever the scale.
	FontPages   = 14
	FontPerPage = 4
	// MaxFontScale is the largest font scale a rebake may ask for.
	MaxFontScale = 4
	// LoadedSlots is the descriptor slots the population holds once
	// loaded, and again after every churn event.
	LoadedSlots = 1 + FontPages + QualityTextures + LevelTextures

	levelSize   = 16
	qualityLow  = 32
	qualityHigh = 64
)

// TextureStats counts what the population has done since NewTextures
// (the load itself excluded from Rebakes). It is a plain value.
type TextureStats struct {
	Made, Freed uint64 // textures created and freed, the load included
	Rebakes     uint64 // font atlas rebakes
	Swaps       uint64 // quality swaps
	Levels      uint64 // level transitions
	// Recycled is the slots churn got back from the heap's free list
	// rather than from never-used slots: the heap's recycling since the
	// load, as the population is the heap's only user.
	Recycled uint64
	Failures uint64 // refused Creates and Frees; Err holds the first
}

// Textures is the scene's texture population and the churn it suffers.
// Its pixel scratch is allocated once at the largest size any churn event
// needs, so churn allocates nothing: a frame may rebake, swap and
// transition under the allocation guard. It belongs to the render
// goroutine.
type Textures struct {
	tx      Texturer
	heap    *descriptors.Heap
	white   descriptors.Handle
	level   [LevelTextures]descriptors.Handle
	quality [QualityTextures]descriptors.Handle
	font    [FontPages]descriptors.Handle
	atlas   font.Atlas
	high    bool
	levelNo uint64

	pix       []byte // scratch, large enough for any texture made here
	stats     TextureStats
	recycled0 uint64 // the heap's Recycled once the load was done
	firstErr  error
}

// NewTextures loads the population through tx at the given font scale
// (1..MaxFontScale): the level load, which a game runs before its frames
// are steady. heap is tx's heap, read for the recycling figure and told
// each texture's name (the leak report's and exhaustion record's).
func NewTextures(tx Texturer, heap *descriptors.Heap, fontScale int) (*Textures, error) {
	a, err := font.NewAtlas(clampScale(fontScale), FontPerPage)
	if err != nil {
		return nil, fmt.Errorf("scene: font atlas: %w", err)
	}
	if a.Pages != FontPages {
		return nil, fmt.Errorf("scene: the font takes %d pages, the population expects %d", a.Pages, FontPages)
	}
	big, err := font.NewAtlas(MaxFontScale, FontPerPage)
	if err != nil {
		return nil, fmt.Errorf("scene: font atlas: %w", err)
	}
	scratch := max(qualityHigh*qualityHigh*4, big.PageBytes(), levelSize*levelSize*4)
	t := &Textures{tx: tx, heap: heap, atlas: a, pix: make([]byte, scratch)}
	for i := range 4 {
		t.pix[i] = 0xff
	}
	t.white = t.named(t.create(1, 1, t.pix[:4], FilterLinear), whiteName)
	if err := t.bake(); err != nil {
		return nil, err
	}
	t.loadQuality()
	t.loadLevel()
	if t.firstErr != nil {
		return nil, fmt.Errorf("scene: loading textures: %w", t.firstErr)
	}
	t.recycled0 = heap.Stats().Recycled
	return t, nil
}

func clampScale(s int) int { return max(1, min(MaxFontScale, s)) }

// White returns the 1×1 white texture, for untextured quads.
func (t *Textures) White() descriptors.Handle { return t.white }

// Quality returns quality texture i (0..QualityTextures-1).
func (t *Textures) Quality(i int) descriptors.Handle { return t.quality[i] }

// Level returns level texture i (0..LevelTextures-1).
func (t *Textures) Level(i int) descriptors.Handle { return t.level[i] }

// Font returns the texture of atlas page p (0..FontPages-1).
func (t *Textures) Font(p int) descriptors.Handle { return t.font[p] }

// Atlas returns the font atlas the pages were baked with; valid until the
// next RebakeFont.
func (t *Textures) Atlas() *font.Atlas { return &t.atlas }

// High reports whether the quality textures are at high resolution.
func (t *Textures) High() bool { return t.high }

// Stats returns the population's counters.
func (t *Textures) Stats() TextureStats {
	s := t.stats
	s.Recycled = t.heap.Stats().Recycled - t.recycled0
	return s
}

// Err returns the first refused Create or Free, or nil.
func (t *Textures) Err() error { return t.firstErr }

// RebakeFont rebakes the atlas at scale (clamped to 1..MaxFontScale), as
// a window resize does: every page is freed and made again, so its slots
// retire and are recycled. It returns Err if anything was refused.
func (t *Textures) RebakeFont(scale int) error {
	a, err := font.NewAtlas(clampScale(scale), FontPerPage)
	if err != nil {
		return fmt.Errorf("scene: font rebake: %w", err)
	}
	t.freeAll(t.font[:])
	t.atlas = a
	if err := t.bake(); err != nil {
		return err
	}
	t.stats.Rebakes++
	return t.firstErr
}

func (t *Textures) bake() error {
	page := t.pix[:t.atlas.PageBytes()]
	for i := range t.font {
		if err := t.atlas.BakePage(i, page); err != nil {
			return fmt.Errorf("scene: font page %d: %w", i, err)
		}
		t.font[i] = t.named(t.create(t.atlas.PageW, t.atlas.PageH, page, FilterNearest), fontNames[i])
	}
	return nil
}

// SwapQuality replaces the quality textures at the other resolution. It
// returns Err if anything was refused.
func (t *Textures) SwapQuality() error {
	t.freeAll(t.quality[:])
	t.high = !t.high
	t.loadQuality()
	t.stats.Swaps++
	return t.firstErr
}

func (t *Textures) loadQuality() {
	n := qualityLow
	if t.high {
		n = qualityHigh
	}
	px := t.pix[:n*n*4]
	for i := range t.quality {
		checker(px, n, i, t.high)
		t.quality[i] = t.named(t.create(n, n, px, FilterLinear), qualityNames[i])
	}
}

// NextLevel frees the level's textures and loads the next level's. It
// returns Err if anything was refused.
func (t *Textures) NextLevel() error {
	t.freeAll(t.level[:])
	t.levelNo++
	t.loadLevel()
	t.stats.Levels++
	return t.firstErr
}

func (t *Textures) loadLevel() {
	px := t.pix[:levelSize*levelSize*4]
	for i := range t.level {
		Fill(px, t.levelNo<<16|uint64(i))
		// Opaque, so sprites drawn with them are visible.
		for a := 3; a < len(px); a += 4 {
			px[a] = 0xff
		}
		t.level[i] = t.named(t.create(levelSize, levelSize, px, FilterLinear), levelNames[i])
	}
}

// Release frees every texture, the teardown's textures-free stage; the
// slots are reclaimed when the frame clock drains. It returns Err if
// anything was refused, then or before.
func (t *Textures) Release() error {
	t.free(&t.white)
	t.freeAll(t.font[:])
	t.freeAll(t.quality[:])
	t.freeAll(t.level[:])
	return t.firstErr
}

func (t *Textures) create(w, h int, rgba []byte, f Filter) descriptors.Handle {
	hd, err := t.tx.Create(w, h, rgba, f)
	if err != nil {
		t.fail(err)
		return descriptors.Handle{}
	}
	t.stats.Made++
	return hd
}

func (t *Textures) free(h *descriptors.Handle) {
	if h.IsZero() {
		return
	}
	if err := t.tx.Free(*h); err != nil {
		t.fail(err)
	}
	*h = descriptors.Handle{}
	t.stats.Freed++
}

func (t *Textures) freeAll(hs []descriptors.Handle) {
	for i := range hs {
		t.free(&hs[i])
	}
}

// fail counts a refused Create or Free and keeps the first error. The
// heap's error is its own and describes only its latest refusal, so the
// first one is copied out (a failure path: the caller fails on it).
func (t *Textures) fail(err error) {
	t.stats.Failures++
	if t.firstErr == nil {
		t.firstErr = fmt.Errorf("%w", err)
	}
}

// FontSlots lists the atlas pages' slot indices, "3-16" when they are
// consecutive, for a log line or a panel. It allocates: call it once per
// rebake, outside guarded frames.
func (t *Textures) FontSlots() string {
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
	b := make([]byte, 0, 4*len(t.font))
	for i, h := range t.font {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(h.Index()), 10)
	}
	return string(b)
}

// Fill fills b with bytes derived from seed: cheap, deterministic and
// allocation-free, so each level's textures differ, and so does upload
// traffic from frame to frame.
func Fill(b []byte, seed uint64) {
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

// checker paints quality texture i at n×n: a hue from i, a checkerboard
// whose squares are finer at high quality, and a lighter rim, so a swap is
// visible on screen.
func checker(px []byte, n, i int, high bool) {
	r, g, b := hue(float32(i) / QualityTextures)
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
