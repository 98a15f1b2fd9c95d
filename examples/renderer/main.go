// Command renderer is steadyframe's integration guide: a small OpenGL
// renderer that embeds the library the way an application does. It is a
// module of its own. So it reaches the library through its public
// packages only, on a window and GL context it makes itself.
//
// Each frame it draws a few textured quads:
//
//   - The textures live in the descriptor heap (descriptors/gltex),
//     uploaded through a staging arena.
//   - The vertices are written into an upload arena (upload,
//     upload/glbuf).
//   - One frame clock fenced with GL sync objects (lifetime/frame,
//     lifetime/glfence) drives them all.
//
// Now and then it replaces a texture (deferred deletion). It loads a
// "level" whose buffer is recycled through frame.Deferred. It plays a
// short tone a few times (voices). It shuts down in a declared order
// (lifetime/teardown).
//
//	go run . -frames 300
//	go run . -frames 120 -verify -hidden
//	go run . -frames 480 -guard -hidden
//
// -verify reads every live texture back with glGetTexImage and compares
// it with the pixels uploaded. It prints "verify: N textures, M
// mismatches" and exits 1 on any mismatch. -guard wraps every frame in the
// allocation guard (lifetime/guard) and exits 1 if a steady frame
// allocates. It needs 420 frames or more for a verdict (120 to settle,
// 300 checked).
package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"runtime"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/descriptors/gltex"
	"github.com/steadyframe/steadyframe/lifetime/frame"
	"github.com/steadyframe/steadyframe/lifetime/glfence"
	"github.com/steadyframe/steadyframe/lifetime/guard"
	"github.com/steadyframe/steadyframe/upload"
	"github.com/steadyframe/steadyframe/upload/glbuf"
	"github.com/steadyframe/steadyframe/voices/otodev"
)

// GLFW and the GL context belong to the main OS thread: keep main there.
func init() { runtime.LockOSThread() }

func main() {
	frames := flag.Int("frames", 300, "frames to run before exiting")
	verify := flag.Bool("verify", false, "read the textures back at the end and compare them with what was uploaded")
	hidden := flag.Bool("hidden", false, "do not show the window")
	corrupt := flag.Bool("corrupt", false, "with -verify, change one byte of what it expects, to prove that it catches a mismatch")
	guarded := flag.Bool("guard", false, "check that steady frames allocate nothing (lifetime/guard), naming the sites if one does")
	flag.Parse()
	if *guarded {
		// Before anything allocates: the guard names sites from the
		// memory profile, which must record every allocation.
		guard.EnableSiteProfiling()
	}
	if err := run(*frames, *verify, *hidden, *corrupt, *guarded); err != nil {
		fmt.Fprintln(os.Stderr, "renderer:", err)
		os.Exit(1)
	}
}

// app is everything the renderer owns, in the order it makes them.
type app struct {
	win   *glfw.Window
	clock *frame.Clock
	set   *upload.Set
	tex   *gltex.Manager
	scene *scene
	audio *audio
	guard *guard.Guard // nil without -guard
}

func run(frames int, verify, hidden, corrupt, guarded bool) error {
	a, err := setUp(hidden)
	if err == nil && guarded {
		a.guard, err = guard.New(guard.Desc{Sites: true, Allow: []guard.Allow{otodev.GuardAllow()},
			Logger: slog.New(slog.NewTextHandler(os.Stderr, nil))})
	}
	if err != nil {
		// A failed set-up exits the process, which takes the context and
		// the sound device with it; the ordered teardown is for a run.
		return err
	}
	plan, err := a.teardownPlan(slog.New(slog.NewTextHandler(os.Stderr, nil)))
	if err != nil {
		return err
	}
	loopErr := a.loop(frames)
	var verifyErr error
	if verify && loopErr == nil {
		if corrupt {
			a.scene.quads[0].pixels[0]++
		}
		n, bad := a.scene.verify()
		fmt.Printf("verify: %d textures, %d mismatches\n", n, bad)
		if bad > 0 {
			verifyErr = fmt.Errorf("%d of %d textures differ from what was uploaded", bad, n)
		}
	}
	return errors.Join(loopErr, verifyErr, plan.Run())
}

func setUp(hidden bool) (*app, error) {
	a := &app{}
	var err error
	if a.win, err = openWindow(hidden); err != nil {
		return nil, err
	}
	// The frame clock: three frames in flight, each fenced with a GL sync
	// object (glfence.New checks the context first). Every per-frame
	// manager below follows it; the renderer opens and closes frames on
	// the clock alone and never hands a manager a frame serial.
	if a.clock, err = frame.NewClock(frame.ClockDesc{NewFence: glfence.New}); err != nil {
		return nil, err
	}
	// The upload arenas, in the renderer's own layout: per frame, 64 KiB
	// of vertices and 1 MiB of texture staging, in one GL buffer of three
	// frames' worth, mapped once for its whole life. The Set owns the
	// buffer (glbuf) and closes it; the renderer owns the clock.
	buf, err := glbuf.New()
	if err != nil {
		return nil, err
	}
	a.set, err = upload.NewSet(upload.SetDesc{Clock: a.clock, Backend: buf, Arenas: []upload.ArenaDesc{
		{Name: "vertices", Size: 64 << 10}, {Name: "staging", Size: 1 << 20}}})
	if err != nil {
		return nil, err
	}
	// The descriptor heap and its GL textures. The heap never grows by
	// itself: 64 slots hold the 8 live textures and those whose deletion
	// waits for the frames in flight. Create copies pixels into the
	// staging arena, which GL then reads as a pixel unpack buffer.
	a.tex, err = gltex.New(gltex.Desc{
		Heap:    descriptors.HeapDesc{Clock: a.clock, Name: "textures", Capacity: 64},
		Staging: a.set.ArenaNamed("staging"), StagingBuffer: buf.Buffer(),
	})
	if err != nil {
		return nil, err
	}
	a.scene = &scene{tex: a.tex, verts: a.set.ArenaNamed("vertices"), vbuf: buf.Buffer()}
	if a.scene.pipe, err = newPipeline(); err != nil {
		return nil, err
	}
	if a.scene.levels, err = newLevels(a.clock); err != nil {
		return nil, err
	}
	if a.audio, err = newAudio(); err != nil {
		return nil, err
	}
	return a, nil
}

// loop runs the frames. Each frame is opened and closed on the clock
// alone; the heap, the arenas and the Deferred hear about it from there.
func (a *app) loop(frames int) error {
	// go-gl/glfw's GetFramebufferSize allocates (its C out-parameters
	// escape), so it is read once here and then kept current by the
	// resize callback, which glfw.PollEvents runs on this thread.
	w, h := a.win.GetFramebufferSize()
	a.win.SetFramebufferSizeCallback(func(_ *glfw.Window, fw, fh int) { w, h = fw, fh })
	for f := 0; f < frames && !a.win.ShouldClose(); f++ {
		if a.guard != nil {
			a.guard.BeginFrame()
		}
		// Waits for the fence of the frame that last used this frame's
		// arena regions (three frames ago), then tells the followers what
		// has completed: the heap deletes the textures freed in completed
		// frames, the Deferred hands back level buffers, the arenas open.
		if _, err := a.clock.BeginFrame(); err != nil {
			return err
		}
		if err := a.scene.update(f); err != nil {
			return err
		}
		if err := a.audio.tick(f); err != nil {
			return err
		}
		if err := a.scene.draw(f, w, h); err != nil {
			return err
		}
		// Closes the arenas, then fences every command issued this frame.
		if err := a.clock.EndFrame(); err != nil {
			return err
		}
		a.win.SwapBuffers()
		glfw.PollEvents()
		if a.guard != nil {
			a.guard.EndFrame()
		}
	}
	// The guard's last window is open until its verdict, and the report
	// below allocates: the verdict comes first.
	var verdict error
	if a.guard != nil {
		verdict = a.guard.Verdict()
	}
	if e := gl.GetError(); e != gl.NO_ERROR {
		return fmt.Errorf("GL error 0x%x", e)
	}
	st := a.tex.Stats()
	fmt.Printf("renderer: %d frames on OpenGL %s\n", a.clock.Last(), gl.GoStr(gl.GetString(gl.VERSION)))
	fmt.Printf("textures: %d live, %d created, %d deleted, %d staged, %d direct\n",
		st.Heap.Live, st.Created, st.Deleted, st.Staged, st.Direct)
	fmt.Printf("levels: %d loaded into %d buffers\n", a.scene.levels.loaded, len(a.scene.levels.bufs))
	fmt.Printf("audio: tone played %d times on %s\n", a.audio.plays, a.audio.eng.Stats().Device.Name)
	if a.guard != nil {
		r := a.guard.Report()
		fmt.Printf("guard: %d frames checked, %d violating spans, %d tolerated\n", r.Armed, r.Violations, r.Tolerated)
	}
	return verdict
}
