package guard_test

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"

	"github.com/steadyframe/steadyframe/lifetime/guard"
)

// A guard self-test: a deliberate allocation in an armed frame must be
// caught and named, or the guard proves nothing. The guard counts windows
// of frames; the flagged window names the poke's site, and the frames
// after it are counted one by one, so a poke there is named with its
// frame. Verdict, at the end of the run, checks the last window.
func Example() {
	// A program calls EnableSiteProfiling first thing in main; this example
	// restores the rate so the package's benchmarks are not slowed by it.
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	guard.EnableSiteProfiling()

	g, err := guard.New(guard.Desc{
		Settle:    2,
		Window:    4,
		MinFrames: 12,
		Sites:     true,
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		panic(err)
	}
	for frame := 1; frame <= 14; frame++ {
		g.BeginFrame()
		if frame == 4 || frame == 8 {
			guard.AllocPoke()
		}
		g.EndFrame()
	}
	verdict := g.Verdict()
	r := g.Report()
	fmt.Println("frames", r.Frames, "armed", r.Armed, "violations", r.Violations)
	fmt.Println("counted alone", r.PerFrame, "in windows", r.InWindows, "narrowed", r.Narrowed)
	for _, v := range r.Log {
		for _, s := range v.Sites {
			switch {
			case s.Allowed != "":
				// The runtime's own (a new OS thread), with its reason.
			case v.Frame == v.Last:
				fmt.Printf("frame %d allocated at %s\n", v.Frame, s.Function)
			default:
				fmt.Printf("frames %d-%d allocated at %s\n", v.Frame, v.Last, s.Function)
			}
		}
	}
	fmt.Println("allocation:", errors.Is(verdict, guard.ErrAllocation))
	// Output:
	// frames 14 armed 12 violations 2
	// counted alone 6 in windows 6 narrowed [{7 12}]
	// frames 3-6 allocated at github.com/steadyframe/steadyframe/lifetime/guard.AllocPoke
	// frame 8 allocated at github.com/steadyframe/steadyframe/lifetime/guard.AllocPoke
	// allocation: true
}
