package voices

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/syncs"
)

// The blocking calls (StopAll, Bank.Release, Close) share no lock: each
// proves what it needs through the drain barrier, which any number of
// requesters may wait on at once, and takes the barrier's Seize (one
// holder at a time, held for microseconds) only for its fallback. So each
// call blocks at most its own timeout, whatever others are in flight.

// StopAll stops every voice and returns once no voice references any
// caller memory, so the caller may free or overwrite every bank. Voices
// fade out within one block.
//
// It marks the queue position it starts at. Every Play queued below the
// mark is cancelled, even one another goroutine is still writing into
// the queue. Then it waits on the drain barrier for the audio goroutine
// to finish a block begun after the request. If the device has stalled
// or died (the mixer is not being called), the wait times out after
// three quarters of timeout. StopAll then falls back: it seizes the
// barrier, applies the queued commands and ends every voice itself,
// then unseizes. While seized, the mixer is outside a block and skips
// blocks, playing silence. Either way no voice reads caller memory
// afterwards.
//
// StopAll returns within timeout (or a millisecond, if timeout is
// shorter), plus the time to apply the queued commands when it falls back
// (microseconds), whatever StopAll, Bank.Release and Close calls run
// concurrently. It fails with ErrStopAll only if the mixer stayed inside
// one block for the whole timeout. Once Close has ended every voice it
// returns nil at once. On success it allocates nothing.
func (e *Engine) StopAll(timeout time.Duration) error {
	if e.stopped.Load() {
		return nil // Close ended every voice
	}
	start := time.Now()
	deadline := start.Add(timeout)
	// Marks only rise: of two StopAlls racing, the later mark must win, or
	// a Play queued before the later one could start after it returned.
	mark := e.q.Claimed()
	syncs.StoreMaxUint64(&e.mix.stopMark, mark)
	if err := e.barrier.Wait(timeout * 3 / 4); err != nil {
		if serr := e.seize(deadline); serr != nil {
			return fmt.Errorf("%w after %v: %w; fallback: %w", ErrStopAll, timeout, err, serr)
		}
		e.mix.stopNow()
		e.barrier.Unseize()
		e.fallbacks.Add(1)
	}
	// Proved: no voice reads a bank, and no command below mark can start
	// one. While nothing is queued after it, Bank.Release needs no wait.
	syncs.StoreMaxUint64(&e.quiet, mark)
	recordNs(&e.stopLastNs, &e.stopMaxNs, int64(time.Since(start)))
	e.stopAlls.Add(1)
	return nil
}

// seize takes the barrier's Seize, waiting until deadline (at least a
// millisecond, so that a requester whose wait used its whole timeout still
// gets a chance at a mixer that is merely between blocks).
func (e *Engine) seize(deadline time.Time) error {
	return e.barrier.Seize(max(time.Until(deadline), time.Millisecond))
}

// passSeized does, for a requester holding the seized barrier, what the
// audio goroutine's next pass would do to the voices, because Unseize
// marks every request made before the Seize as honoured, other
// requesters' included: a StopAll mark the mixer has not seen ends every
// voice (the pass would have faded them all out), and the queued commands
// are applied. It is Bank.Release's seized pass; StopAll and Close end
// every voice unconditionally (stopNow).
func (m *mixer) passSeized() {
	if m.stopMark.Load() != m.stopSeen {
		m.stopNow()
		return
	}
	m.drain()
	m.reap()
}

// Close ends the engine: every later call fails with ErrClosed. StopAll
// and Bank.Release return nil, since no voice is left to wait for. Once
// Close returns an error that does not wrap ErrStopAll (nil, or one
// about the device alone), no voice reads caller memory. There is no
// fade: the device no longer plays the mixer. In order, Close
//
//   - cuts the device off the mixer: from its next read on the device
//     gets silence without touching the engine, and Close waits for a read
//     in progress to end;
//   - ends every voice and cancels every queued Play, holding the drain
//     barrier;
//   - closes the device and waits for its Close.
//
// All of it is bounded by EngineDesc.CloseTimeout
// (DefaultCloseTimeout), plus a millisecond or so. A device whose Close
// has not returned by then is abandoned. Close returns ErrDeviceHung
// naming it, kept for Err too, and the engine is closed all the same.
// The device's Close goes on, on a goroutine of its own that touches
// nothing of the engine. If the mixer stayed inside one block for the
// whole bound (a device read stuck in it), Close returns ErrStopAll:
// the memory is not yet proved free, and a later Close tries again.
//
// Close is idempotent and safe from any goroutine: a later or concurrent
// call returns nil once every voice has ended; only the first closes the
// device and reports on it.
func (e *Engine) Close() error {
	deadline := time.Now().Add(e.closeTimeout)
	first := !e.closed.Swap(true)
	e.streams.stopAll()
	// Every queue position is below this mark, so a Play that passed the
	// closed check just before Close, or sits behind a cell its producer
	// is still writing, is refused whenever it is popped: it can never
	// start on memory the caller frees once Close has returned.
	syncs.StoreMaxUint64(&e.mix.stopMark, math.MaxUint64)
	if first {
		// The result matters only through the Seize below: a read stuck
		// inside a block keeps it out, one stuck elsewhere cannot start a
		// voice any more.
		e.src.detach(deadline)
	}
	var errs []error
	if !e.stopped.Load() {
		if err := e.seize(deadline); err != nil {
			errs = append(errs, fmt.Errorf("%w: Close: %w", ErrStopAll, err))
		} else {
			e.mix.stopNow()
			e.stopped.Store(true)
			e.barrier.Unseize()
		}
	}
	if first {
		if err := closeDevice(e.dev, e.devName, deadline, e.closeTimeout); err != nil {
			e.setErr(err)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// closeDevice closes dev on a goroutine of its own and waits until
// deadline for it (bound is the CloseTimeout that set it, for the error).
// A Close still running then is abandoned with ErrDeviceHung: its
// goroutine holds only dev and a channel nobody reads any more, so when
// it ends it touches nothing of the engine.
func closeDevice(dev Device, name string, deadline time.Time, bound time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- dev.Close() }()
	t := time.NewTimer(max(time.Until(deadline), 0))
	defer t.Stop()
	var err error
	select {
	case err = <-done:
	case <-t.C:
		select {
		case err = <-done: // it returned just in time
		default:
			return fmt.Errorf("%w: the %s device's Close was still running at the engine's CloseTimeout (%v); it is abandoned, and no longer reads the mixer",
				ErrDeviceHung, name, bound)
		}
	}
	if err != nil {
		return fmt.Errorf("voices: closing the %s device: %w", name, err)
	}
	return nil
}

// source is what the device pulls: the mixer, until the engine detaches
// it (at Close, or when the device failed to start). From then on a read
// gets silence without touching the mixer, so a device that goes on
// reading (whose Close hangs) cannot reach engine state, and a fallback
// device can take over the mixer as its only reader.
type source struct {
	mix      *mixer
	detached atomic.Bool
	// reading counts reads that may be past the detached check. Go's
	// atomics are sequentially consistent: either a read sees detached,
	// or detach sees the read in progress.
	reading atomic.Int32
}

// Read renders the mix into p, or silence once detached.
func (s *source) Read(p []byte) (int, error) {
	s.reading.Add(1)
	defer s.reading.Add(-1)
	if s.detached.Load() {
		clear(p)
		return len(p), nil
	}
	return s.mix.Read(p)
}

// detach cuts the device off the mixer and waits until no read is in
// progress, or until deadline; it reports whether none is. The mixer
// never blocks, so a read in progress ends within microseconds unless its
// goroutine is descheduled.
func (s *source) detach(deadline time.Time) bool {
	s.detached.Store(true)
	for spin := 0; s.reading.Load() != 0; spin++ {
		if !time.Now().Before(deadline) {
			return false
		}
		syncs.Backoff(spin)
	}
	return true
}
