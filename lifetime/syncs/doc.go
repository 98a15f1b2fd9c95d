// Package syncs holds what goroutines share in steadyframe without locks
// and without allocating:
//
//   - Queue, the bounded many-producer one-consumer ring through which any
//     goroutine reaches an owner goroutine.
//   - Barrier, with which an owner goroutine proves to a requester that it
//     has let go of something.
//   - StoreMaxUint64 (Int64, Int32), the atomic high-water-mark update.
//
// A requester (StopAll, a bank release) uses a Barrier to prove that an
// owner goroutine (the audio mixer) no longer references something. It
// waits for the owner to finish a whole pass begun after the request. When
// the owner is stalled, Seize locks it out, so the requester can do the
// owner's pass itself.
//
// # Ownership
//
// Any goroutine may call a Queue's Push, Reserve, Publish, Claimed, Len,
// Full, Peak and Cap. Publish is called by the producer whose Reserve it
// completes. Pop and Head belong to its one consumer at a time.
//
// A Barrier's Enter and Exit belong to its owner goroutine. The owner is
// identified at its first Enter or by SetOwner. Any goroutine may call
// Request, Reached, Wait, WaitEpoch, Seize, Unseize and Stats, with one
// Seize held at a time. Any goroutine may call the StoreMax functions.
//
// # Lifetime
//
// A Queue allocates its ring in NewQueue and never again. A value lives in
// the ring from Push (or Reserve) until Pop hands it on. The popped cell
// is cleared, so the ring pins no memory. The pointer Reserve returns is
// valid until the matching Publish.
//
// A Barrier needs no construction (its zero value is ready) and no Close.
// An epoch returned by Request stays valid for the Barrier's life.
package syncs
