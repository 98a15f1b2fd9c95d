package guard

import (
	"fmt"
	"testing"
)

// TestGuardNoGapAfterFlaggedWindow: an allocation between the frame that
// closes a flagged window and the next frame is counted by the next span
// and named, and so is one after a tolerated window. The guard's own
// reporting, in between, is not.
func TestGuardNoGapAfterFlaggedWindow(t *testing.T) {
	allow := []Allow{{Site: "github.com/steadyframe/steadyframe/lifetime/guard.thirdPartyAlloc", Reason: "stands in for a dependency's audio callback"}}
	for _, c := range []struct {
		name  string
		inner func() // inside the window that is reported
	}{
		{"flagged", AllocPoke},
		{"tolerated", thirdPartyAlloc},
	} {
		for _, window := range []int{4, DefaultWindow} {
			t.Run(fmt.Sprintf("%s/window=%d", c.name, window), func(t *testing.T) {
				exactSession(t, 3, func() error {
					g, _ := newTestGuard(t, Desc{Settle: 1, Window: window, Sites: true, Allow: allow})
					frame := func() { g.BeginFrame(); g.EndFrame() }
					frame() // settling
					g.BeginFrame()
					c.inner() // frame 2, in the window 2..
					g.EndFrame()
					// Until the frame whose end reports that window: the
					// counters, since Report would allocate. (Waiting for
					// the window's frame count to clear instead ran one
					// frame further on the old code, past the gap.)
					for g.violations+g.tolerated == 0 {
						frame()
					}
					last := g.frames
					gapAlloc() // between two frames, right after the report
					for range window {
						frame()
					}
					g.CloseWindow()
					r := g.Report()
					for _, v := range r.Log {
						if s, ok := siteNamed(v.Sites, gapFunc); ok && v.Frame == last+1 && s.Allocs == 1 {
							return nil
						}
					}
					return fmt.Errorf("the allocation after frame %d is not reported: violations %+v, tolerated %d", last, r.Log, r.Tolerated)
				})
			})
		}
	}
}

const gapFunc = "github.com/steadyframe/steadyframe/lifetime/guard.gapAlloc"

// gapAlloc makes one allocation that only these tests make.
//
//go:noinline
func gapAlloc() { gapSink = new([40]byte) }

var gapSink *[40]byte
