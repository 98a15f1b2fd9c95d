// Package guard proves that steady-state frames allocate nothing on the
// heap and start no goroutines. It names the call sites of the frames that
// do.
//
// A Guard arms after a settle (120 frames by default). It then counts heap
// allocations (runtime.MemStats.Mallocs) and goroutine starts (the
// runtime's /sched/goroutines-created count) process-wide. So every
// goroutine is guarded, not only the frame goroutine.
//
// With EnableSiteProfiling and Desc.Sites the guard names each violation's
// allocation sites from runtime.MemProfile. It also names the code that
// started its goroutines, and it logs each unique site once. A site is the
// innermost guarded function on the allocation's stack. Failing that, it
// is the innermost function outside the runtime and sync. So an allocation
// inside sync.Pool is named by the pool's caller.
//
// Allow tolerates named third-party sites, each with a reason. It covers
// only allocations whose innermost frame outside the runtime and sync is
// that code. An entry with a Caller is narrower still: it covers its
// site only where that caller called it, as a decoder's calls into the
// standard library. Nothing else is exempt except the runtime's own allocations
// listed below. AllocPoke is the deliberate violation that guard
// self-tests must catch.
//
// Verdict gives a run's answer. A run that checked fewer than
// Desc.MinFrames armed frames (300 by default) fails with ErrTooFewFrames.
// It does not pass on nothing. The guard belongs in test and stress runs,
// not in a shipped frame loop.
//
// # Windows
//
// The only exact allocation count the runtime offers is ReadMemStats, a
// stop-the-world. (runtime/metrics publishes a P's allocations only when
// it refills a span, so a frame's count there is almost never exact.) A
// read per frame is costly with busy goroutines, whose preemption the stop
// waits for. So the guard reads once per window of Desc.Window armed
// frames (32 by default).
//
// Consecutive windows chain: the read that closes one window opens the
// next. So every armed frame is checked exactly, as part of exactly one
// window. The time between the frames of a run of windows is checked too.
// With Window 1 every frame is counted alone between its own two reads,
// and the time between frames is not counted.
//
// A flagged or tolerated window chains too. Its reporting allocates, so
// the next window starts from a read taken after it. An allocation between
// that frame and the next is still counted. The chain breaks, and the next
// BeginFrame reads afresh, only at CloseWindow, Resettle and Verdict. A
// caller uses CloseWindow before work it does between frames on purpose.
//
// A flagged window is reported with its frame range, its counts and, in
// site mode, its sites. The guard then narrows. It counts the following
// frames one by one (one read a frame, chained) until Window consecutive
// frames are clean. So a recurring violation is named with its exact
// frame, and a one-off violation by its window and its site. Report says
// which armed frames were counted alone (Report.Narrowed, PerFrame) and
// which in windows (InWindows).
//
// # Goroutine starts
//
// A go statement in a guarded frame is a violation, whether or not the
// runtime had a free g to reuse. A start allocates a g (and its stack)
// whenever the free list is empty. So whether such a frame allocates
// depends on scheduling history.
//
// The runtime allocates the g on the system stack, so the allocation's own
// stack never shows the go statement. In site mode the guard names the
// creator from the goroutines started in the span that are still alive
// when it looks. It reports their "created by" function and go statement,
// as runtime.Stack prints them. A goroutine that has already exited is
// counted, not named, and the violation says so with its frames.
//
// # Runtime exemptions
//
// Only allocations whose stack holds runtime frames alone can be the
// runtime's own. An allocation with any caller outside the runtime is
// named by that caller. Of the runtime's own, the guard tolerates exactly
// these (RuntimeExemptions; each Site.Allowed carries the reason):
//
//   - runtime.allocm (ReasonNewThread): an M for a new OS thread. The
//     scheduler starts one after a stop-the-world, a blocking syscall or a
//     locked goroutine's exit. The thread count bounds it.
//   - runtime.(*timers).addHeap (ReasonTimerHeap): a P's timer heap grown
//     to a new peak. This scheduler state keeps its capacity, so it grows
//     at most log2(peak timers) times per P. It happens on the system
//     stack when a goroutine parks in time.Sleep, or on the scavenger's
//     goroutine.
//   - runtime.gcBgMarkWorker (ReasonGCWorker): a GC mark worker's own
//     bookkeeping. A GC inside a steady frame is caused by an allocation,
//     which the guard names, or is the runtime's periodic forced GC.
//   - runtime.procresize (ReasonNewP): a P for GOMAXPROCS grown past its
//     high-water mark. The program or the runtime (after a CPU-limit
//     change) grows it. GOMAXPROCS bounds it.
//
// One more exemption goes by count rather than by stack
// (ReasonSystemGoroutine). A goroutine the runtime starts for itself (a
// mark worker for a new P, a cleanup goroutine) is not in runtime.Stack's
// list of user goroutines. The guard tolerates as many otherwise unnamed
// starts as the number of system goroutines rose across the span.
//
// Anything else with no caller outside the runtime is a violation,
// runtime.newproc1's g included. It is named by the runtime function that
// asked for the memory. Without Sites the guard cannot tell these apart,
// and every allocation and goroutine start in an armed span is a
// violation.
//
// # Cost
//
// Report.Cost is the guard's own time per armed frame spent counting. It
// is a distribution (mean, p50, p99, max), plus the total spent reporting
// flagged spans. BenchmarkGuardFrame compares Window 1 with the default
// window, idle and with busy goroutines. The default window costs a clean
// frame far less. The one frame in 32 that reads still stops the world,
// so the max is unchanged. docs/guard.md has the measurements and their
// commands.
//
// # Ownership
//
// A Guard belongs to the goroutine that runs frames. It is not safe for
// concurrent use. Report values and their slices are copies owned by the
// caller.
//
// # Lifetime
//
// A Guard lives for a session. It arms after Settle frames. Resettle
// disarms it across knowingly unsteady frames (a level load). Verdict
// closes the session's accounting. Further frames may follow it, and a
// later Verdict covers them too. Each unique site is logged once per
// Guard.
package guard
