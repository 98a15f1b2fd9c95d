package main

import (
	"strconv"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/font"
	"github.com/steadyframe/steadyframe/internal/quads"
	"github.com/steadyframe/steadyframe/internal/scene"
)

// Panel geometry, in framebuffer pixels from the top-left corner. The
// screenshot test samples the descriptor bar at these coordinates.
const (
	panelX        = 12
	panelY        = 12
	panelW        = 460
	panelPad      = 10
	barW          = panelW - 2*panelPad
	barH          = 18
	panelMaxQuads = 2048
)

// Panel colours (0xRRGGBBAA). The test looks for the bar's track and the
// two warning marks by colour.
const (
	colPanel   = 0x000000c8
	colTrack   = 0x3a3a46ff
	colLive    = 0x2ecc40ff
	colPending = 0xff851bff
	colPeak    = 0xffffffff
	colMark75  = 0xffdc00ff
	colMark90  = 0xff4136ff
	colArena   = 0x39a0ffff
	colText    = 0xe8e8e8ff
	colDim     = 0x9a9aa8ff
)

// panel draws the on-screen statistics: the descriptor bar with its
// 75%/90% marks, arena use per consumer and the active voices. Its text
// buffer is reused every frame. It belongs to the render goroutine.
type panel struct {
	text []byte
}

func newPanel() *panel { return &panel{text: make([]byte, 0, 256)} }

// write lays the panel out into w for this frame.
func (p *panel) write(w *quads.Writer, d *demo) {
	t := d.tex
	white := d.r.Tex.Name(t.White())
	a := t.Atlas()
	lineH := float32(font.LineHeight * a.Scale)
	y := float32(panelY + panelPad)
	x := float32(panelX + panelPad)
	hs := d.r.Heap.Stats()
	ts := t.Stats()

	// Background first, so everything else draws over it; its height is
	// known from the line count.
	lines := 8 + scene.ArenaCount
	height := float32(panelPad*2) + lineH*float32(lines) + barH + 8 + float32(3*(8+4))
	w.Fill(white, panelX, panelY, panelX+panelW, panelY+height, colPanel)

	p.line(w, d, x, y, colText, "STEADYFRAME DEMO  FRAME ", int64(d.frame))
	y += lineH
	p.text = append(p.text[:0], "DESCRIPTORS LIVE "...)
	p.text = strconv.AppendInt(p.text, int64(hs.Live), 10)
	p.text = append(p.text, "  PEAK "...)
	p.text = strconv.AppendInt(p.text, int64(hs.Peak), 10)
	p.text = append(p.text, "  PENDING "...)
	p.text = strconv.AppendInt(p.text, int64(hs.Pending), 10)
	p.text = append(p.text, "  CAP "...)
	p.text = strconv.AppendInt(p.text, int64(hs.Capacity), 10)
	p.draw(w, d, x, y, colText)
	y += lineH
	descriptorBar(w, white, x, y, hs)
	y += barH + 8

	p.text = append(p.text[:0], "FONT SLOTS "...)
	p.text = append(p.text, d.fontSlots...)
	p.text = append(p.text, "  REBAKES "...)
	p.text = strconv.AppendUint(p.text, ts.Rebakes, 10)
	p.text = append(p.text, "  RECYCLED "...)
	p.text = strconv.AppendUint(p.text, ts.Recycled, 10)
	p.draw(w, d, x, y, colDim)
	y += lineH
	for k := 0; k < scene.ArenaCount; k++ {
		s := d.r.Set.Arena(k).Stats()
		p.text = append(p.text[:0], s.Name...)
		p.text = append(p.text, ' ')
		p.text = strconv.AppendInt(p.text, int64(s.Used/1024), 10)
		p.text = append(p.text, " KB OF "...)
		p.text = strconv.AppendInt(p.text, int64(s.Capacity/1024), 10)
		p.text = append(p.text, " KB  PEAK "...)
		p.text = strconv.AppendInt(p.text, int64(s.Peak/1024), 10)
		p.draw(w, d, x, y, colText)
		y += lineH
		frac := float32(s.Used) / float32(max(s.Capacity, 1))
		w.Fill(white, x, y, x+barW, y+8, colTrack)
		w.Fill(white, x, y, x+max(2, barW*frac), y+8, colArena)
		y += 12
	}
	vs := d.snd.Engine.Stats()
	p.text = append(p.text[:0], "VOICES "...)
	p.text = strconv.AppendInt(p.text, int64(vs.Active), 10)
	p.text = append(p.text, " OF "...)
	p.text = strconv.AppendInt(p.text, int64(vs.MaxVoices), 10)
	p.text = append(p.text, "  PEAK "...)
	p.text = strconv.AppendInt(p.text, int64(vs.Peak), 10)
	p.text = append(p.text, "  STOLEN "...)
	p.text = strconv.AppendUint(p.text, vs.Steals, 10)
	p.draw(w, d, x, y, colText)
	y += lineH
	p.scale(w, d, x, y, &vs)
	y += lineH
	// Each bus's peak over the last block, in percent of full scale.
	p.text = p.text[:0]
	for _, b := range vs.Buses[1:vs.NumBuses] {
		for i := 0; i < len(b.Name); i++ {
			p.text = append(p.text, b.Name[i]&^0x20) // the atlas's capitals
		}
		p.text = append(p.text, ' ')
		p.text = strconv.AppendInt(p.text, int64(b.Level*100+0.5), 10)
		if b.Paused {
			p.text = append(p.text, " PAUSED"...)
		}
		p.text = append(p.text, "  "...)
	}
	p.draw(w, d, x, y, colText)
	y += lineH
	p.text = append(p.text[:0], "Q QUALITY "...)
	if t.High() {
		p.text = append(p.text, "HIGH"...)
	} else {
		p.text = append(p.text, "LOW"...)
	}
	p.text = append(p.text, "  R REBAKE  P PAUSE WORLD  SPACE SOUND  ESC QUIT"...)
	p.draw(w, d, x, y, colDim)
	y += lineH
	p.text = append(p.text[:0], "L LEAK OR FIX  V VOICE STORM  U UPLOAD FLOOD"...)
	p.draw(w, d, x, y, colDim)
	p.overlayText(w, d)
}

// descriptorBar draws live and pending occupancy over a track, the peak
// as a white tick, and the 75% and 90% warning marks.
func descriptorBar(w *quads.Writer, white uint32, x, y float32, s descriptors.Stats) {
	c := float32(max(s.Capacity, 1))
	w.Fill(white, x, y, x+barW, y+barH, colTrack)
	live := barW * float32(s.Live) / c
	pend := barW * float32(s.Pending) / c
	w.Fill(white, x, y, x+live, y+barH, colLive)
	w.Fill(white, x+live, y, x+live+pend, y+barH, colPending)
	peak := x + barW*float32(s.Peak)/c
	w.Fill(white, peak-1, y-3, peak+1, y+barH+3, colPeak)
	m75 := x + barW*0.75
	m90 := x + barW*0.90
	w.Fill(white, m75-2, y-4, m75+2, y+barH+4, colMark75)
	w.Fill(white, m90-2, y-4, m90+2, y+barH+4, colMark90)
}

func (p *panel) line(w *quads.Writer, d *demo, x, y float32, rgba uint32, s string, n int64) {
	p.text = append(p.text[:0], s...)
	p.text = strconv.AppendInt(p.text, n, 10)
	p.draw(w, d, x, y, rgba)
}

// draw lays p.text out with the atlas, one quad per glyph on its page.
func (p *panel) draw(w *quads.Writer, d *demo, x, y float32, rgba uint32) {
	var buf [96]font.Quad
	for _, q := range font.Layout(d.tex.Atlas(), buf[:0], p.text, x, y) {
		name := d.r.Tex.Name(d.tex.Font(q.Page))
		w.Quad(name, quads.Rect{X0: q.X0, Y0: q.Y0, X1: q.X1, Y1: q.Y1, U0: q.U0, V0: q.V0, U1: q.U1, V1: q.V1}, rgba)
	}
}
