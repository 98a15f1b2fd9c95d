package frame_test

import (
	"fmt"

	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// textures stands in for a manager that frees descriptor slots.
type textures struct{}

func (textures) Release(slot uint64) { fmt.Println("released texture slot", slot) }

// A texture dropped in frame 1 may still be read by the device until frame
// 1's fence signals, so its slot is released through Deferred, which runs
// it once Frames reports frame 1 complete.
func ExampleClock() {
	frames, err := frame.NewClock(frame.ClockDesc{}) // 3 in flight, CPU fences
	if err != nil {
		panic(err)
	}
	release, err := frame.NewDeferred(256)
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
