package main

import (
	"fmt"
	"log/slog"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/internal/spritegl"
	"github.com/steadyframe/steadyframe/internal/sprites"
)

// The -sprite-path values: bind draws the sprites as quads, binding each
// level texture per draw (one draw per run of sprites sharing a
// texture); array draws them from a texture array, one draw a frame.
const (
	pathBind  = "bind"
	pathArray = "array"
)

// Sprite textures of the array path: as many, and as large, as the level
// textures the bind path draws with, in an array with room for the ones
// churned out and waiting for their frames.
const (
	arrayTextures = scene.LevelTextures
	arrayLayers   = 256
	arraySize     = 16
	// arrayChurn is how many sprite textures the array path frees and
	// makes again each frame, so its Create and Free run under the guard.
	arrayChurn = 1
)

// spriteDraw is how the render goroutine draws sprites, on either path,
// and what it counted: the draw calls, and with a window the GPU time of
// the sprite draws from timer queries.
type spriteDraw struct {
	arr    *spritegl.Array // nil on the bind path
	timer  *spritegl.Timer // nil headless
	layer  func(i int) uint32
	draws  uint64 // sprite draw calls
	frames uint64 // frames that drew sprites
}

// openSpriteArray makes the array path's textures and program, and has
// the scene close them before the heap in teardown.
func (r *renderer) openSpriteArray(logger *slog.Logger) error {
	rs := r.scene
	if rs.Window == nil {
		return nil
	}
	timer := spritegl.NewTimer()
	r.spr.timer = timer
	var arr *spritegl.Array
	if r.cfg.spritePath == pathArray {
		var err error
		arr, err = spritegl.New(spritegl.Desc{Textures: arrayTextures, Size: arraySize, Layers: arrayLayers,
			Staging: r.arenas[scene.ArenaRenderer], Buffer: rs.Window.Buffer,
			Heap: descriptors.HeapDesc{Clock: rs.Clock, Logger: logger}})
		if err != nil {
			timer.Release()
			return fmt.Errorf("stress: sprite array: %w", err)
		}
		r.spr.arr = arr
		n := r.cfg.Sprites
		r.spr.layer = func(i int) uint32 { return arr.Layer(i * arrayTextures / n) }
	}
	// The array's textures are freed, and its frames drained, in the
	// descriptors-close stage, after the scene's drain: the scene's plan
	// names only its own owners.
	rs.CloseFirst(func() error {
		timer.Release()
		if arr == nil {
			return nil
		}
		if err := arr.Release(); err != nil {
			return err
		}
		if err := rs.Clock.Drain(); err != nil {
			return err
		}
		return arr.Close()
	})
	return nil
}

// drawSpriteArray moves the sprites, churns the array's textures and
// writes one instance per sprite into the sprites arena. It returns the
// arena offset and the instances written.
func (r *renderer) drawSpriteArray(w, h float32) (int, int) {
	if err := r.spr.arr.Churn(arrayChurn); err != nil {
		r.fail(err)
	}
	off, view, ok := r.arenas[scene.ArenaSprites].TryAlloc(r.sprites.Len()*sprites.InstanceBytes, 16)
	if !ok {
		return 0, 0 // counted by the arena, reported as its failures
	}
	r.sprites.Step(1.0/60, w, h)
	return off, r.sprites.WriteInstances(view, r.spr.layer)
}

// section is the report's sprites section.
func (s *spriteDraw) section(path string, n int) spriteSection {
	sec := spriteSection{Path: path, Sprites: n, Textures: arrayTextures}
	if s.frames > 0 {
		sec.DrawsPerFrame = float64(s.draws) / float64(s.frames)
	}
	if s.timer != nil {
		h := s.timer.Histogram()
		sec.GPUTimed, sec.GPULate = h.Count(), s.timer.Late()
		sec.GPUMean, sec.GPUP50, sec.GPUP99 = toUS(h.Mean()), toUS(h.Quantile(0.5)), toUS(h.Quantile(0.99))
	}
	if s.arr != nil {
		st := s.arr.Stats()
		sec.Layers, sec.Churned = st.Capacity, st.Freed
	}
	return sec
}

// spriteSection is how the sprites were drawn: the path, draw calls a
// frame, the GPU time of the sprite draws (timer queries; headless has
// none) and, on the array path, its layers and churned textures.
type spriteSection struct {
	Path          string  `json:"path"`
	Sprites       int     `json:"sprites"`
	Textures      int     `json:"textures"`
	DrawsPerFrame float64 `json:"draws_per_frame"`
	GPUTimed      uint64  `json:"gpu_timed_frames"`
	GPULate       uint64  `json:"gpu_results_late"`
	GPUMean       us      `json:"gpu_mean_us"`
	GPUP50        us      `json:"gpu_p50_us"`
	GPUP99        us      `json:"gpu_p99_us"`
	Layers        int     `json:"array_layers,omitempty"`
	Churned       uint64  `json:"array_textures_churned,omitempty"`
}

// text is the report's sprites line.
func (s spriteSection) text() string {
	if s.DrawsPerFrame == 0 {
		return fmt.Sprintf("path %s: %d sprites over %d textures, not drawn (headless)", s.Path, s.Sprites, s.Textures)
	}
	line := fmt.Sprintf("path %s: %d sprites over %d textures, %.2f draws a frame", s.Path, s.Sprites, s.Textures, s.DrawsPerFrame)
	if s.GPUTimed > 0 {
		line += fmt.Sprintf("; GPU time of the sprite draws p50 %.1f µs, p99 %.1f µs, mean %.1f µs (%d frames timed, %d late)",
			s.GPUP50, s.GPUP99, s.GPUMean, s.GPUTimed, s.GPULate)
	}
	if s.Layers > 0 {
		line += fmt.Sprintf("; %d textures churned through %d layers", s.Churned, s.Layers)
	}
	return line
}
