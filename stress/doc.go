// Command stress is steadyframe's stress tool and steady-frame gate. It is
// a simulated game that hammers every manager from several goroutines.
// Meanwhile the allocation guard checks that steady frames allocate
// nothing, and start no goroutine, anywhere in the process.
//
//	go run ./stress -workers 4 -duration 60s -report stress-report
//
// It runs the scene it shares with the demo (internal/scene). That is the
// upload arenas, the texture population and its churn, and the sound
// banks (one of them a WAV file read through voices/wav). It also covers
// the music streamed from a WAV file, the emitters moving around the
// listener (-emitters, mixed by audibility through virtual voices), the
// GL or headless bootstrap and the teardown plan.
//
// Three kinds of goroutine share the work:
//
//   - A render goroutine owns the upload arenas (upload/) and the
//     descriptor heap with its textures (descriptors/, through gltex in a
//     window). It also owns the game objects: a pools.Pool of objects, and
//     a pools.Arena per frame of the visible ones.
//   - The audio goroutine owns the voices (voices/, on oto or the offline
//     device).
//   - -workers worker goroutines act like a game's AI threads. They issue
//     play requests, spawns and despawns of game objects, and texture
//     churn. They also send per-frame upload traffic for the renderer,
//     sprite and particle arenas, at the rates the flags set.
//
// Texture churn is font-atlas rebakes, quality swaps of 30 textures, and
// level transitions that free and reload 194. Each worker's churn is
// phase-shifted, so the events spread evenly over time.
//
// # The gate
//
// The allocation guard (lifetime/guard, naming sites) arms after -settle
// frames. From then on it counts every heap allocation and goroutine start
// in the process, in windows of frames. The time between the frames of a
// window is guarded too. A flagged window is narrowed to single frames. A
// violation names its span and its call site.
//
// A verdict needs at least -min-frames guarded frames (the guard's
// default, 300). A run that guards fewer has no verdict and exits 4.
// -selftest injects one allocation (selftestPoke) into a steady frame. The
// run must then fail naming it: a gate that cannot fail proves nothing.
//
// Everything the loop does runs inside guarded frames:
//
//   - the wait for the frame's start (-fps). The workers tick meanwhile.
//     The wait ends early at the -duration deadline or a signal, however
//     slow the pacing.
//   - the queue drain, churn, object spawns, uploads, drawing and
//     presenting.
//   - the occupancy log line, through flatlog. (The standard slog handlers
//     lose their pooled buffers at every GC.)
//   - the progress line. On a terminal it is one line redrawn in place; on
//     a pipe it is a line per interval. Both are formatted into a reused
//     buffer and written with one Write.
//
// The guard's allowlist names only oto's mux (its sync.Pool refills after
// a GC), with its reason. Nothing the game code does is exempt.
//
// # Scenarios
//
// -scenario drives one budget to and past its limit, or all in turn. A
// steady phase comes before each:
//
//   - leak: a level transition that never frees, until the heap refuses;
//     then the fix.
//   - voice-storm: hundreds of plays in one frame, and the steal order
//     checked with probes.
//   - upload-flood: more than the arenas hold. Every accepted byte is read
//     back before its region is reused.
//   - churn-storm: a rebake, a swap and a level load every frame.
//
// Each phase checks its own expectations and prints a verdict line. A
// failed or unfinished phase fails the run (exit 1). The phases run inside
// guarded frames, so their refusal paths are held to zero allocations too.
// docs/stress-scenarios.md lists what each one checks.
//
// # Output
//
// The progress line goes to stdout. The descriptor occupancy log goes to
// stderr (log/slog, text or -log json). A final report follows. It gives:
//
//   - frames, and frame time p50/p99/max;
//   - the guard's findings and its own cost per frame (mean, p50, p99,
//     max);
//   - GC cycles in the steady window;
//   - what became of every request, per kind. Issued = applied + merged +
//     refused + dropped at exit. Each term is printed and the sum checked;
//     a mismatch fails the run.
//   - descriptor live/peak/high-water/warnings, and upload peak and
//     failures per arena;
//   - the object pool, voices played (started by the mixer) and refused;
//   - queue-full counts, and barrier and teardown times.
//
// -report DIR writes it as report.json with occupancy.svg. The plot shows
// descriptor occupancy, arena use and frame time over time. Each -scenario
// phase is shaded, and the warnings and refusals are marked. The directory
// is probed for writing before the run. Each file is replaced whole (a
// temporary file renamed over it) or left as it was. A closed stdout
// (stress | head -1) does not stop the run; the report files are still
// written.
//
// # Signals and exit status
//
// SIGINT or SIGTERM, from the first moment, stops the run. It stops before
// the first frame if set-up is not done. The loop ends, the workers are
// joined and the teardown runs in its logged order. The report (text and
// -report) is written marked interrupted. A second signal during that
// shutdown exits at once. The exit status:
//
//	0  PASS: at least -min-frames guarded frames, none allocated, every owner clean, every request accounted
//	1  FAIL: a steady frame allocated, an owner failed, the request accounting did not balance, or a -scenario phase failed its verdict
//	2  bad flags; also a Go panic, fatal error or SIGQUIT (a stack trace, no reason line)
//	3  the harness could not run, or -selftest went uncaught
//	4  no verdict: fewer than -min-frames guarded frames
//	5  interrupted by SIGINT or SIGTERM; partial report written
//	6  a second signal during shutdown; exited at once, no teardown, no report
//	7  the -report directory is not writable; found at start, nothing ran
//	8  the report was not written in full (stdout closed, a -report file failed)
//	128+n  killed by a signal it does not catch (SIGHUP 129, SIGKILL 137): no teardown, no report
//
// Each status from 1 to 8 comes with a one-line reason on stderr. A definite
// failure (1) stands even in an interrupted or short run.
//
// # CI
//
// In CI there is no sound card. Point ALSA at a file (see scripts/lib.sh,
// sf_alsa_to_file) and run with -audio oto, or use -audio offline. There
// is no display either. Without DISPLAY the tool starts Xvfb itself (Mesa
// llvmpipe) and stops it as the last teardown step. -headless uses the CPU
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
// The main goroutine is the render goroutine. It is locked to the main OS
// thread, as GLFW needs. It owns the GL context, the upload Set and its
// frame clock, the heap and textures, the game objects, the guard and the
// report. It drains the workers' request queue once per frame.
//
// The voices engine's audio goroutine owns every voice. Workers reach it
// only through Engine.Play, which enqueues into its bounded command queue.
// Workers own nothing shared. They publish fixed-size requests into a
// preallocated lock-free queue (lifetime/syncs.Queue) and read the frame
// serial from an atomic. Each keeps its own request ledger, read after it
// has exited.
//
// One goroutine, started and ready before the first frame, polls for
// signals and only sets a flag. Nothing a steady frame does, on any
// goroutine, allocates.
//
// # Lifetime
//
// Everything a steady frame needs is allocated before the guard arms. The
// first frame loads the textures (the level load). At the end the workers
// stop and are joined. Requests still queued are counted as dropped at
// exit. The report is gathered from every owner.
//
// Then the scene's teardown plan runs the explicit order and logs it:
//
//  1. voices StopAll, before the sound memory is released (and the audio
//     device closed);
//  2. textures freed;
//  3. the frame clock drained, which reclaims the slots and deletes the GL
//     textures;
//  4. the descriptor heap closed;
//  5. the upload buffer unmapped;
//  6. the frame clock closed;
//  7. the GL context destroyed last.
package main
