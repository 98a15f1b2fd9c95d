package main

import (
	"log/slog"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/steadyframe/steadyframe/lifetime/teardown"
)

// teardownPlan declares the shutdown order: each stage names the stages
// it must follow, and Uses records what a stage releases that another
// still uses, so a wrong order is reported by Validate at start-up instead
// of a use-after-free at exit.
func (a *app) teardownPlan(logger *slog.Logger) (*teardown.Plan, error) {
	p := teardown.New(logger)
	for _, err := range []error{
		// Sound: stop every voice, then the tone's memory is ours again
		// (the bank's Release proves no voice reads it), then the engine.
		p.Add("voices-stopall", func() error { return a.audio.eng.StopAll(time.Second) }),
		p.Add("sound-memory", func() error { return a.audio.bank.Release(time.Second) }, "voices-stopall"),
		p.Add("audio-engine", func() error { return a.audio.eng.Close() }, "sound-memory"),

		// GL: free the textures and the level buffer, drain the frames in
		// flight (which deletes the textures and runs the Deferred), close
		// the managers, then the clock, then the context its fences live in.
		p.Add("textures-free", a.scene.free),
		p.Add("clock-drain", a.clock.Drain, "textures-free"),
		p.Add("textures-close", a.tex.Close, "clock-drain"),
		p.Add("level-buffers", a.scene.levels.close, "clock-drain"),
		p.Add("upload-set", a.set.Close, "clock-drain"),
		p.Add("gl-pipeline", func() error { a.scene.pipe.delete(); return nil }, "clock-drain"),
		p.Add("clock-close", a.clock.Close, "textures-close", "level-buffers", "upload-set"),
		p.Add("window", func() error { a.win.Destroy(); glfw.Terminate(); return nil }, "clock-close", "gl-pipeline"),

		p.Uses("voices-stopall", "sound-memory"), // the mixer reads the tone until StopAll
		p.Uses("clock-drain", "upload-set"),      // frames in flight read the arenas until the drain
		p.Uses("clock-close", "window"),          // the clock's GL fences live in the window's context
	} {
		if err != nil {
			return nil, err
		}
	}
	if _, err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}
