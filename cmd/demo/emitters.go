package main

import (
	"strconv"
	"time"

	"github.com/steadyframe/steadyframe/internal/quads"
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/voices"
)

// World map geometry, in framebuffer pixels: a square in the window's
// bottom-left corner. The screenshot test samples it.
const (
	mapSize   = 240
	mapMargin = 12
	emitDot   = 4 // an emitter's square
	lisDot    = 10
)

// World map colours (0xRRGGBBAA); the test looks for them.
const (
	colMapBg    = 0x1e2434ff
	colReal     = 0xffd23fff // an emitter the mixer mixes
	colVirtual  = 0x5c5236ff // one it only tracks in time
	colListener = 0x7fffd4ff
)

// worldMap draws the scene's emitters and the listener from above, each
// emitter lit while it is real and dim while it is virtual. Its writer is
// reused every frame. It belongs to the render goroutine.
type worldMap struct {
	q     *quads.Writer
	start time.Time
}

func newWorldMap() (*worldMap, error) {
	q, err := quads.NewWriter(1)
	if err != nil {
		return nil, err
	}
	return &worldMap{q: q, start: time.Now()}, nil
}

// step moves the emitters and the listener to this frame's places.
func (m *worldMap) step(d *demo) { d.emit.Step(time.Since(m.start)) }

// mapOrigin is the map's top-left corner in a window winH pixels high.
func mapOrigin(winH int) (x, y float32) {
	return mapMargin, float32(winH - mapMargin - mapSize)
}

// toMap places world point p (x right, z toward the viewer) on the map.
func toMap(p voices.Vec3, x0, y0 float32) (x, y float32) {
	const s = mapSize / (2 * scene.WorldHalf)
	return x0 + (p.X+scene.WorldHalf)*s, y0 + (p.Z+scene.WorldHalf)*s
}

// draw writes the map into the renderer arena and draws it.
func (m *worldMap) draw(d *demo) error {
	n := d.emit.Len()
	off, err := d.begin(m.q, scene.ArenaRenderer, n+3)
	if err != nil {
		return err
	}
	white := d.r.Tex.Name(d.tex.White())
	_, h := d.win.Size()
	x0, y0 := mapOrigin(h)
	m.q.Fill(white, x0, y0, x0+mapSize, y0+mapSize, colMapBg)
	for i := range n {
		col := uint32(colVirtual)
		if mixed(d.snd.Engine, d.emit.Handle(i)) {
			col = colReal
		}
		x, y := toMap(d.emit.Position(i), x0, y0)
		m.q.Fill(white, x-emitDot/2, y-emitDot/2, x+emitDot/2, y+emitDot/2, col)
	}
	l := d.emit.Listener()
	x, y := toMap(l.Position, x0, y0)
	m.q.Fill(white, x-lisDot/2, y-lisDot/2, x+lisDot/2, y+lisDot/2, colListener)
	// A tick ahead of the listener shows which way it faces.
	fx, fy := x+l.Forward.X*lisDot, y+l.Forward.Z*lisDot
	m.q.Fill(white, fx-2, fy-2, fx+2, fy+2, colListener)
	d.win.Draw(off, m.q.Runs())
	return nil
}

// mixed reports whether h's sound is mixed: playing, and real at the
// mixer's last ranking.
func mixed(e *voices.Engine, h voices.Handle) bool {
	virtual, ok := e.Virtual(h)
	return ok && !virtual
}

// scale writes the panel's line of the game's scale: the emitters, the
// real and virtual sounds, the swaps between them and the music stream's
// underruns.
func (p *panel) scale(w *quads.Writer, d *demo, x, y float32, vs *voices.Stats) {
	p.text = append(p.text[:0], "EMITTERS "...)
	p.text = strconv.AppendInt(p.text, int64(d.emit.Len()), 10)
	p.text = append(p.text, "  REAL "...)
	p.text = strconv.AppendInt(p.text, int64(vs.Real), 10)
	p.text = append(p.text, "  VIRTUAL "...)
	p.text = strconv.AppendInt(p.text, int64(vs.Virtual), 10)
	p.text = append(p.text, "  SWAPS "...)
	p.text = strconv.AppendUint(p.text, vs.Swaps, 10)
	p.text = append(p.text, "  STREAM UNDERRUNS "...)
	p.text = strconv.AppendUint(p.text, vs.StreamUnderruns, 10)
	p.draw(w, d, x, y, colText)
}
