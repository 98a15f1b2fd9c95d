// Package pools holds budgeted, allocation-free containers for the objects
// a game creates and destroys while it runs frames.
//
// Three kinds cover the lifetimes a frame loop meets:
//
//   - Pool[T] holds long-lived objects created and destroyed one by one,
//     in any order. A generational Handle[T] names each object: a 24-bit
//     slot index, an 8-bit pool tag and a 32-bit generation, checked on
//     every access. So a handle to a destroyed object reads as stale. It
//     never aliases the object that reused its slot. Pool.Reserve claims
//     a batch of slots up front, all or nothing.
//   - Arena[T] is per-frame scratch. Alloc bumps a cursor. Reset, once a
//     frame, zeroes what was used and rewinds.
//   - Slots[T] is a fixed-capacity bitmask pool addressed by slot index.
//     Acquire takes the lowest free slot, and a full pool is an ordinary
//     outcome. NextLive and All walk the live set, and the walker may
//     release the slot it stands on.
//
// Pool.DestroyAfter ends an object whose device counterpart a GPU frame
// may still use. The handle dies at once. The slot waits, pending, until
// Pool.Reclaim learns the frame completed. Reclaim then hands the value
// back for the caller to release.
//
// Every kind has a budget set at construction. Nothing grows by itself. A
// request beyond the budget is refused with ErrBudgetExhausted (or
// ok=false for Slots) and counted in Stats. The caller decides what to
// drop. Only Pool.Grow raises a budget, when the owner calls it, at load
// time.
//
// Construction and Grow make the only allocations. No other method
// allocates, error paths included. A refusal is a bare sentinel, which
// ==, a switch and errors.Is test without allocating. The package's tests
// assert this with testing.AllocsPerRun.
//
// Handles are the references meant to outlive a frame. Handle[T] is a
// distinct type per T. Handles of two pools with different element types
// cannot be swapped without a compile error. A handle also carries its
// pool's tag. So a pool refuses another pool's handle of the same type
// (ErrInvalidHandle), even when its index and generation match a live
// slot.
//
// Allocation is pure integer bookkeeping. The same sequence of calls
// yields the same indices and handles on every platform, so handles are
// safe to record in a replay. A Pool hands out the most recently freed
// slot first, and never-used slots lowest first. So Stats.HighWater (1 +
// the highest index ever used) is also the number of slots ever used.
// Handles print as "slot N gen G" ("none" for the zero Handle), the format
// every steadyframe handle shares.
//
// # Ownership
//
// A container owns its elements and its backing store. It belongs to one
// owner goroutine (the render or the audio goroutine in steadyframe). It
// is not safe for concurrent use; other goroutines reach it through the
// owner's queue. Stats returns a plain value the owner may hand to anyone.
//
// A pointer returned by Create, Get, Claim, Alloc, At, Acquire or All
// borrows the container's memory. The container still owns it. The pointer
// is valid only for the element's lifetime below. For a Pool it is valid
// only until the next Grow, which moves the elements. Do not keep it past
// that. The slot is zeroed when released, so the garbage collector can free
// what the element referenced, and then it is handed to someone else. A
// handle, not a pointer, is what outlives a frame, and a Grow.
//
// A pending element belongs to the pool until Reclaim returns its value.
// From then on the value is the caller's, to release what it names.
//
// # Lifetime
//
// A Pool element lives from Create (or Reservation.Claim) until Destroy,
// DestroyAfter or Clear. Its pointer is valid for exactly that span (and
// not across Grow). Its handle turns stale at its end, for good. A slot
// whose generation would wrap is retired instead of reused (counted in
// Stats.Retired). So no stale handle can ever validate again.
//
// A Reservation holds its unclaimed slots until Release or Pool.Clear.
// Handles claimed from it outlive it.
//
// After DestroyAfter(h, serial) the slot is pending. It keeps the
// element's value and stays off the free list. A Reclaim(completed) (or
// ReclaimInto) with completed at or above serial takes it. Slots are taken
// oldest first: a slot waits for every slot pending before it too. So a
// serial below an earlier pending slot's waits longer than asked, never
// shorter. Pending slots count against the budget. They survive Clear (a
// device may still use them) and survive Grow in the same order. A slot
// whose generation is spent retires when it is reclaimed.
//
// An Arena element lives until the next Reset. Never carry an Arena index
// or pointer across frames. A Slots element lives from Acquire until
// ReleaseAt or Reset.
package pools
