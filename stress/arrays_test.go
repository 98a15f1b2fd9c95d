package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// The gate with real OpenGL on the texture-array path: the sprites are
// drawn in one draw a frame from an array whose textures churn every
// frame, with no allocation in the steady frames, and the bind path
// draws the same sprites in a draw per texture run.
func TestGLRunPassesOnBothSpritePaths(t *testing.T) {
	if _, err := exec.LookPath("Xvfb"); err != nil && os.Getenv("DISPLAY") == "" {
		testenv.SkipOrFail(t, "no DISPLAY and no Xvfb: the GL stress run needs X")
	}
	for _, path := range []string{pathArray, pathBind} {
		dir := t.TempDir()
		const frames = 420
		res := runChild(t, 5*time.Minute, "-audio", "offline", "-frames", "420", "-settle", "100", "-sprites", "200",
			"-churn-rate", "30", "-sprite-path", path, "-report", dir)
		r := readReport(t, dir)
		checkPassed(t, res, r, frames)
		s := r.Sprites
		t.Logf("%s: %s", path, s.text())
		if s.Path != path || r.Config.SpritePath != path || s.Sprites != 200 || s.GPUTimed == 0 {
			t.Errorf("%s: sprites section %+v", path, s)
		}
		switch path {
		case pathArray:
			if s.DrawsPerFrame != 1 || s.Layers != arrayLayers || s.Churned < frames {
				t.Errorf("array path: %.2f draws a frame, %d layers, %d churned in %d frames", s.DrawsPerFrame, s.Layers, s.Churned, frames)
			}
		case pathBind:
			if s.DrawsPerFrame < 100 || s.Layers != 0 {
				t.Errorf("bind path: %.2f draws a frame for 200 sprites over 194 textures", s.DrawsPerFrame)
			}
		}
		if !strings.Contains(res.stdout, "  sprites    path "+path+": 200 sprites over 194 textures") {
			t.Errorf("%s: no sprites line in the report:\n%s", path, tail(res.stdout, 40))
		}
	}
}
