package font

import (
	"errors"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

func TestGlyphTableWellFormed(t *testing.T) {
	seen := map[rune]bool{}
	for _, g := range glyphRows {
		if seen[g.r] {
			t.Errorf("glyph %q defined twice", g.r)
		}
		seen[g.r] = true
		if len(g.rows) != GlyphH*4-1 {
			t.Errorf("glyph %q: rows %q have length %d, want %d", g.r, g.rows, len(g.rows), GlyphH*4-1)
			continue
		}
		for i, c := range g.rows {
			want := "01"
			if i%4 == 3 {
				want = " "
			}
			if !strings.ContainsRune(want, c) {
				t.Errorf("glyph %q: byte %d is %q, want one of %q", g.r, i, c, want)
			}
		}
	}
	for _, r := range "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ/%.:-?" {
		if !seen[r] {
			t.Errorf("face lacks %q", r)
		}
	}
}

func TestBakeInkMatchesGlyphs(t *testing.T) {
	for _, scale := range []int{1, 2, 3} {
		a, err := NewAtlas(scale, 5)
		if err != nil {
			t.Fatal(err)
		}
		wantInk := 0
		for g := range glyphRows {
			wantInk += strings.Count(glyphRows[g].rows, "1") * scale * scale
		}
		gotInk := 0
		buf := make([]byte, a.PageBytes())
		for p := 0; p < a.Pages; p++ {
			if err := a.BakePage(p, buf); err != nil {
				t.Fatal(err)
			}
			for i := 3; i < len(buf); i += 4 {
				if buf[i] == 0xff {
					gotInk++
				}
			}
		}
		if gotInk != wantInk {
			t.Errorf("scale %d: %d ink pixels baked, want %d", scale, gotInk, wantInk)
		}
	}
}

func TestLayoutSamplesInk(t *testing.T) {
	a, _ := NewAtlas(2, 8)
	pages := make([][]byte, a.Pages)
	for p := range pages {
		pages[p] = make([]byte, a.PageBytes())
		if err := a.BakePage(p, pages[p]); err != nil {
			t.Fatal(err)
		}
	}
	// The top-left font pixel of '7' is ink and its bottom-left is not:
	// sample both through the quad's texture coordinates.
	q := Layout(&a, nil, "7", 10, 20)
	if len(q) != 1 {
		t.Fatalf("%d quads for one glyph", len(q))
	}
	at := func(u, v float32) byte {
		x, y := int(u*float32(a.PageW)), int(v*float32(a.PageH))
		return pages[q[0].Page][(y*a.PageW+x)*4+3]
	}
	du := (q[0].U1 - q[0].U0) / GlyphW / 2
	dv := (q[0].V1 - q[0].V0) / GlyphH / 2
	if at(q[0].U0+du, q[0].V0+dv) != 0xff {
		t.Error("top-left pixel of '7' not inked in the atlas")
	}
	if at(q[0].U0+du, q[0].V1-dv) != 0 {
		t.Error("bottom-left pixel of '7' inked in the atlas")
	}
	if q[0].X0 != 10 || q[0].Y0 != 20 || q[0].X1 != 10+GlyphW*2 || q[0].Y1 != 20+GlyphH*2 {
		t.Errorf("quad placed at %+v", q[0])
	}
}

func TestLayoutSpacesNewlinesUnknown(t *testing.T) {
	a, _ := NewAtlas(1, 4)
	q := Layout(&a, nil, "a b\n~", 0, 0)
	if len(q) != 3 {
		t.Fatalf("%d quads, want 3", len(q))
	}
	if q[1].X0 != 2*Advance {
		t.Errorf("second glyph at x=%v, want %v", q[1].X0, 2*Advance)
	}
	if q[2].X0 != 0 || q[2].Y0 != LineHeight {
		t.Errorf("glyph after newline at (%v,%v)", q[2].X0, q[2].Y0)
	}
	if w := Width(&a, "ab\nabcd"); w != 4*Advance-1 {
		t.Errorf("Width = %v", w)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		scale, per int
	}{{0, 4}, {65, 4}, {1, 0}, {1, Glyphs() + 1}} {
		if _, err := NewAtlas(c.scale, c.per); !errors.Is(err, ErrInvalid) {
			t.Errorf("NewAtlas(%d, %d) = %v, want ErrInvalid", c.scale, c.per, err)
		}
	}
	a, _ := NewAtlas(1, 4)
	if err := a.BakePage(a.Pages, make([]byte, a.PageBytes())); !errors.Is(err, ErrInvalid) {
		t.Errorf("page out of range: %v", err)
	}
	if err := a.BakePage(0, make([]byte, 3)); !errors.Is(err, ErrInvalid) {
		t.Errorf("short buffer: %v", err)
	}
}

func TestLayoutAllocs(t *testing.T) {
	a, _ := NewAtlas(2, 8)
	buf := make([]Quad, 0, 64)
	text := []byte("LIVE 239/1024")
	testenv.NoAllocs(t, "Layout", 100, func() { buf = Layout(&a, buf[:0], text, 0, 0) })
}

func BenchmarkLayout(b *testing.B) {
	a, _ := NewAtlas(2, 8)
	buf := make([]Quad, 0, 64)
	text := []byte("LIVE 239/1024 PEAK 275")
	b.ReportAllocs()
	for b.Loop() {
		buf = Layout(&a, buf[:0], text, 0, 0)
	}
}
