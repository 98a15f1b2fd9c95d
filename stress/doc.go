// Command stress is steadyframe's stress tool and steady-frame gate: a
// simulated game that hammers every manager from several goroutines while
// the allocation guard checks that steady frames allocate nothing, and
// start no goroutine, anywhere in the process.
//
//	go run ./stress -workers 4 -duration 60s -report stress-report
//
// It runs the scene it shares with the demo (internal/scene): the upload
// arenas, the texture population and its churn, the sound banks (one of
// them a WAV file read through voices/wav), the GL or headless bootstrap
// and the teardown plan. A render goroutine owns the upload arenas
// (upload/), the descriptor heap with its textures (descriptors/, through
// gltex in a window) and the game objects (a pools.Pool of objects, and a
// pools.Arena per frame of the visible ones); the audio goroutine owns the
// voices (voices/, on oto or the offline device); and -workers worker
// goroutines, like a game's AI threads, issue play requests, spawns and
// despawns of game objects, texture churn (font-atlas rebakes, quality
// swaps of 30 textures, level transitions that free and reload 194; each
// worker's churn phase-shifted so the events spread evenly over time) and
// per-frame upload traffic for the renderer, sprite and particle arenas,
// at the rates the flags set.
//
// The allocation guard (lifetime/guard, naming sites) arms after -settle
// frames and from then on counts every heap allocation and goroutine start
// in the process, in windows of frames: the time between the frames of a
// window is guarded too, and a flagged window is narrowed to single
// frames. A violation names its span and its call site. A verdict needs
// at least -min-frames guarded frames (the guard's default, 300); a run
// that guards fewer has no verdict and exits 4. -selftest injects one
// allocation (selftestPoke) into a steady frame, and the run must then
// fail naming it: a gate that cannot fail proves nothing.
//
// -scenario drives one budget to and past its limit, or all in turn, with
// a steady phase before each: leak (a level transition that never frees,
// until the heap refuses; then the fix), voice-storm (hundreds of plays in
// one frame, and the steal order checked with probes), upload-flood (more
// than the arenas hold; every accepted byte read back before its region is
// reused) and churn-storm (a rebake, a swap and a level load every frame).
// Each phase checks its own expectations and prints a verdict line; a
// failed or unfinished phase fails the run (exit 1). The phases run inside
// guarded frames, so their refusal paths are held to zero allocations too.
// docs/stress-scenarios.md lists what each one checks.
//
// Everything the loop does runs inside guarded frames: the wait for the
// frame's start (-fps; the workers tick meanwhile, and the wait ends early
// at the -duration deadline or a signal, however slow the pacing), the
// queue drain, churn, object spawns, uploads, drawing and presenting, the
// occupancy log line (through flatlog, since the standard slog handlers
// lose their pooled buffers at every GC) and the progress line, which on
// a terminal is one line redrawn in place and on a pipe a line per
// interval, both formatted into a reused buffer and written with one
// Write. The guard's allowlist names only oto's mux (its sync.Pool refills
// after a GC), with its reason; nothing the game code does is exempt.
//
// Output: the progress line on stdout, the descriptor occupancy log on
// stderr (log/slog, text or -log json), and a final report: frames, frame
// time p50/p99/max, the guard's findings and its own cost per frame (mean,
// p50, p99, max), GC cycles in the steady window, what became of every
// request (per kind: issued = applied + merged + refused + dropped at
// exit, each term printed and the sum checked; a mismatch fails the run),
// descriptor live/peak/high-water/warnings, upload peak and failures per
// arena, the object pool, voices played (started by the mixer) and
// refused, queue-full counts, barrier and teardown times. -report DIR
// writes it as report.json with occupancy.svg, a plot of descriptor
// occupancy, arena use and frame time over time, with each -scenario
// phase shaded and the warnings and refusals marked. The directory is
// probed for writing before the run, and each file is replaced whole (a
// temporary file renamed over it) or left as it was. A closed stdout
// (stress | head -1) does not stop the run; the report files are still
// written.
//
// SIGINT or SIGTERM, from the first moment, stops the run (before its
// first frame if set-up is not done): the loop ends, the workers are joined,
// the teardown runs in its logged order, and the report (text and
// -report) is written marked interrupted. A second signal during that
// shutdown exits at once. The exit status:
//
//	0  PASS: at least -min-frames guarded frames, none allocated, every owner clean, every request accounted
//	1  FAIL: a steady frame allocated, an owner failed, the request accounting did not balance, or a -scenario phase failed its verdict
//	2  bad flags
//	3  the harness could not run, or -selftest went uncaught
//	4  no verdict: fewer than -min-frames guarded frames
//	5  interrupted by SIGINT or SIGTERM; partial report written
//	6  a second signal during shutdown; exited at once, no teardown, no report
//	7  the -report directory is not writable; found at start, nothing ran
//	8  the report was not written in full (stdout closed, a -report file failed)
//
// Each non-zero status comes with a one-line reason on stderr. A definite
// failure (1) stands even in an interrupted or short run.
//
// In CI there is no sound card: point ALSA at a file (see scripts/lib.sh,
// sf_alsa_to_file) and run with -audio oto, or use -audio offline. There is
// no display either: without DISPLAY the tool starts Xvfb itself (Mesa
// llvmpipe) and stops it as the last teardown step; -headless uses the CPU
// backends instead.
//
// -sprite-path array draws the sprites from a texture array
// (descriptors/glarray) in one draw a frame, their layers streamed per
// sprite, and churns one of its textures every frame; the default, bind,
// binds a texture per draw. The report's sprites line gives the draw
// calls a frame and the sprite draws' GPU time from timer queries, for
// comparing the two.
//
// # Ownership
//
// The main goroutine is the render goroutine: it is locked to the main OS
// thread (GLFW needs it), owns the GL context, the upload Set and its frame
// clock, the heap and textures, the game objects, the guard and the
// report, and drains the workers' request queue once per frame. The voices
// engine's audio goroutine owns every voice; workers reach it only through
// Engine.Play, which enqueues into its bounded command queue. Workers own
// nothing shared: they publish fixed-size requests into a preallocated
// lock-free queue (lifetime/syncs.Queue) and read the frame serial from an
// atomic; each keeps its own request ledger, read after it has exited.
// One goroutine, started and ready before the first frame, polls for
// signals and only sets a flag. Nothing a steady frame does, on any goroutine,
// allocates.
//
// # Lifetime
//
// Everything a steady frame needs is allocated before the guard arms; the
// first frame loads the textures (the level load). At the end the workers
// stop and are joined, requests still queued are counted as dropped at
// exit, the report is gathered from every owner, and the scene's teardown
// plan runs the explicit order and logs it: voices StopAll before the
// sound memory is released (and the audio device closed); textures freed,
// the frame clock drained (which reclaims the slots and deletes the GL
// textures), the descriptor heap closed, the upload buffer unmapped, the
// frame clock closed, and the GL context destroyed last.
package main
