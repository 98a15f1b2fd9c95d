package guard_test

import (
	"fmt"
	"io"
	"log/slog"
	"runtime"

	"github.com/steadyframe/steadyframe/lifetime/guard"
)

// A guard self-test: a deliberate allocation in an armed frame must be
// caught and named, or the guard proves nothing.
func Example() {
	// A program calls EnableSiteProfiling first thing in main; this example
	// restores the rate so the package's benchmarks are not slowed by it.
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	guard.EnableSiteProfiling()

	g, err := guard.New(guard.Desc{
		Settle: 2,
		Sites:  true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		panic(err)
	}
	for frame := 1; frame <= 5; frame++ {
		g.BeginFrame()
		if frame == 4 {
			guard.AllocPoke()
		}
		g.EndFrame()
	}
	r := g.Report()
	fmt.Println("frames", r.Frames, "armed", r.Armed, "violations", r.Violations)
	for _, v := range r.Log {
		for _, s := range v.Sites {
			if s.Allowed == "" {
				fmt.Println("frame", v.Frame, "allocated at", s.Function)
			}
		}
	}
	// Output:
	// frames 5 armed 3 violations 1
	// frame 4 allocated at github.com/steadyframe/steadyframe/lifetime/guard.AllocPoke
}
