// Package guard proves that steady-state frames allocate nothing on the
// heap, and names the call sites of the frames that do.
//
// A Guard counts heap allocations per frame with runtime.ReadMemStats
// once it has settled (120 frames by default). With EnableSiteProfiling
// and Desc.Sites it names each violation's call sites from
// runtime.MemProfile and logs each unique site once. Allow tolerates
// named third-party sites, each with a reason; nothing else is exempt
// except allocations with no caller outside the runtime (RuntimeReason),
// which are reported as tolerated. AllocPoke is the deliberate violation
// that guard self-tests must catch. Mallocs is process wide, so every
// goroutine is guarded, not only the frame goroutine; a violation is per
// frame, not per worker tick. The guard belongs in test and stress runs,
// not in a shipped frame loop.
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
// disarms it across knowingly unsteady frames (a level load), and each
// unique site is logged once per Guard.
package guard
