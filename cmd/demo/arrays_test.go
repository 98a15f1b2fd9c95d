package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// The demo on each sprite path: the array path draws its sprites in one
// draw a frame, the bind path in one per quality texture, and both tear
// down cleanly (the array closes in the descriptors-close stage).
func TestSpritePaths(t *testing.T) {
	if _, err := exec.LookPath("Xvfb"); err != nil && os.Getenv("DISPLAY") == "" {
		testenv.SkipOrFail(t, "no DISPLAY and no Xvfb: the demo needs X")
	}
	for path, want := range map[string]string{
		pathArray: "path=array sprites=300 draws_per_frame=1 ",
		pathBind:  "path=bind sprites=300 draws_per_frame=30 ",
	} {
		args := []string{"-frames", "120", "-auto", "-audio", "offline", "-sprite-path", path}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"=1", argsEnv+"="+strings.Join(args, "\x1f"))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		timer := time.AfterFunc(4*time.Minute, func() { _ = cmd.Process.Kill() })
		err := cmd.Run()
		timer.Stop()
		if err != nil {
			t.Fatalf("demo -sprite-path %s: %v\n%s", path, err, stderr.String())
		}
		log := stderr.String()
		for _, w := range []string{want, "stage=descriptors-close", "teardown: done"} {
			if !strings.Contains(log, w) {
				t.Errorf("-sprite-path %s: log lacks %q:\n%s", path, w, log)
			}
		}
	}
}
