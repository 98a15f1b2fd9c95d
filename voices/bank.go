package voices

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Bank is a region of the caller's PCM memory that clips view without
// copying. The engine counts the voices reading a bank; Release proves
// that count is zero before the caller may reuse or free the memory.
//
// A Bank's methods are safe for concurrent use. The memory given to
// NewBank must stay valid and unchanged until Release returns nil (or
// until Engine.StopAll or Close returns nil).
type Bank struct {
	name    string
	mem     []byte
	engine  *Engine
	readers atomic.Int32 // voices reading mem; changed by the barrier holder
	// closing is set while any Release runs and for good once one has
	// succeeded: it alone refuses new voices (Play, and the mixer when it
	// starts a queued one).
	closing  atomic.Bool // no new voice may start on this bank
	released atomic.Bool
	// played is set by the first Play of the bank, before it checks
	// closing: a bank no Play has reached has no voice and can get none
	// once closing is set.
	played atomic.Bool

	// relMu guards releasers, and makes its updates atomic with closing's:
	// a failed Release reopens the bank only if no other Release is still
	// running on it. It is held for a few instructions, never while
	// waiting.
	relMu     sync.Mutex
	releasers int
}

// ClipDesc says where a clip lies in its bank and how to read it. The zero
// value of each optional field picks its default. Bank.Clip reads it once;
// it is a plain value.
type ClipDesc struct {
	Format Format
	// Offset is the clip's first byte in the bank.
	Offset int
	// Length is the clip's size in bytes, a whole number of frames; 0
	// means to the end of the bank.
	Length int
	// LoopStart and LoopEnd are the loop points in frames, used when the
	// clip is played with Loop; LoopEnd 0 means the clip's last frame + 1.
	LoopStart, LoopEnd int
	// MaxInstances caps the clip's voices playing at once; 0 means no
	// cap. Instances says what a Play past it does.
	MaxInstances int
	Instances    Instances
	// Cooldown refuses a Play (ErrCooldown) within this long of the
	// clip's last accepted Play; 0 means none.
	Cooldown time.Duration
}

// clipState is what a Clip points at; the mixer reads it directly.
type clipState struct {
	bank      *Bank
	pool      *formatPool // the engine's voice slots for the clip's format (pool.format)
	data      []byte
	frames    int
	loopStart int
	loopEnd   int
	lim       *clipLimits // MaxInstances and Cooldown, or nil: limits.go

	// Streaming (issue 19 item 3): the stream decoding into data, or nil.
	stream *streamState
}

// Clip is a view of PCM in a Bank: nothing is copied when it is made or
// played. A Clip is a small value, safe to copy and to use from any
// goroutine; the zero Clip is invalid. It is playable until its bank is
// released.
type Clip struct {
	c *clipState
}

// Format returns the clip's format.
func (c Clip) Format() Format {
	if c.c == nil {
		return Format{}
	}
	return c.c.pool.format
}

// Bank returns the bank the clip views, or nil for the zero Clip.
func (c Clip) Bank() *Bank {
	if c.c == nil {
		return nil
	}
	return c.c.bank
}

// NewClip is the one-clip shortcut: a bank named name over pcm, and a clip
// of all of it in format f. Release the clip's Bank to free pcm.
func (e *Engine) NewClip(name string, pcm []byte, f Format) (Clip, error) {
	b, err := e.NewBank(name, pcm)
	if err != nil {
		return Clip{}, err
	}
	return b.Clip(ClipDesc{Format: f})
}

// Frames returns the clip's length in frames.
func (c Clip) Frames() int {
	if c.c == nil {
		return 0
	}
	return c.c.frames
}

// NewBank makes a bank over mem, which the caller keeps owning; name is
// used in errors. mem must not be empty.
func (e *Engine) NewBank(name string, mem []byte) (*Bank, error) {
	if e.closed.Load() {
		return nil, fmt.Errorf("%w: NewBank %q", ErrClosed, name)
	}
	if len(mem) == 0 {
		return nil, fmt.Errorf("%w: bank %q is empty", ErrPCM, name)
	}
	return &Bank{name: name, mem: mem, engine: e}, nil
}

// Name returns the bank's name.
func (b *Bank) Name() string { return b.name }

// Readers returns how many voices read the bank's memory now.
func (b *Bank) Readers() int { return int(b.readers.Load()) }

// Clip returns a view of part of the bank. It checks the format (one the
// engine pools: EngineDesc.Formats), that the
// range lies inside the bank and holds a whole, non-zero number of
// frames, and the loop points.
func (b *Bank) Clip(d ClipDesc) (Clip, error) {
	if b.closing.Load() {
		return Clip{}, fmt.Errorf("%w: bank %q is released", ErrClosed, b.name)
	}
	if err := d.Format.Validate(); err != nil {
		return Clip{}, fmt.Errorf("bank %q: %w", b.name, err)
	}
	p := b.engine.slots.pool(d.Format)
	if p == nil {
		return Clip{}, fmt.Errorf("%w: bank %q: %v is not one of the engine's formats (EngineDesc.Formats)", ErrFormat, b.name, d.Format)
	}
	if d.Offset < 0 || d.Offset > len(b.mem) || d.Length < 0 {
		return Clip{}, fmt.Errorf("%w: bank %q: range offset %d length %d outside its %d bytes", ErrPCM, b.name, d.Offset, d.Length, len(b.mem))
	}
	n := d.Length
	if n == 0 {
		n = len(b.mem) - d.Offset
	}
	if n == 0 {
		return Clip{}, fmt.Errorf("%w: bank %q: empty clip at offset %d", ErrPCM, b.name, d.Offset)
	}
	if d.Offset+n > len(b.mem) {
		return Clip{}, fmt.Errorf("%w: bank %q: range offset %d length %d outside its %d bytes", ErrPCM, b.name, d.Offset, n, len(b.mem))
	}
	fb := d.Format.FrameBytes()
	if n%fb != 0 {
		return Clip{}, fmt.Errorf("%w: bank %q: %d bytes is not a whole number of %d-byte %v frames", ErrPCM, b.name, n, fb, d.Format)
	}
	frames := n / fb
	end := d.LoopEnd
	if end == 0 {
		end = frames
	}
	if d.LoopStart < 0 || d.LoopStart >= end || end > frames {
		return Clip{}, fmt.Errorf("%w: bank %q: loop [%d, %d) outside the clip's %d frames", ErrPCM, b.name, d.LoopStart, end, frames)
	}
	lim, err := newClipLimits(d)
	if err != nil {
		return Clip{}, fmt.Errorf("bank %q: %w", b.name, err)
	}
	return Clip{c: &clipState{
		bank: b, pool: p, data: b.mem[d.Offset : d.Offset+n : d.Offset+n],
		frames: frames, loopStart: d.LoopStart, loopEnd: end, lim: lim,
	}}, nil
}

// Release ends the bank: no voice may start on it any more, and once it
// returns nil no voice reads its memory, so the caller may free or reuse
// it. It waits on the engine's drain barrier, up to timeout, for voices
// still playing the bank to end by themselves; it does not stop them
// (Stop them, or StopAll, first). At the timeout it fails with
// ErrBankInUse naming the bank and the voices still reading it, and the
// bank stays usable, as if Release had not been called (unless another
// Release of it is still running).
//
// If the device has stalled, the barrier cannot be crossed; after three
// quarters of the time left, Release seizes it to count the readers
// itself (see Engine.StopAll). A bank that nothing can read returns at
// once, without the barrier: one no Play has reached, and any bank after
// a StopAll that returned nil while nothing was queued since.
//
// Release returns within timeout (or a millisecond, if timeout is
// shorter), plus microseconds, whatever StopAll, Release and Close calls
// run concurrently; it is safe from any goroutine. After Close has ended
// every voice, or once the bank is released, it returns nil at once.
func (b *Bank) Release(timeout time.Duration) error {
	if b.released.Load() {
		return nil
	}
	e := b.engine
	b.beginRelease()
	if e.stopped.Load() || b.unread() {
		b.released.Store(true) // Close ended every voice, or none can read it
		return nil
	}
	deadline := time.Now().Add(timeout)
	for spin := 0; ; spin++ {
		// Keep a quarter of what is left for the stalled-device path.
		remaining := time.Until(deadline)
		if err := e.barrier.Wait(max(remaining*3/4, 0)); err != nil {
			// Stalled: hold the mixer out and look for ourselves.
			if serr := e.seize(deadline); serr == nil {
				e.mix.passSeized()
				n := b.readers.Load()
				e.barrier.Unseize()
				if n == 0 {
					b.released.Store(true)
					return nil
				}
			}
			return b.inUse(timeout)
		}
		if b.readers.Load() == 0 {
			b.released.Store(true)
			return nil
		}
		if time.Now().After(deadline) {
			return b.inUse(timeout)
		}
		time.Sleep(min(time.Duration(spin+1)*100*time.Microsecond, 2*time.Millisecond, time.Until(deadline)))
	}
}

// markPlayed records that a Play reached the bank; Play calls it before
// it checks closing. It stores only once, so Plays on a hot bank share
// the line read-only.
func (b *Bank) markPlayed() {
	if !b.played.Load() {
		b.played.Store(true)
	}
}

// unread reports, once closing is set, that no voice reads the bank and
// none can start on it. Either no Play has reached it (one that marks it
// later sees closing and is refused), or no command was queued since a
// StopAll that returned nil (that StopAll ended every voice and
// cancelled every Play queued before it; a Play queued later is popped
// after closing was set, and the mixer refuses it).
func (b *Bank) unread() bool {
	e := b.engine
	if b.readers.Load() != 0 {
		return false
	}
	return !b.played.Load() || e.q.Claimed() == e.quiet.Load()
}

// beginRelease refuses new voices for the time of a Release.
func (b *Bank) beginRelease() {
	b.relMu.Lock()
	b.releasers++
	b.closing.Store(true)
	b.relMu.Unlock()
}

// inUse ends a failed Release: it builds the error naming the bank's
// readers, then reopens the bank unless another Release is still running
// or one has succeeded.
func (b *Bank) inUse(timeout time.Duration) error {
	var names []string
	for s := range b.engine.slots.states {
		st := &b.engine.slots.states[s]
		if st.bank.Load() == b {
			names = append(names, makeHandle(uint32(s), uint32(st.gen.Load())).String())
		}
	}
	err := fmt.Errorf("%w: bank %q after %v: %d voice(s) still reading it: %s",
		ErrBankInUse, b.name, timeout, b.readers.Load(), strings.Join(names, ", "))
	b.relMu.Lock()
	b.releasers--
	if b.releasers == 0 && !b.released.Load() {
		b.closing.Store(false)
	}
	b.relMu.Unlock()
	return err
}
