package main

import (
	"fmt"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/internal/spritegl"
	"github.com/steadyframe/steadyframe/internal/sprites"
)

// The -sprite-path values, as the stress tool has them: bind draws the
// sprites as quads with a texture bound per run, array from a texture
// array in one draw a frame.
const (
	pathBind  = "bind"
	pathArray = "array"
)

// The array path's sprite textures: as many, and as large, as the
// quality textures the bind path draws with, one churned each frame.
const (
	arrayTextures = scene.QualityTextures
	arraySize     = 32
	arrayLayers   = 64
)

// spriteDraw is the sprite path's state and counts: draw calls and the
// sprite draws' GPU time from timer queries.
type spriteDraw struct {
	arr    *spritegl.Array // nil on the bind path
	timer  *spritegl.Timer
	layer  func(i int) uint32
	draws  uint64
	frames uint64
}

// openSprites makes the timer and, with -sprite-path array, the array;
// the scene's descriptors-close stage frees and closes them.
func (d *demo) openSprites() error {
	timer := spritegl.NewTimer()
	d.spr.timer = timer
	var arr *spritegl.Array
	if d.opt.spritePath == pathArray {
		var err error
		arr, err = spritegl.New(spritegl.Desc{Textures: arrayTextures, Size: arraySize, Layers: arrayLayers,
			Staging: d.r.Set.Arena(scene.ArenaRenderer), Buffer: d.win.Buffer,
			Heap: descriptors.HeapDesc{Clock: d.r.Clock, Logger: d.log}})
		if err != nil {
			timer.Release()
			return err
		}
		d.spr.arr = arr
		n := d.sim.Len()
		d.spr.layer = func(i int) uint32 { return arr.Layer(i * arrayTextures / n) }
	}
	d.r.CloseFirst(func() error {
		timer.Release()
		if arr == nil {
			return nil
		}
		if err := arr.Release(); err != nil {
			return err
		}
		if err := d.r.Clock.Drain(); err != nil {
			return err
		}
		return arr.Close()
	})
	return nil
}

// drawSprites draws the sprites on the chosen path, timed.
func (d *demo) drawSprites() error {
	d.spr.timer.Begin()
	defer d.spr.timer.End()
	d.spr.frames++
	if d.spr.arr == nil {
		off, err := d.begin(d.spriteQuads, scene.ArenaSprites, d.sim.Len())
		if err != nil {
			return err
		}
		d.sim.Write(d.spriteQuads, d.spriteTex)
		d.win.Draw(off, d.spriteQuads.Runs())
		d.spr.draws += uint64(len(d.spriteQuads.Runs()))
		return nil
	}
	if err := d.spr.arr.Churn(1); err != nil {
		return err
	}
	off, view, err := d.r.Set.Arena(scene.ArenaSprites).Alloc(d.sim.Len()*sprites.InstanceBytes, 16)
	if err != nil {
		return fmt.Errorf("%w (%v)", err, d.r.Set.Arena(scene.ArenaSprites).LastRefusal()) // ends the run
	}
	w, h := d.win.Size()
	n := d.sim.WriteInstances(view, d.spr.layer)
	d.win.Flush() // the instances reach the buffer on 4.1 and 3.3
	d.spr.arr.Draw(d.win.Buffer, off, n, w, h)
	d.spr.draws++
	return nil
}

// logSprites logs, once the frames are done, how the sprites were drawn.
func (d *demo) logSprites() {
	if d.spr.frames == 0 {
		return
	}
	h := d.spr.timer.Histogram()
	d.log.Info("demo: sprites", "path", d.opt.spritePath, "sprites", d.sim.Len(),
		"draws_per_frame", float64(d.spr.draws)/float64(d.spr.frames),
		"gpu_p50_us", h.Quantile(0.5).Microseconds(), "gpu_mean_us", h.Mean().Microseconds())
}
