// Package lifetime is the parent of the packages that make every resource
// lifetime in steadyframe explicit. They also keep steady-state frames
// free of heap allocation. It holds no code; each concern is its own
// package:
//
//   - lifetime/frame: the frame clock (Clock) that every per-frame manager
//     follows. It also holds the fences (Fence, CPUFence) and the deferred
//     release queue that follows the clock too (Deferred).
//   - lifetime/glfence: the GL sync-object Fence, for a Clock on an OpenGL
//     context the application made.
//   - lifetime/syncs: what goroutines share without locks. That is the
//     bounded multi-producer queue (Queue), the drain Barrier between an
//     owner goroutine and its requesters, and the atomic high-water update
//     (StoreMaxUint64 and its Int64 and Int32 forms).
//   - lifetime/teardown: shutdown as a declared, validated and logged order
//     of named stages (Plan).
//   - lifetime/guard: the allocation guard (Guard). It proves steady frames
//     allocate nothing and names the sites of those that do.
//
// # Ownership
//
// Each type in the subpackages belongs to one goroutine, except the syncs
// types. A Clock and its fences belong to the render goroutine. A Guard
// belongs to the goroutine that runs frames. A Plan belongs to the
// shutting-down goroutine. The syncs types say which of their methods any
// goroutine may call.
//
// # Lifetime
//
// A resource referenced by frame N lives until frame N's fence signals.
// The Clock proves it, and the managers that follow the Clock release the
// resource then, never earlier. Memory shared with another goroutine (the
// mixer reading sound memory) lives until a syncs.Barrier proves the other
// goroutine let go. Shutdown releases in the order a teardown.Plan
// declares, checked before anything runs.
package lifetime
