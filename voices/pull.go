package voices

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
)

// Pull is a Device for an application that already owns its audio
// output, such as an Ebitengine game (Ebitengine owns the process's one
// oto context): it opens nothing and runs no goroutine. The
// application's sink pulls the mix through Read, an io.Reader of
// interleaved frames in the engine's format. NewPull takes the rate the
// sink reads at. An engine whose EngineDesc.Format is zero renders
// float32 little-endian stereo at that rate, which is what Ebitengine's
// audio.Context.NewPlayerF32 reads. One whose Format names another rate
// is refused, so a mismatch cannot play silently pitched.
//
// With Ebitengine, give NewPull the rate of audio.NewContext (48000
// unless the game's assets want 44100). Set the player's buffer to tens
// of milliseconds. Ebitengine's default buffer is half a second, which
// it fills in one pull. So every Play queued during that half second
// starts in the same mixer block, and the voices fill at once. At 200
// plays a second, two thirds were refused. 50 ms plays them all at
// their own times:
//
//	pull := voices.NewPull(48000)
//	eng, err := voices.NewEngine(voices.EngineDesc{Device: pull})
//	...
//	player, err := audio.NewContext(48000).NewPlayerF32(pull)
//	player.SetBufferSize(50 * time.Millisecond)
//	player.Play()
//
// To keep the half-second buffer instead, set EngineDesc.StartLatency
// to it: each Play is then placed half a second after its call.
//
// The goroutine that calls Read is the audio goroutine: the mixer runs
// inside Read, on the caller's goroutine and buffer. Read belongs to one
// goroutine at a time, though which one may change (oto's Player.Play
// makes its first reads on a goroutine of its own, then its mixing
// goroutine takes over); the other methods are safe from any goroutine.
//
// When the sink stops pulling (Ebitengine suspends audio while its window
// is unfocused), StopAll and Bank.Release take their stalled-device path
// and still prove the memory free within their timeout. The same happens
// when they are called on the pulling goroutine itself, which can never be
// inside Read while it waits: they return, but only after three quarters
// of their timeout.
type Pull struct {
	// mu is held across every Read, so that Close can wait out a read in
	// progress: the engine's source must not be read after Close returns.
	// Nothing else takes it while a sink pulls, so it never queues the
	// audio goroutine.
	mu    sync.Mutex
	src   io.Reader
	state pullState
	rate  int // the rate the sink reads at, fixed at NewPull

	reads atomic.Uint64
}

type pullState uint8

const (
	pullIdle pullState = iota
	pullStarted
	pullClosed
)

// NewPull returns a Pull device for one engine, read at rate Hz.
func NewPull(rate int) *Pull { return &Pull{rate: rate} }

// Rate returns the rate the Pull is read at.
func (p *Pull) Rate() int { return p.rate }

// Start records the engine's mixer; from now on Read renders it. The
// engine calls it.
func (p *Pull) Start(f Format, src io.Reader) error {
	if err := f.Validate(); err != nil {
		return err
	}
	if f.Rate != p.rate {
		return fmt.Errorf("%w: pull device read at %d Hz started at %d Hz", ErrDevice, p.rate, f.Rate)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.state != pullIdle {
		return fmt.Errorf("%w: pull device started twice", ErrDevice)
	}
	p.state, p.src = pullStarted, src
	return nil
}

// Read fills b with the next bytes of the mix in the engine's format,
// rendering as many mixer blocks as it needs; b need not hold whole
// frames. Before the engine has started the device, Read returns
// silence; after the engine is closed it returns io.EOF, so the sink
// stops. It never blocks on the engine and, once the engine is warm,
// allocates nothing.
func (p *Pull) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch p.state {
	case pullIdle:
		clear(b)
		return len(b), nil
	case pullClosed:
		return 0, io.EOF
	}
	p.reads.Add(1)
	return p.src.Read(b)
}

// Stats reports the reads made. The sink's buffering is the
// application's: Latency and Underruns stay 0.
func (p *Pull) Stats() DeviceStats {
	return DeviceStats{Name: "pull", Reads: p.reads.Load()}
}

// Err returns nil: a Pull device cannot fail; its sink reports its own
// errors.
func (p *Pull) Err() error { return nil }

// Close waits out a Read in progress (the time to render what it asked
// for: microseconds per block) and makes later Reads return io.EOF. The
// engine calls it.
func (p *Pull) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.state, p.src = pullClosed, nil
	return nil
}
