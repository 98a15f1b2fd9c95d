package otodev

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ebitengine/oto/v3"

	"github.com/steadyframe/steadyframe/voices"
)

// DefaultBufferFrames is the oto buffer (the ALSA ring, and the player's
// own buffer) in device frames: 512 frames is 10.7 ms at 48 kHz (see
// MaxLatency).
const DefaultBufferFrames = 512

// ReadyTimeout bounds the wait for oto to open the sound card.
const ReadyTimeout = 5 * time.Second

// Desc configures a Device. The zero value of each field picks its
// default. New copies it; it is a plain value.
type Desc struct {
	// BufferFrames sizes both oto's device buffer
	// (NewContextOptions.BufferSize) and the player's buffer
	// (Player.SetBufferSize); 0 means DefaultBufferFrames. With Context
	// set it sizes the player's buffer only.
	BufferFrames int
	// Context is an oto context the application already made (oto allows
	// one per process), or nil for the Device to open, or share, the
	// process's own. With a Context the Device makes one player on it and
	// never suspends, resumes or closes it: the context stays the
	// application's, before and after the engine.
	Context *oto.Context
	// ContextFormat is the format Context was made with, which oto cannot
	// report; the engine's format (EngineDesc.Format) must equal it, or
	// Start fails with ErrFormatMismatch. The zero Format means
	// voices.DefaultDeviceFormat (48 kHz float32 stereo:
	// oto.NewContextOptions{SampleRate: 48000, ChannelCount: 2, Format:
	// oto.FormatFloat32LE}). Unused without Context.
	ContextFormat voices.Format
}

// Device is a voices.Device that plays through oto: one oto.Player whose
// reader is the engine's mixer, read by oto's own goroutine (the audio
// goroutine), on the process's oto context or on one the application
// made (Desc.Context). Start and Close belong to the engine; Stats and
// Err are safe from any goroutine.
type Device struct {
	desc   Desc
	format voices.Format
	ctx    *oto.Context
	player atomic.Pointer[oto.Player]
	// alsa is the device-side buffer, constant once started; unknown, so
	// 0, on an adopted context.
	alsa time.Duration

	// mu is held for every read of src, so Close can wait out a read in
	// progress: oto releases its own lock while it reads.
	mu     sync.Mutex
	src    io.Reader
	closed bool

	// The device's clock, kept by reads under mu: from start the device
	// plays at the format's rate, so handed frames last until
	// start+handed÷rate. A read after that found the device dry.
	start  time.Time
	handed int64

	reads     atomic.Uint64
	underruns atomic.Uint64
	latencyNs atomic.Int64
}

// New returns an unstarted Device.
func New(d Desc) *Device {
	if d.BufferFrames <= 0 {
		d.BufferFrames = DefaultBufferFrames
	}
	if d.ContextFormat == (voices.Format{}) {
		d.ContextFormat = voices.DefaultDeviceFormat
	}
	return &Device{desc: d}
}

// The oto context is per process (oto refuses a second NewContext), so it
// is shared by every Device in the process; shared.mu guards it.
var shared struct {
	mu     sync.Mutex
	ctx    *oto.Context
	format voices.Format
	frames int
	err    error
}

// ErrFormatMismatch is returned when a Device asks for a format or buffer
// other than the one the process's oto context was opened with, or when
// the engine's format differs from an adopted context's
// (Desc.ContextFormat).
var ErrFormatMismatch = errors.New("otodev: the process's oto context has another format")

func openContext(f voices.Format, frames int) (*oto.Context, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.err != nil {
		return nil, shared.err
	}
	if shared.ctx != nil {
		if shared.format != f || shared.frames != frames {
			return nil, fmt.Errorf("%w: open as %v with %d frames, asked %v with %d", ErrFormatMismatch, shared.format, shared.frames, f, frames)
		}
		return shared.ctx, nil
	}
	enc := oto.FormatFloat32LE
	if f.Encoding == voices.EncodingInt16LE {
		enc = oto.FormatSignedInt16LE
	}
	ctx, err := newContext(&oto.NewContextOptions{
		SampleRate: f.Rate, ChannelCount: f.Channels, Format: enc,
		BufferSize: f.Duration(frames),
	})
	if err != nil {
		shared.err = fmt.Errorf("otodev: opening the sound card: %w", err)
		return nil, shared.err
	}
	shared.ctx, shared.format, shared.frames = ctx, f, frames
	return ctx, nil
}

// newContext makes an oto context and waits for the sound card, at most
// ReadyTimeout.
func newContext(o *oto.NewContextOptions) (*oto.Context, error) {
	ctx, ready, err := oto.NewContext(o)
	if err != nil {
		return nil, err
	}
	select {
	case <-ready:
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return ctx, nil
	case <-time.After(ReadyTimeout):
		return nil, fmt.Errorf("otodev: sound card not ready after %v", ReadyTimeout)
	}
}

// Start opens (or reuses) the process's oto context in format f, or takes
// the application's (Desc.Context), and starts one player reading src.
func (d *Device) Start(f voices.Format, src io.Reader) error {
	if err := f.Validate(); err != nil {
		return err
	}
	ctx := d.desc.Context
	if ctx != nil {
		if f != d.desc.ContextFormat {
			return fmt.Errorf("%w: the engine plays %v, the application's context was made for %v (Desc.ContextFormat)",
				ErrFormatMismatch, f, d.desc.ContextFormat)
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("otodev: the application's oto context: %w", err)
		}
	} else {
		var err error
		if ctx, err = openContext(f, d.desc.BufferFrames); err != nil {
			return err
		}
		d.alsa = f.Duration(d.desc.BufferFrames)
	}
	d.format, d.ctx, d.src = f, ctx, src
	p := ctx.NewPlayer(reader{d})
	// Small player buffer: oto reads the mixer this many bytes at a time
	// and keeps at most about twice that queued.
	p.SetBufferSize(d.desc.BufferFrames * f.FrameBytes())
	d.player.Store(p)
	p.Play()
	if err := p.Err(); err != nil {
		// oto may already be reading the player: stop it reaching the
		// mixer, which the engine now hands to its fallback device.
		_ = d.Close()
		return fmt.Errorf("otodev: starting the player: %w", err)
	}
	return nil
}

// reader is what oto pulls: the mixer, behind the device's lock, with the
// buffer level sampled at each read.
type reader struct{ d *Device }

func (r reader) Read(b []byte) (int, error) {
	d := r.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		clear(b)
		return len(b), nil
	}
	d.reads.Add(1)
	d.clock(time.Now())
	if p := d.player.Load(); p != nil {
		buffered := p.BufferedSize()
		d.latencyNs.Store(int64(d.alsa) + int64(d.format.Duration(buffered/d.format.FrameBytes())))
	}
	n, err := d.src.Read(b)
	d.handed += int64(n / d.format.FrameBytes())
	return n, err
}

// clock counts an underrun when a read comes more than a player buffer
// after the device, playing at its rate since the first read, would have
// played everything handed to it: the sound card ran dry and played
// silence. It then restarts the clock where the gap ended, so one gap
// counts once. Until two buffers have been handed the device is still
// starting (oto and ALSA open it between the first reads): a gap then
// restarts the clock without counting. An unpaced device (ALSA's null
// slave) never counts one.
func (d *Device) clock(now time.Time) {
	if d.start.IsZero() {
		d.start = now
		return
	}
	handed := d.format.Duration(int(d.handed))
	if now.Sub(d.start) > handed+d.format.Duration(d.desc.BufferFrames) {
		if d.handed >= int64(2*d.desc.BufferFrames) {
			d.underruns.Add(1)
		}
		d.start = now.Add(-handed)
	}
}

// Stats reports the buffered audio and the underruns. The buffered audio
// is the ALSA ring plus the player's queue at the last read. On an
// adopted context it is the player's queue only: the device buffer is the
// application's. An underrun is a read that came after the device had
// played all it was handed (see clock).
func (d *Device) Stats() voices.DeviceStats {
	return voices.DeviceStats{
		Name: "oto", Latency: time.Duration(d.latencyNs.Load()),
		Underruns: d.underruns.Load(), Reads: d.reads.Load(),
	}
}

// Err returns the oto context's error (a sound card that failed or
// died). It does not ask the player. oto sets a player's error only when
// its reader fails, and the mixer never does (Start checks the player
// once). Asking would take the player's lock, which oto's audio thread
// holds while it mixes. So a game goroutine polling Err would queue behind
// the audio thread.
func (d *Device) Err() error {
	if d.ctx != nil {
		return d.ctx.Err()
	}
	return nil
}

// Close pauses the player and waits out any read in progress; the mixer
// is not read again. oto keeps reading a paused player (and removes it
// only when the garbage collector finds it unreachable; Player.Close does
// nothing since v3.4), so the reader answers silence from here on. The
// oto context, the process's or the application's, is left running (oto
// cannot close one, and an adopted one is not the Device's to suspend).
func (d *Device) Close() error {
	if p := d.player.Swap(nil); p != nil {
		p.Pause()
	}
	d.mu.Lock()
	d.closed = true
	d.src = nil
	d.mu.Unlock()
	return nil
}
