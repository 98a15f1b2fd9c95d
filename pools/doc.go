// Package pools holds budgeted, allocation-free containers for the objects
// a game creates and destroys while it runs frames.
//
// Three kinds cover the lifetimes a frame loop meets:
//
//   - Pool[T] holds long-lived objects created and destroyed one by one, in
//     any order. Each object is named by a generational Handle[T]: a 32-bit
//     slot index plus a 32-bit generation, checked on every access, so a
//     handle to a destroyed object reads as stale instead of aliasing the
//     object that reused its slot. Pool.Reserve claims a batch of slots up
//     front, all or nothing.
//   - Arena[T] is per-frame scratch: Alloc bumps a cursor and Reset, once a
//     frame, zeroes what was used and rewinds.
//   - Slots[T] is a fixed-capacity bitmask pool addressed by slot index:
//     Acquire takes the lowest free slot, a full pool is an ordinary
//     outcome, and NextLive or All walk the live set while the walker
//     releases the slot it stands on.
//
// Every kind has a budget fixed at construction. Nothing ever grows: a
// request beyond the budget is refused with ErrBudgetExhausted (or ok=false
// for Slots) and counted in Stats, and the caller decides what to drop.
// Construction makes the only allocations; no method allocates afterwards,
// error paths included (the errors are built once, at construction), which
// the package's tests assert with testing.AllocsPerRun.
//
// Handles are the references meant to outlive a frame. Handle[T] is a
// distinct type per T: handles of two pools with different element types
// cannot be swapped without a compile error.
//
// Allocation is pure integer bookkeeping, so the same sequence of calls
// yields the same indices and handles on every platform: handles are safe
// to record in a replay.
//
// # Ownership
//
// A container owns its elements and its backing store. It belongs to one
// owner goroutine (the render or the audio goroutine in steadyframe) and is
// not safe for concurrent use; other goroutines reach it through the
// owner's queue. Stats returns a plain value the owner may hand to anyone.
//
// A pointer returned by Create, Get, Claim, Alloc, At, Acquire or All
// borrows the container's memory: the container still owns it, and the
// pointer is valid only for the element's lifetime below. Do not keep it
// past that: the slot is zeroed when released (so the garbage collector
// can free what the element referenced) and then handed to someone else.
// A handle, not a pointer, is what outlives a frame.
//
// # Lifetime
//
// A Pool element lives from Create (or Reservation.Claim) until Destroy or
// Clear; its pointer is valid for exactly that span and its handle turns
// stale at its end, for good: a slot whose generation would wrap is retired
// instead of reused (counted in Stats.Retired), so no stale handle can ever
// validate again. A Reservation holds its unclaimed slots until Release or
// Pool.Clear; handles claimed from it outlive it.
//
// An Arena element lives until the next Reset: never carry an Arena index
// or pointer across frames. A Slots element lives from Acquire until
// ReleaseAt or Reset.
package pools
