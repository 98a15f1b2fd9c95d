package font

import (
	"errors"
	"fmt"
)

// Glyph metrics in font pixels; multiply by the atlas scale for screen
// pixels.
const (
	GlyphW     = 3
	GlyphH     = 5
	Advance    = GlyphW + 1
	LineHeight = GlyphH + 2
	// pad is the empty border, in font pixels scaled, around each glyph
	// cell so that sampling at a cell edge never reads a neighbour.
	pad = 1
)

// ErrInvalid is returned for an atlas configuration or buffer that cannot
// work; the wrapping message names the value.
var ErrInvalid = errors.New("font: invalid argument")

// Glyphs returns the number of glyphs in the face.
func Glyphs() int { return len(glyphRows) }

// Atlas is the layout of the face baked at one scale into pages of
// PerPage glyphs each. It is immutable and safe for concurrent use.
type Atlas struct {
	Scale   int // screen pixels per font pixel
	PerPage int // glyphs per page
	Pages   int // pages (textures) the face needs
	PageW   int // page width in pixels
	PageH   int // page height in pixels
	index   [128]int16
}

// NewAtlas lays out the face at scale (1..64) with perPage glyphs per page
// (1..Glyphs()).
func NewAtlas(scale, perPage int) (Atlas, error) {
	if scale < 1 || scale > 64 {
		return Atlas{}, fmt.Errorf("%w: scale %d (want 1..64)", ErrInvalid, scale)
	}
	if perPage < 1 || perPage > Glyphs() {
		return Atlas{}, fmt.Errorf("%w: %d glyphs per page (want 1..%d)", ErrInvalid, perPage, Glyphs())
	}
	a := Atlas{
		Scale:   scale,
		PerPage: perPage,
		Pages:   (Glyphs() + perPage - 1) / perPage,
		PageW:   perPage * (GlyphW + 2*pad) * scale,
		PageH:   (GlyphH + 2*pad) * scale,
	}
	for i := range a.index {
		a.index[i] = -1
	}
	for g, gr := range glyphRows {
		a.index[gr.r] = int16(g)
	}
	return a, nil
}

// PageBytes returns the size of one RGBA8 page in bytes.
func (a *Atlas) PageBytes() int { return a.PageW * a.PageH * 4 }

// BakePage renders page into dst as RGBA8: white ink whose alpha is the
// coverage, transparent elsewhere. dst must hold exactly PageBytes bytes.
// It does not allocate.
func (a *Atlas) BakePage(page int, dst []byte) error {
	if page < 0 || page >= a.Pages {
		return fmt.Errorf("%w: page %d of %d", ErrInvalid, page, a.Pages)
	}
	if len(dst) != a.PageBytes() {
		return fmt.Errorf("%w: page buffer %d bytes, want %d", ErrInvalid, len(dst), a.PageBytes())
	}
	clear(dst)
	cellW := (GlyphW + 2*pad) * a.Scale
	for slot := 0; slot < a.PerPage; slot++ {
		g := page*a.PerPage + slot
		if g >= Glyphs() {
			break
		}
		for gy := 0; gy < GlyphH; gy++ {
			for gx := 0; gx < GlyphW; gx++ {
				if !inked(g, gx, gy) {
					continue
				}
				x0 := slot*cellW + (gx+pad)*a.Scale
				y0 := (gy + pad) * a.Scale
				for y := y0; y < y0+a.Scale; y++ {
					row := dst[(y*a.PageW+x0)*4 : (y*a.PageW+x0+a.Scale)*4]
					for i := range row {
						row[i] = 0xff
					}
				}
			}
		}
	}
	return nil
}

// Quad is one glyph placed on screen: a page and the pixel rectangle it
// covers, with normalised texture coordinates into that page.
type Quad struct {
	Page           int
	X0, Y0, X1, Y1 float32
	U0, V0, U1, V1 float32
}

// Layout appends a quad for every visible glyph of text drawn with its top
// left corner at (x, y), y growing downwards, and returns the extended
// slice. Lower-case letters are drawn as capitals; runes the face lacks are
// drawn as '?'; spaces advance without a quad; '\n' starts a new line.
// With enough capacity in dst it does not allocate.
func Layout[S ~string | ~[]byte](a *Atlas, dst []Quad, text S, x, y float32) []Quad {
	s := float32(a.Scale)
	cx := x
	cellW := float32((GlyphW + 2*pad) * a.Scale)
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\n' {
			cx = x
			y += LineHeight * s
			continue
		}
		if c == ' ' {
			cx += Advance * s
			continue
		}
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		g := int16(-1)
		if c < 128 {
			g = a.index[c]
		}
		if g < 0 {
			g = a.index['?']
		}
		page, slot := int(g)/a.PerPage, int(g)%a.PerPage
		u0 := (float32(slot)*cellW + pad*s) / float32(a.PageW)
		u1 := u0 + GlyphW*s/float32(a.PageW)
		v0 := pad * s / float32(a.PageH)
		v1 := v0 + GlyphH*s/float32(a.PageH)
		dst = append(dst, Quad{
			Page: page,
			X0:   cx, Y0: y, X1: cx + GlyphW*s, Y1: y + GlyphH*s,
			U0: u0, V0: v0, U1: u1, V1: v1,
		})
		cx += Advance * s
	}
	return dst
}

// Width returns the width in pixels of the longest line of text.
func Width(a *Atlas, text string) float32 {
	w, line := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			line = 0
			continue
		}
		line++
		w = max(w, line)
	}
	if w == 0 {
		return 0
	}
	return float32((w*Advance - 1) * a.Scale)
}
