package frame_test

import (
	"fmt"

	"github.com/steadyframe/steadyframe/lifetime/frame"
)

// textures is a minimal per-frame manager: a texture freed while frame N
// is the newest may still be sampled by frame N, so it is released only
// when the clock reports frame N complete.
type textures struct {
	clock   *frame.Clock
	pending []freed
}

type freed struct {
	name  string
	frame uint64
}

func (t *textures) Free(name string) {
	t.pending = append(t.pending, freed{name, t.clock.Last()})
}

func (t *textures) Retired(completed uint64) {
	for len(t.pending) > 0 && t.pending[0].frame <= completed {
		fmt.Println("released", t.pending[0].name, "after frame", completed)
		t.pending = t.pending[1:]
	}
}

func (t *textures) FrameBegun(serial uint64) {}
func (t *textures) FrameEnded(serial uint64) {}

// A manager follows the clock, so the renderer opens and closes each
// frame in one place and never hands the manager a serial.
func ExampleFollower() {
	clock, _ := frame.NewClock(frame.ClockDesc{}) // 3 in flight, CPU fences
	tex := &textures{clock: clock}
	if err := clock.Follow(tex); err != nil {
		panic(err)
	}
	for i := 0; i < 3; i++ {
		serial, _ := clock.BeginFrame()
		fmt.Println("frame", serial, "completed through", clock.Completed())
		if serial == 1 {
			tex.Free("font")
		}
		_ = clock.EndFrame()
	}
	fmt.Println(clock.Close()) // refused: a manager still follows it
	_ = clock.Drain()
	_ = clock.Unfollow(tex)
	fmt.Println(clock.Close())
	// Output:
	// frame 1 completed through 0
	// released font after frame 1
	// frame 2 completed through 1
	// frame 3 completed through 2
	// frame: clock still has followers: 1 manager(s) still follow the clock; close them first
	// <nil>
}

// buffers stands in for the GL buffers a renderer deletes.
type buffers struct{}

func (buffers) Release(name uint64) { fmt.Println("deleted buffer", name) }

// A vertex buffer replaced in frame 1 may still be read by the device
// until frame 1's fence signals, so its deletion goes through a Deferred,
// which follows the clock: Schedule keys the work to the clock's newest
// frame, and the clock runs it once that frame is complete. No serial
// passes through the caller's hands.
func ExampleDeferred() {
	clock, _ := frame.NewClock(frame.ClockDesc{})
	release, err := frame.NewDeferred(clock, 256)
	if err != nil {
		panic(err)
	}
	for i := 0; i < 3; i++ {
		serial, _ := clock.BeginFrame() // runs the work of completed frames
		fmt.Println("frame", serial)
		if serial == 1 {
			if err := release.Schedule(buffers{}, 7); err != nil {
				panic(err)
			}
		}
		_ = clock.EndFrame()
	}
	_ = clock.Drain()
	fmt.Println(release.Close(), clock.Close())
	// Output:
	// frame 1
	// deleted buffer 7
	// frame 2
	// frame 3
	// <nil> <nil>
}
