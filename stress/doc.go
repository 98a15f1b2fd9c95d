// Command stress is steadyframe's stress tool and steady-frame gate: a
// simulated game that hammers every manager from several goroutines while
// the allocation guard checks that steady frames allocate nothing, anywhere
// in the process.
//
//	go run ./stress -workers 4 -duration 60s -report stress-report
//
// A render goroutine owns the upload arenas (upload/) and the descriptor
// heap with its textures (descriptors/, through gltex in a window), the
// audio goroutine owns the voices (voices/, on oto or the offline device),
// and -workers worker goroutines, like a game's AI threads, issue play
// requests, texture churn (font-atlas rebakes, quality swaps of 30
// textures, level transitions that free and reload 194) and per-frame
// upload traffic for the renderer, sprite and particle arenas, at the rates
// the flags set. The allocation guard (lifetime.FrameGuard, naming sites)
// arms after -settle frames; from then on any heap allocation in the
// process during a frame is a violation reported with its call site.
// -selftest injects one allocation (selftestPoke) into a steady frame, and
// the run must then fail naming it: a gate that cannot fail proves nothing.
//
// Output: a progress bar on a terminal (a plain line per interval
// otherwise), the descriptor occupancy log on stderr (log/slog, text or
// -log json), and a final report (frames, frame time p50/p99/max,
// allocations in steady frames, GC cycles in the steady window, descriptor
// live/peak/high-water/warnings, upload peak and failures per arena, voices
// active/peak/refused/stolen, queue-full counts, barrier and teardown
// times). -report DIR writes it as report.json with occupancy.svg, a plot
// of descriptor occupancy and arena use over time.
//
// A guarded frame spans everything but a few microseconds between the
// guard's EndFrame and the next BeginFrame: the wait for the frame's start
// (-fps, during which the workers tick), the queue drain, churn, uploads,
// drawing and presenting, the occupancy log line (through an
// allocation-free slog handler, since the standard ones lose their pooled
// buffers at every GC) and the plain progress line. The one thing run
// between guarded frames is the terminal progress bar's redraw, which
// allocates inside progressbar; its allocations are measured and reported
// separately, and CI, writing to a pipe, has no such gap. The guard's
// allowlist names only oto's mux (its sync.Pool refills after a GC) and
// the offline audio device's select, each with its reason; nothing the
// game code does is exempt.
//
// The exit status is 0 only when nothing was violated; 1 for a steady-state
// allocation or an owner error, 2 for bad flags, 3 when the harness could
// not run or -selftest went uncaught, each with a one-line reason on
// stderr.
//
// In CI there is no sound card: point ALSA at a file (see scripts/lib.sh,
// sf_alsa_to_file) and run with -audio oto, or use -audio offline. There is
// no display either: without DISPLAY the tool starts Xvfb itself (Mesa
// llvmpipe) and stops it as the last teardown step; -headless uses the CPU
// backends instead.
//
// # Ownership
//
// The main goroutine is the render goroutine: it is locked to the main OS
// thread (GLFW needs it), owns the GL context, the upload Set and its frame
// clock, the heap and textures, the guard and the report, and drains the
// workers' request queue once per frame. The voices engine's audio
// goroutine owns every voice; workers reach it only through Engine.Play,
// which enqueues into its bounded command queue. Workers own nothing
// shared: they publish fixed-size requests into a preallocated lock-free
// queue and read the frame serial from an atomic. Nothing a steady frame
// does, on any goroutine, allocates.
//
// # Lifetime
//
// Everything a steady frame needs is allocated before the guard arms; the
// first frame loads the textures (the level load). At the end the workers
// stop and are joined, the report is gathered from every owner, and
// lifetime/teardown runs the explicit order and logs it: voices StopAll
// before the sound memory is released (and the audio device closed);
// textures freed, the frame clock drained (which reclaims the slots and
// deletes the GL textures), the descriptor heap closed, the upload buffer
// unmapped, the frame clock closed, and the GL context destroyed last.
package main
