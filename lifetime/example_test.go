package lifetime_test

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"time"

	"github.com/steadyframe/steadyframe/lifetime"
)

// textures stands in for a manager that frees descriptor slots.
type textures struct{}

func (textures) Release(slot uint64) { fmt.Println("released texture slot", slot) }

// A texture dropped in frame 1 may still be read by the device until frame
// 1's fence signals, so its slot is released through Deferred, which runs
// it once Frames reports frame 1 complete.
func ExampleFrames() {
	frames, err := lifetime.NewFrames(lifetime.FramesDesc{}) // 3 in flight, CPU fences
	if err != nil {
		panic(err)
	}
	release, err := lifetime.NewDeferred(256)
	if err != nil {
		panic(err)
	}
	for i := 0; i < 3; i++ {
		serial, err := frames.BeginFrame()
		if err != nil {
			panic(err)
		}
		fmt.Println("frame", serial, "completed through", frames.Completed())
		release.Run(frames.Completed())
		if serial == 1 {
			if err := release.Schedule(serial, textures{}, 7); err != nil {
				panic(err)
			}
		}
		if err := frames.EndFrame(); err != nil {
			panic(err)
		}
	}
	if err := frames.Drain(); err != nil {
		panic(err)
	}
	release.Run(frames.Completed())
	fmt.Println(release.Close(), frames.Close())
	// Output:
	// frame 1 completed through 0
	// frame 2 completed through 1
	// released texture slot 7
	// frame 3 completed through 2
	// <nil> <nil>
}

// The goroutine that frees a sound bank first tells the mixer to stop the
// voices reading it, then waits on the barrier for a whole mixer pass that
// began after the request: after that no voice references the bank.
func ExampleBarrier() {
	var barrier lifetime.Barrier
	commands := make(chan string, 8) // the mixer's command queue
	quit := make(chan struct{})
	mixerDone := make(chan struct{})
	go func() { // the audio goroutine owns the voices
		defer close(mixerDone)
		playing := map[string]bool{"explosion": true}
		for {
			select {
			case <-quit:
				return
			default:
			}
			if !barrier.Enter() {
				continue // seized: produce silence, touch nothing
			}
			for len(commands) > 0 {
				delete(playing, <-commands)
			}
			barrier.Exit()
			time.Sleep(time.Millisecond) // one audio block
		}
	}()

	commands <- "explosion" // publish first, then wait
	if err := barrier.Wait(time.Second); err != nil {
		// The owner is stalled (dead device): do its pass ourselves.
		if err := barrier.Seize(time.Second); err != nil {
			panic(err)
		}
		for len(commands) > 0 {
			<-commands
		}
		barrier.Unseize()
	}
	fmt.Println("bank freed: no voice reads it")
	close(quit)
	<-mixerDone
	// Output:
	// bank freed: no voice reads it
}

// Shutdown order is declared, not implied by construction order: sound
// memory follows the voices that read it, GL buffers follow the drain.
func ExampleTeardown() {
	// Drop times and durations so the example's output is stable.
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "duration" {
				return slog.Attr{}
			}
			return a
		},
	}))
	td := lifetime.NewTeardown(logger)
	step := func(what string) func() error {
		return func() error { fmt.Println(what); return nil }
	}
	for _, err := range []error{
		td.Add("sound-memory", step("free sound banks"), "voices-stopall"),
		td.Add("voices-stopall", step("stop every voice")),
		td.Add("frames-drain", step("drain frames in flight")),
		td.Add("gl-buffers", step("unmap and delete buffers"), "frames-drain"),
		td.Uses("voices-stopall", "sound-memory"),
	} {
		if err != nil {
			panic(err)
		}
	}
	fmt.Println(td.Run())
	// Output:
	// stop every voice
	// level=INFO msg="lifetime: teardown stage" stage=voices-stopall
	// free sound banks
	// level=INFO msg="lifetime: teardown stage" stage=sound-memory
	// drain frames in flight
	// level=INFO msg="lifetime: teardown stage" stage=frames-drain
	// unmap and delete buffers
	// level=INFO msg="lifetime: teardown stage" stage=gl-buffers
	// level=INFO msg="lifetime: teardown done" stages=4 failed=0
	// <nil>
}

// A guard self-test: a deliberate allocation in an armed frame must be
// caught and named, or the guard proves nothing.
func ExampleFrameGuard() {
	// A program calls EnableSiteProfiling first thing in main; this example
	// restores the rate so the package's benchmarks are not slowed by it.
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	lifetime.EnableSiteProfiling()

	guard, err := lifetime.NewFrameGuard(lifetime.GuardDesc{
		Settle: 2,
		Sites:  true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		panic(err)
	}
	for frame := 1; frame <= 5; frame++ {
		guard.BeginFrame()
		if frame == 4 {
			lifetime.AllocPoke()
		}
		guard.EndFrame()
	}
	r := guard.Report()
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
	// frame 4 allocated at github.com/steadyframe/steadyframe/lifetime.AllocPoke
}
