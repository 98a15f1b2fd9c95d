package main

import (
	"strconv"

	"github.com/steadyframe/steadyframe/internal/quads"
	"github.com/steadyframe/steadyframe/internal/scene"
)

// Overlay geometry, in framebuffer pixels: the graphs stack down the
// window's right edge, the slot map below them. The screenshot test
// samples these places.
const (
	graphW        = 360
	graphH        = 64
	graphGap      = 14
	graphTop      = 12
	graphRight    = 12 // margin from the window's right edge
	graphCount    = 4
	graphMaxQuads = 1024
	slotCell      = 5 // a slot's cell, with a pixel of gap
	slotCols      = graphW / (slotCell + 1)
	slotMapTop    = graphTop + graphCount*(graphH+graphGap)
)

// The graphs, top to bottom.
const (
	graphDescriptors = iota
	graphFrameTime
	graphArenas
	graphVoices
)

// Overlay colours (0xRRGGBBAA); the test looks for them.
const (
	colGraphBg   = 0x101018ff
	colFrameTime = 0x7fdbffff
	colVoice     = 0xb10dc9ff
	colFrameLine = 0x5a5a66ff
	colSlotFree  = 0x3a3a46ff
	colSlotNever = 0x1c1c24ff
)

var arenaCol = [scene.ArenaCount]uint32{0xff4136ff, 0x2ecc40ff, 0x39a0ffff}

// frameTimeTop is the frame-time graph's ceiling.
const frameTimeTop = 50.0 // ms

// overlay is the performance overlay: history graphs of descriptor
// occupancy (live and pending stacked, the high-water mark, the 75% and
// 90% lines), frame time, upload arena use and voices over the last
// histLen frames, and the slot map, one cell per descriptor slot. Each
// graph is one quads.Writer over its own allocation in the renderer
// arena, all white-texel quads, so one draw call; nothing allocates per
// frame. It belongs to the render goroutine.
type overlay struct {
	hist   history
	graphs [graphCount]*quads.Writer
	slots  *quads.Writer
}

func newOverlay() (*overlay, error) {
	o := &overlay{}
	var err error
	for k := range o.graphs {
		if o.graphs[k], err = quads.NewWriter(1); err != nil {
			return nil, err
		}
	}
	if o.slots, err = quads.NewWriter(1); err != nil {
		return nil, err
	}
	return o, nil
}

// graphX is the graphs' left edge in a window winW pixels wide.
func graphX(winW int) float32 { return float32(winW - graphRight - graphW) }

// graphY is graph k's top edge.
func graphY(k int) float32 { return float32(graphTop + k*(graphH+graphGap)) }

// slotMapQuads is the slot map's quads for a heap of capacity slots.
func slotMapQuads(capacity int) int { return capacity + 1 }

// draw writes and draws every graph and the slot map: one draw call each.
func (o *overlay) draw(d *demo) error {
	white := d.r.Tex.Name(d.tex.White())
	w, _ := d.win.Size()
	x := graphX(w)
	for k, g := range o.graphs {
		off, err := d.begin(g, scene.ArenaRenderer, graphMaxQuads)
		if err != nil {
			return err
		}
		o.writeGraph(g, k, x, graphY(k), white)
		d.win.Draw(off, g.Runs())
	}
	capacity := d.r.Heap.Capacity()
	off, err := d.begin(o.slots, scene.ArenaRenderer, slotMapQuads(capacity))
	if err != nil {
		return err
	}
	writeSlotMap(o.slots, d.slots, d.r.Clock.Stats().Completed, x, slotMapTop, white)
	d.win.Draw(off, o.slots.Runs())
	return nil
}

// writeGraph lays graph k out at (x, y), oldest frame on the left.
func (o *overlay) writeGraph(w *quads.Writer, k int, x, y float32, white uint32) {
	const colW = float32(graphW) / histLen
	w.Fill(white, x, y, x+graphW, y+graphH, colGraphBg)
	bottom := y + graphH
	h := float32(graphH)
	level := func(v, top float32) float32 { return bottom - h*min(max(v/top, 0), 1) }
	n := o.hist.len()
	for i := range n {
		s := o.hist.at(i)
		cx := x + float32(histLen-n+i)*colW
		switch k {
		case graphDescriptors:
			c := float32(max(s.capacity, 1))
			live := level(float32(s.live), c)
			pend := level(float32(s.live+s.pending), c)
			w.Fill(white, cx, live, cx+colW, bottom, colLive)
			w.Fill(white, cx, pend, cx+colW, live, colPending)
			hw := level(float32(s.highWater), c)
			w.Fill(white, cx, hw-1, cx+colW, hw+1, colPeak)
		case graphFrameTime:
			ms := float32(s.frameTime.Microseconds()) / 1000
			w.Fill(white, cx, level(ms, frameTimeTop), cx+colW, bottom, colFrameTime)
		case graphArenas:
			for a, pct := range s.arenaPct {
				yy := level(pct, 100)
				w.Fill(white, cx, yy-1, cx+colW, yy+1, arenaCol[a])
			}
		case graphVoices:
			w.Fill(white, cx, level(float32(s.voices), float32(max(s.maxVoices, 1))), cx+colW, bottom, colVoice)
		}
	}
	switch k {
	case graphDescriptors:
		for _, m := range [...]struct {
			pct float32
			col uint32
		}{{0.75, colMark75}, {0.90, colMark90}} {
			yy := bottom - h*m.pct
			w.Fill(white, x, yy-1, x+graphW, yy+1, m.col)
		}
	case graphFrameTime:
		yy := level(1000.0/60, frameTimeTop)
		w.Fill(white, x, yy, x+graphW, yy+1, colFrameLine)
	}
}

// writeSlotMap lays out one cell per slot of t's heap at (x, y), slotCols
// to a row: live, pending, free (used before) and never used told apart
// by colour.
func writeSlotMap(w *quads.Writer, t *slotTracker, completed uint64, x, y float32, white uint32) {
	rows := (len(t.live) + slotCols - 1) / slotCols
	w.Fill(white, x-2, y-2, x+slotCols*(slotCell+1)+1, y+float32(rows*(slotCell+1))+1, colGraphBg)
	for i := range t.live {
		var col uint32 = colSlotNever
		switch t.state(i, completed) {
		case slotLive:
			col = colLive
		case slotPending:
			col = colPending
		case slotFree:
			col = colSlotFree
		}
		cx := x + float32(i%slotCols*(slotCell+1))
		cy := y + float32(i/slotCols*(slotCell+1))
		w.Fill(white, cx, cy, cx+slotCell, cy+slotCell, col)
	}
}

// overlayText writes the graphs' titles, with their latest values, into
// the panel's text draw.
func (p *panel) overlayText(w *quads.Writer, d *demo) {
	ww, _ := d.win.Size()
	x := graphX(ww) + 4
	o := d.overlay
	if o.hist.len() == 0 {
		return
	}
	s := o.hist.at(o.hist.len() - 1)
	for k := range graphCount {
		y := graphY(k) + 3
		b := p.text[:0]
		switch k {
		case graphDescriptors:
			b = append(b, "DESCRIPTORS LIVE "...)
			b = strconv.AppendInt(b, int64(s.live), 10)
			b = append(b, " PENDING "...)
			b = strconv.AppendInt(b, int64(s.pending), 10)
			b = append(b, " HW "...)
			b = strconv.AppendInt(b, int64(s.highWater), 10)
		case graphFrameTime:
			b = append(b, "FRAME "...)
			b = strconv.AppendFloat(b, float64(s.frameTime.Microseconds())/1000, 'f', 1, 64)
			b = append(b, " MS"...)
		case graphArenas:
			b = append(b, "UPLOAD ARENAS % R S P"...)
		case graphVoices:
			b = append(b, "VOICES "...)
			b = strconv.AppendInt(b, int64(s.voices), 10)
			b = append(b, " OF "...)
			b = strconv.AppendInt(b, int64(s.maxVoices), 10)
		}
		p.text = b
		p.draw(w, d, x, y, colText)
	}
	p.text = append(p.text[:0], "SLOTS  "...)
	p.text = d.storms.appendStatus(p.text)
	p.draw(w, d, x-4, float32(slotMapTop)+float32((d.r.Heap.Capacity()+slotCols-1)/slotCols*(slotCell+1))+6, colDim)
}
