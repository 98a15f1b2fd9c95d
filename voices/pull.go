package voices

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
)

// Pull is a Device for an application that already owns its audio
// output, such as an Ebitengine game (Ebitengine owns the process's one
// oto context): it opens nothing and runs no goroutine. The application's
// sink pulls the mix through Read, an io.Reader of interleaved frames in
// the engine's format (float32 little-endian stereo at 48 kHz by default,
// which is what Ebitengine's audio.Context.NewPlayerF32 reads from a
// context made with audio.NewContext(48000)):
//
//	pull := voices.NewPull()
//	eng, err := voices.NewEngine(voices.EngineDesc{Device: pull})
//	...
//	player, err := audioContext.NewPlayerF32(pull)
//	player.Play()
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

	reads atomic.Uint64
}

type pullState uint8

const (
	pullIdle pullState = iota
	pullStarted
	pullClosed
)

// NewPull returns a Pull device for one engine.
func NewPull() *Pull { return &Pull{} }

// Start records the engine's mixer; from now on Read renders it. The
// engine calls it.
func (p *Pull) Start(f Format, src io.Reader) error {
	if err := f.Validate(); err != nil {
		return err
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
