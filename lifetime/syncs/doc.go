// Package syncs holds what goroutines share in steadyframe without locks
// and without allocating: Queue, the bounded many-producer one-consumer
// ring through which any goroutine reaches an owner goroutine; Barrier,
// with which an owner goroutine proves to a requester that it has let go
// of something; and StoreMaxUint64 (Int64, Int32), the atomic
// high-water-mark update.
//
// Barrier lets a requester (StopAll, a bank release) prove that an owner
// goroutine (the audio mixer) no longer references something, by waiting
// for the owner to finish a whole pass begun after the request. When the
// owner is stalled, Seize locks it out so the requester can do the
// owner's pass itself.
//
// # Ownership
//
// A Queue's Push, Reserve, Publish, Claimed, Len, Full, Peak and Cap may
// be called from any goroutine (Publish by the producer whose Reserve it
// completes); Pop and Head belong to its one consumer at a time. A
// Barrier's Enter and Exit belong to its owner goroutine, identified at
// its first Enter or by SetOwner; Request, Reached, Wait, WaitEpoch,
// Seize, Unseize and Stats may be called from any goroutine, with one
// Seize held at a time. The StoreMax functions may be called from any
// goroutine.
//
// # Lifetime
//
// A Queue allocates its ring in NewQueue and never again; a value lives
// in the ring from Push (or Reserve) until Pop hands it on, and the popped
// cell is cleared, so the ring pins no memory. The pointer Reserve returns
// is valid until the matching Publish. A Barrier needs no construction
// (its zero value is ready) and no Close; an epoch returned by Request
// stays valid for the Barrier's life.
package syncs
