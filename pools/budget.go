package pools

import (
	"errors"
	"fmt"
	"sync/atomic"
)

// This file holds what the three containers share about budgets: the
// limits (MaxCapacity), the refusals (the errors) and the counters (Stats).

// Sentinel errors returned by this package. Every refusal of a
// container's method returns one of them bare, never wrapped, so that
// ==, a switch and errors.Is test it without allocating, and a returned
// error never changes. What a wrapper would add is the container's own:
// its element type and kind (Pool.String) and its counters (Stats). Only
// constructors and Pool.Grow, which allocate anyway, wrap a sentinel with
// the numbers they were given.
var (
	// ErrBudgetExhausted is returned when a request does not fit in the
	// budget. Nothing changed; no container grows by itself, so raise the
	// budget through configuration, or with Pool.Grow at load time.
	ErrBudgetExhausted = errors.New("pools: budget exhausted")
	// ErrStaleHandle is returned for a handle whose object was destroyed:
	// its slot's generation has moved on.
	ErrStaleHandle = errors.New("pools: stale handle")
	// ErrInvalidHandle is returned for the zero Handle, for a handle of
	// another pool, for a handle whose index is outside the pool, and for
	// bits that no pool ever issued.
	ErrInvalidHandle = errors.New("pools: invalid handle")
	// ErrInvalidCapacity is returned by constructors given a negative
	// capacity or one above MaxCapacity, and by Pool.Grow given a capacity
	// not above the current one or above MaxCapacity.
	ErrInvalidCapacity = errors.New("pools: invalid capacity")
	// ErrInvalidCount is returned by Pool.Reserve for a count below 1.
	ErrInvalidCount = errors.New("pools: invalid reservation count")
	// ErrOutOfRange is returned for an index outside a container or a
	// reservation.
	ErrOutOfRange = errors.New("pools: index out of range")
	// ErrNotLive is returned by Slots.ReleaseAt for a slot that holds
	// nothing.
	ErrNotLive = errors.New("pools: slot not live")
	// ErrAlreadyClaimed is returned by Reservation.Claim for a position
	// claimed before.
	ErrAlreadyClaimed = errors.New("pools: reservation slot already claimed")
	// ErrReservationReleased is returned by every Reservation method after
	// Release, or after Pool.Clear released it.
	ErrReservationReleased = errors.New("pools: reservation already released")
	// ErrInvalidReservation is returned by the methods of the zero
	// Reservation.
	ErrInvalidReservation = errors.New("pools: invalid reservation")
)

// MaxCapacity is the largest capacity any container accepts: 16,777,216.
// A Handle carries a 24-bit slot index under its pool's 8-bit tag.
const MaxCapacity = 1 << indexBits

// indexBits is the width of a Handle's slot index; the tag takes the
// 32-bit word's other bits.
const (
	indexBits = 24
	indexMask = 1<<indexBits - 1
	// tags is how many tags pools take in turn: 0xFF is left out, so no
	// tagged index is ^0, the zero Handle's.
	tags = 1<<(32-indexBits) - 1
)

// lastTag numbers the pools made so far; nextTag turns it into a tag.
var lastTag atomic.Uint32

// nextTag returns the next pool's tag, shifted into place.
func nextTag() uint32 { return (lastTag.Add(1) - 1) % tags << indexBits }

// checkCapacity validates a constructor's capacity.
func checkCapacity(kind string, capacity int) error {
	if capacity < 0 || capacity > MaxCapacity {
		return fmt.Errorf("%w: %s capacity %d (want 0..%d)", ErrInvalidCapacity, kind, capacity, MaxCapacity)
	}
	return nil
}

// Stats is a snapshot of one container's counters. It is a plain value:
// the owner goroutine reads it and may hand it to any other goroutine.
//
// Counts are since construction unless noted: Reset and Clear keep
// PeakInUse, HighWater, TotalCreated, Retired and Refused, so a profiler
// that wants per-frame figures diffs two snapshots.
type Stats struct {
	// Capacity is the element budget: fixed at construction, raised only
	// by Pool.Grow.
	Capacity int
	// InUse is the number of live elements now; pending slots are not
	// live and count in Pending instead.
	InUse int
	// PeakInUse is the high-water mark of InUse.
	PeakInUse int
	// Pending is the number of Pool slots waiting, after DestroyAfter,
	// for Reclaim (always 0 for Arena and Slots). Their handles are stale
	// and their values wait for the device, so the slots are as
	// unavailable as live ones.
	Pending int
	// HighWater is 1 + the highest Pool slot index ever made live or
	// reserved since construction, 0 if none (always 0 for Arena and
	// Slots). A Pool hands out the lowest never-used index only when no
	// freed slot is left, so it is the number of distinct slots the pool
	// has ever used: how far the budget was really needed.
	HighWater int
	// Reserved is the number of Pool slots held by outstanding
	// reservations and not yet claimed (always 0 for Arena and Slots).
	Reserved int
	// Retired is the number of Pool slots retired because their
	// generation would wrap; they are never reused (always 0 for Arena
	// and Slots). A pending slot with a spent generation counts here once
	// Reclaim takes it, not before.
	Retired int
	// TotalCreated counts successful creations: churn, not liveness (an
	// element destroyed right away still counts).
	TotalCreated uint64
	// Refused counts requests turned down because the budget was
	// exhausted.
	Refused uint64
	// BytesCapacity is the whole backing store: the element block plus
	// the per-slot bookkeeping.
	BytesCapacity uintptr
	// BytesInUse is the element bytes occupied by live elements.
	BytesInUse uintptr
}

// noCopy makes go vet's copylocks check report a container copied by
// value: a copy would share the backing store but not the bookkeeping.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}
