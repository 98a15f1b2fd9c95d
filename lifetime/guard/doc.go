// Package guard proves that steady-state frames allocate nothing on the
// heap and start no goroutines, and names the call sites of the frames
// that do.
//
// A Guard arms after a settle (120 frames by default) and then counts
// heap allocations (runtime.MemStats.Mallocs) and goroutine starts (the
// runtime's /sched/goroutines-created count) process-wide, so every
// goroutine is guarded, not only the frame goroutine. With
// EnableSiteProfiling and Desc.Sites it names each violation's allocation
// sites from runtime.MemProfile and the code that started its goroutines,
// and logs each unique site once. A site is the innermost guarded
// function on the allocation's stack, or else its innermost function
// outside the runtime and sync (so an allocation inside sync.Pool is named
// by the pool's caller). Allow tolerates named third-party sites, each
// with a reason, and only allocations whose innermost frame outside the
// runtime and sync is that code; nothing else is exempt except the
// runtime's own allocations listed below. AllocPoke is the deliberate violation that
// guard self-tests must catch. Verdict gives a run's answer, and a run
// that checked fewer than Desc.MinFrames armed frames (300 by default)
// fails with ErrTooFewFrames rather than passing on nothing. The guard
// belongs in test and stress runs, not in a shipped frame loop.
//
// # Windows
//
// The only exact allocation count the runtime offers is ReadMemStats, a
// stop-the-world (runtime/metrics publishes a P's allocations only when it
// refills a span, so a frame's count there is almost never exact and
// cannot clear a frame). Reading it twice a frame cost 15 µs a frame on
// the shared 2-core machine when idle and 163 µs with busy goroutines,
// whose preemption the stop waits for (p99 4.2 ms; see Cost). So the guard reads once per window of
// Desc.Window armed frames (32 by default), and consecutive windows chain:
// the read that closes one window opens the next. Every armed frame is
// therefore checked exactly, as part of exactly one window, and so is the
// time between the frames of a run of windows; with Window 1 every frame
// is counted alone between its own two reads, and the time between frames
// is not counted. A flagged or tolerated window chains too: its reporting
// allocates, so the next window starts from a read taken after it, and an
// allocation between that frame and the next is still counted. The chain
// breaks, and the next BeginFrame reads afresh, only at CloseWindow, which
// a caller uses before work it does between frames on purpose, Resettle
// and Verdict.
//
// A flagged window is reported with its frame range, its counts and, in
// site mode, its sites. The guard then narrows: it counts the following
// frames one by one (one read a frame, chained) until Window consecutive
// frames are clean, so a recurring violation is named with its exact
// frame; a one-off violation is named by its window and its site. Report
// says which armed frames were counted alone (Report.Narrowed, PerFrame)
// and which in windows (InWindows).
//
// # Goroutine starts
//
// A go statement in a guarded frame is a violation, whether or not the
// runtime had a free g to reuse: a start allocates a g (and its stack)
// whenever the free list is empty, so a frame that starts goroutines
// allocates depending on scheduling history. The runtime allocates the g
// on the system stack, so the allocation's own stack never shows the go
// statement; in site mode the guard names the creator from the goroutines
// started in the span that are still alive when it looks (their "created
// by" function and go statement, as runtime.Stack prints them). A
// goroutine that has already exited is counted, not named, and the
// violation says so with its frames.
//
// # Runtime exemptions
//
// Only allocations whose stack holds runtime frames alone can be the
// runtime's own; an allocation with any caller outside the runtime is
// named by that caller. Of those, the guard tolerates exactly these
// (RuntimeExemptions; each Site.Allowed carries the reason):
//
//   - runtime.allocm (ReasonNewThread): an M for a new OS thread, which
//     the scheduler starts after a stop-the-world, a blocking syscall or a
//     locked goroutine's exit; bounded by the thread count.
//   - runtime.(*timers).addHeap (ReasonTimerHeap): a P's timer heap grown
//     to a new peak. It is scheduler state that keeps its capacity, so it
//     grows at most log2(peak timers) times per P; it happens on the
//     system stack when a goroutine parks in time.Sleep (which P holds the
//     timer is the scheduler's choice) or on the scavenger's goroutine.
//   - runtime.gcBgMarkWorker (ReasonGCWorker): a GC mark worker's own
//     bookkeeping. A GC inside a steady frame is caused by an allocation,
//     which the guard names, or is the runtime's periodic forced GC.
//   - runtime.procresize (ReasonNewP): a P for GOMAXPROCS grown past its
//     high-water mark, by the program or by the runtime after a CPU-limit
//     change; bounded by GOMAXPROCS.
//
// And one exemption by count rather than by stack (ReasonSystemGoroutine):
// a goroutine the runtime starts for itself (a mark worker for a new P, a
// cleanup goroutine) is not in runtime.Stack's list of user goroutines;
// the guard tolerates as many otherwise unnamed starts as the number of
// system goroutines rose across the span. Anything else with no caller
// outside the runtime (runtime.newproc1's g included) is a violation,
// named by the runtime function that asked for the memory.
//
// Without Sites the guard cannot tell these apart, and every allocation
// and goroutine start in an armed span is a violation.
//
// # Cost
//
// Report.Cost is the guard's own time per armed frame spent counting, as a
// distribution (mean, p50, p99, max), and the total spent reporting
// flagged spans. BenchmarkGuardFrame compares Window 1 with the default
// window side by side, idle and with busy goroutines that the
// stop-the-world must preempt. On the project's shared 2-core machine,
// ten runs of
//
//	go test -c -o guard.test ./lifetime/guard/
//	for i in $(seq 10); do ./guard.test -test.run '^$' -test.bench BenchmarkGuardFrame -test.benchtime 300ms; done >new.txt
//	benchstat -col /window new.txt
//
// gave a mean per clean frame of 15 µs with Window 1 and 0.30 µs with the
// default window when idle (51x less), and 163 µs and 2.4 µs with busy
// goroutines (69x less); the p99 frame cost 34 µs and 7.9 µs idle, 4.2 ms
// and 9.7 µs busy. (The code before windows, built from commit ed97fd0 and
// run in alternation, measured 13 µs idle.) Each read still stops the
// world, so the one frame in 32 that pays it costs what a read costs: with
// windows of 32 that frame is the p99, and the max is unchanged. The
// frames between pay a few nanoseconds. The samples vary by 50-70% on that
// machine; within each of the ten runs the default window was at least
// 50x cheaper.
//
// # Ownership
//
// A Guard belongs to the goroutine that runs frames; it is not safe for
// concurrent use. Report values and their slices are copies owned by the
// caller.
//
// # Lifetime
//
// A Guard lives for a session: it arms after Settle frames, Resettle
// disarms it across knowingly unsteady frames (a level load), Verdict
// closes the session's accounting (further frames may follow it, and a
// later Verdict covers them too), and each unique site is logged once per
// Guard.
package guard
