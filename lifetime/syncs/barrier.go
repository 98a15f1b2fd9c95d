package syncs

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"time"
)

// Barrier lets a requester goroutine prove that an owner goroutine (the
// audio mixer) has let go of something. The requester first publishes the
// change, for example a StopAll command in the owner's queue. Then it
// calls Wait, which returns once the owner has begun and finished a whole
// pass after the request. Everything the owner references at the end of that
// pass was decided after it saw the request.
//
// The owner brackets each pass (one mixer block) with Enter and Exit. When
// the owner is stalled (a dead audio device stops calling the mixer), Wait
// times out. The documented fallback is Seize. It succeeds when the owner
// is outside a pass, and it locks the owner out until Unseize. Enter then
// returns false, and the owner must skip the pass, producing silence. So
// the requester has exclusive access to the owner's state. While seized the
// requester must do the pass the owner would have done (for example drain
// the owner's command queue), because Unseize marks every request made
// before the Seize as honoured.
//
// A Wait or Seize made on the owner goroutine itself can never succeed;
// when it times out its error also wraps ErrBarrierOwner, naming the
// mistake. The owner goroutine is identified once, at its first Enter, or
// by SetOwner when ownership moves to another goroutine.
//
// Enter and Exit belong to the owner goroutine; Wait, Seize and Unseize may
// be called from any goroutine, one requester at a time per Seize. The
// round trip (Request, Enter, Exit, Wait or WaitEpoch, Seize, Unseize)
// allocates nothing; recording the owner (its first Enter, SetOwner) and
// building a timeout error do, once each.
type Barrier struct {
	// state holds stateBusy when the owner is inside a pass and
	// stateSeized when a requester has locked it out.
	state atomic.Uint32
	// target is the newest request epoch; seen is the newest epoch the
	// owner has finished a whole pass for.
	target atomic.Uint64
	seen   atomic.Uint64
	// entered is the target the owner loaded at Enter; owner-only.
	entered uint64
	// seizedAt is the target when the current Seize succeeded: the epochs
	// its holder has honoured by doing the owner's pass itself.
	seizedAt atomic.Uint64
	// owner is the owner goroutine's id, recorded at its first Enter and
	// read only on timeout paths, to tell a self-wait from a stall.
	owner   atomic.Uint64
	passes  atomic.Uint64
	skipped atomic.Uint64
}

const (
	stateIdle   = 0
	stateBusy   = 1
	stateSeized = 2
)

// Enter begins an owner pass. It returns false, and the owner must skip the
// pass without touching the protected state, while a requester holds a
// Seize.
func (b *Barrier) Enter() bool {
	if !b.state.CompareAndSwap(stateIdle, stateBusy) {
		b.skipped.Add(1)
		return false
	}
	b.entered = b.target.Load()
	if b.owner.Load() == 0 {
		// Once per barrier: reading the goroutine id allocates.
		b.owner.Store(goid())
	}
	return true
}

// Exit ends a pass begun by a successful Enter and publishes that the
// owner has honoured every request made before the pass began.
func (b *Barrier) Exit() {
	// Only Exit moves the state out of busy, so checking first keeps a
	// misplaced Exit from publishing a stale epoch before it panics.
	if b.state.Load() != stateBusy {
		panic("syncs: Barrier.Exit without a matching Enter")
	}
	StoreMaxUint64(&b.seen, b.entered)
	b.passes.Add(1)
	b.state.Store(stateIdle)
}

// Request publishes a new epoch and returns it. Publish the change the
// owner must see before calling Request.
func (b *Barrier) Request() uint64 { return b.target.Add(1) }

// Reached reports whether the owner has finished a pass for epoch.
func (b *Barrier) Reached(epoch uint64) bool { return b.seen.Load() >= epoch }

// Wait requests a new epoch and waits until the owner finishes a pass that
// began after it, or timeout. On timeout it returns ErrBarrierTimeout with
// the epoch and how many passes the owner has made, and the caller should
// fall back to Seize.
func (b *Barrier) Wait(timeout time.Duration) error {
	return b.WaitEpoch(b.Request(), timeout)
}

// WaitEpoch waits until the owner has finished a pass for epoch.
func (b *Barrier) WaitEpoch(epoch uint64, timeout time.Duration) error {
	if b.Reached(epoch) {
		return nil
	}
	deadline := time.Now().Add(timeout)
	for spin := 0; !b.Reached(epoch); spin++ {
		if !time.Now().Before(deadline) {
			if b.onOwner() {
				return fmt.Errorf("%w: %w: epoch %d can never be reached while its owner waits",
					ErrBarrierTimeout, ErrBarrierOwner, epoch)
			}
			return fmt.Errorf("%w: epoch %d not reached after %v (owner has made %d passes)",
				ErrBarrierTimeout, epoch, timeout, b.passes.Load())
		}
		Backoff(spin)
	}
	return nil
}

// Seize locks the owner out once it is outside a pass, waiting up to
// timeout for it to leave one. While seized the caller has exclusive
// access to the state the barrier protects; it must call Unseize. On
// timeout it returns ErrBarrierBusy, saying whether the owner stayed
// inside its pass or another requester holds the Seize.
func (b *Barrier) Seize(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for spin := 0; !b.state.CompareAndSwap(stateIdle, stateSeized); spin++ {
		if !time.Now().Before(deadline) {
			if b.onOwner() {
				return fmt.Errorf("%w: %w: Seize", ErrBarrierBusy, ErrBarrierOwner)
			}
			if b.state.Load() == stateSeized {
				// Not the owner's fault: Seize admits one holder at a
				// time, and another requester kept it.
				return fmt.Errorf("%w: another requester held it seized for %v", ErrBarrierBusy, timeout)
			}
			return fmt.Errorf("%w: the owner goroutine stayed inside its pass for %v", ErrBarrierBusy, timeout)
		}
		Backoff(spin)
	}
	b.seizedAt.Store(b.target.Load())
	return nil
}

// Unseize lets the owner run passes again and marks every request made
// before the Seize as honoured, since the requester did the owner's pass
// itself. Requests made while seized still need a real owner pass (or the
// next Seize): the holder may have done its pass before they arrived.
func (b *Barrier) Unseize() {
	// Only Unseize moves the state out of seized, so check before
	// publishing anything.
	if b.state.Load() != stateSeized {
		panic("syncs: Barrier.Unseize without Seize")
	}
	StoreMaxUint64(&b.seen, b.seizedAt.Load())
	b.state.Store(stateIdle)
}

// SetOwner records the calling goroutine as the owner, for telling a
// self-wait from a stall. The first Enter does this implicitly; call
// SetOwner on the new owner when ownership moves (an audio device
// restarted on a fresh goroutine). It allocates a little; call it once.
func (b *Barrier) SetOwner() { b.owner.Store(goid()) }

// onOwner reports whether the caller runs on the owner goroutine. It
// allocates, so only timeout paths call it.
func (b *Barrier) onOwner() bool {
	id := b.owner.Load()
	return id != 0 && id == goid()
}

// goid returns the calling goroutine's id, parsed from the header of its
// stack trace ("goroutine 18 [running]:"). Go has no API for it on
// purpose; it is used only to name a self-wait, never for control flow
// the barrier's guarantees depend on.
func goid() uint64 {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	const prefix = "goroutine "
	var id uint64
	for _, c := range buf[min(len(prefix), n):n] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	return id
}

// BarrierStats is a snapshot of a Barrier's counters: a plain value, safe
// to copy and to hand to any goroutine.
type BarrierStats struct {
	Passes  uint64 // owner passes completed
	Skipped uint64 // owner passes skipped while seized
	Target  uint64 // newest request epoch
	Seen    uint64 // newest epoch honoured
}

// Stats returns the barrier's counters; safe from any goroutine.
func (b *Barrier) Stats() BarrierStats {
	return BarrierStats{Passes: b.passes.Load(), Skipped: b.skipped.Load(), Target: b.target.Load(), Seen: b.seen.Load()}
}
