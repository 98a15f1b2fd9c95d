package voices

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// Device is the seam between the engine and whatever plays its output:
// the sound card (package otodev) or the Offline device. It is declared
// here so that the mixer, queue, converters and banks build and test
// without cgo.
//
// The engine calls Start once, from the goroutine that calls NewEngine.
// It calls Close once, even after a failed Start, so that a device
// whose goroutine began pulling stops. Close runs on a goroutine of its
// own, which the engine abandons if Close outlives
// EngineDesc.CloseTimeout. Stats and Err may be called from any
// goroutine and must not block.
type Device interface {
	// Start begins pulling src, which renders interleaved frames of f
	// and never fails, from the device's own audio goroutine (or the
	// application's, for a Pull), and returns once the device runs or has
	// failed to start. src must not be read after Close returns; once the
	// engine has begun closing, or has given up on a failed Start, src
	// reads silence without touching the mixer.
	Start(f Format, src io.Reader) error
	// Stats reports the device's buffering and underruns.
	Stats() DeviceStats
	// Err returns the device's first error, or nil.
	Err() error
	// Close stops pulling src.
	Close() error
}

// DeviceStats is a snapshot of a device's counters: a plain value, safe
// to hand to any goroutine.
type DeviceStats struct {
	Name string
	// Latency is how much rendered audio sits between the mixer and the
	// output: the device's buffers at the time of the last read.
	Latency time.Duration
	// Underruns counts reads that found the device's buffers empty, so it
	// played silence.
	Underruns uint64
	// Reads counts calls of the mixer.
	Reads uint64
}

// ErrDevice is returned by a device that cannot do what was asked.
var ErrDevice = errors.New("voices: device")

// OfflineDesc configures an Offline device. The zero value is a manual
// device: nothing is rendered until the caller calls Render. NewOffline
// copies it; Sink is written from the device's goroutine only.
type OfflineDesc struct {
	// RealTime pulls one block per block duration of wall-clock time on
	// the device's own goroutine: the engine's fallback when there is no
	// sound card, so voices end at the pace they would on a real device.
	RealTime bool
	// BlockFrames is the real-time pull size; 0 means DefaultBlockFrames.
	BlockFrames int
	// Sink receives what a real-time device renders; nil discards it.
	Sink io.Writer
}

// Offline is a Device with no sound card: it pulls the mixer on a
// simulated clock, either when the caller calls Render (the audio
// goroutine is then the caller's) or, in real-time mode, from its own
// goroutine. A manual Offline device that is never rendered behaves like
// a stalled sound card.
//
// Render and RenderWAV belong to one goroutine at a time and must not be
// called in real-time mode; Stats, Clock and Err are safe from any
// goroutine.
type Offline struct {
	desc   OfflineDesc
	format Format
	src    io.Reader
	frames atomic.Int64 // frames rendered: the simulated clock
	reads  atomic.Uint64

	// err is the first error writing to the Sink, set once; Err reads it
	// without a lock, so that polling it never queues a waiter.
	err atomic.Pointer[error]

	// mu guards the started/closed state, and a manual Render holds it for
	// the whole pull, so that Close can wait out a Render in progress: the
	// mixer must not be read after Close returns.
	mu      sync.Mutex
	started bool
	closed  bool
	// stopping asks the real-time loop to end; done is closed when it has.
	stopping atomic.Bool
	done     chan struct{}
}

// NewOffline returns an Offline device.
func NewOffline(d OfflineDesc) *Offline {
	if d.BlockFrames <= 0 {
		d.BlockFrames = DefaultBlockFrames
	}
	return &Offline{desc: d}
}

// Start records src and, in real-time mode, starts pulling it.
func (o *Offline) Start(f Format, src io.Reader) error {
	if err := f.Validate(); err != nil {
		return err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.started {
		return fmt.Errorf("%w: offline device started twice", ErrDevice)
	}
	o.started, o.format, o.src = true, f, src
	if o.desc.RealTime {
		o.done = make(chan struct{})
		go o.run()
	}
	return nil
}

// stopPoll is the longest the real-time loop sleeps before it looks at
// its stop flag again: it bounds Close's wait, whatever the block period.
const stopPoll = 5 * time.Millisecond

// run pulls one block per block duration until Close. It parks only in
// time.Sleep, which reuses the goroutine's own timer: a select on a ticker
// and a stop channel would park on sudogs, which the runtime allocates
// anew once a GC has emptied its cache, so the loop would allocate in
// steady state.
func (o *Offline) run() {
	defer close(o.done)
	buf := make([]byte, o.desc.BlockFrames*o.format.FrameBytes())
	period := o.format.Duration(o.desc.BlockFrames)
	next := time.Now()
	for {
		next = next.Add(period)
		if !o.sleepUntil(next) {
			return
		}
		if time.Since(next) > period {
			// Behind by more than a block (the process was stopped or
			// starved): skip the missed blocks, as a Ticker drops ticks,
			// rather than render a burst.
			next = time.Now()
		}
		n, _ := o.pull(buf)
		if o.desc.Sink != nil {
			if _, err := o.desc.Sink.Write(buf[:n]); err != nil {
				o.setErr(err)
				return
			}
		}
	}
}

// sleepUntil sleeps until t, in naps of at most stopPoll, and reports
// false as soon as Close has asked the loop to stop.
func (o *Offline) sleepUntil(t time.Time) bool {
	for !o.stopping.Load() {
		d := time.Until(t)
		if d <= 0 {
			return true
		}
		time.Sleep(min(d, stopPoll))
	}
	return false
}

func (o *Offline) pull(p []byte) (int, error) {
	n, err := io.ReadFull(o.src, p)
	o.reads.Add(1)
	o.frames.Add(int64(n / o.format.FrameBytes()))
	return n, err
}

func (o *Offline) setErr(err error) { o.err.CompareAndSwap(nil, &err) }

// Render pulls len(p) bytes of device frames from the mixer into p,
// advancing the simulated clock; p should hold whole frames.
func (o *Offline) Render(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.started || o.closed || o.desc.RealTime {
		return 0, fmt.Errorf("%w: Render on an offline device that is not started, closed or real-time", ErrDevice)
	}
	return o.pull(p)
}

// Clock returns the simulated time: how much audio has been rendered.
func (o *Offline) Clock() time.Duration {
	return o.format.Duration(int(o.frames.Load()))
}

// Stats reports the reads made; an offline device never underruns and
// buffers nothing.
func (o *Offline) Stats() DeviceStats {
	return DeviceStats{Name: "offline", Reads: o.reads.Load()}
}

// Err returns the first error writing to the Sink. It never blocks.
func (o *Offline) Err() error {
	if p := o.err.Load(); p != nil {
		return *p
	}
	return nil
}

// Close stops a real-time device's goroutine, or waits out a manual
// Render in progress, so the mixer is not read after Close returns. A
// real-time loop notices within stopPoll (or once its pull in progress
// returns), whatever the block period.
func (o *Offline) Close() error {
	// A manual Render holds mu for its whole pull: taking it waits that
	// Render out, and every later one sees closed. The real-time loop
	// never takes mu, so waiting for it here cannot deadlock.
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil
	}
	o.closed = true
	if o.done != nil {
		o.stopping.Store(true)
		<-o.done
	}
	return nil
}

// WAV format tags.
const (
	wavPCM   = 1
	wavFloat = 3
)

// WAVHeader returns the header of a WAV file holding frames frames of f:
// PCM for int16, IEEE float (with the fact chunk the spec asks for) for
// float32. The sample data follows it unchanged, since both are little
// endian. A negative count, or one whose data passes the 4 GiB a RIFF
// size can hold, is refused with ErrPCM.
func WAVHeader(f Format, frames int) ([]byte, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	// The header adds at most 58 bytes, all counted in the RIFF size,
	// which is 32 bits.
	if frames < 0 || uint64(frames)*uint64(f.FrameBytes()) > math.MaxUint32-64 {
		return nil, fmt.Errorf("%w: %d frames of %v do not fit a RIFF file (4 GiB)", ErrPCM, frames, f)
	}
	data := frames * f.FrameBytes()
	tag, fmtLen := uint16(wavPCM), uint32(16)
	if f.Encoding == EncodingFloat32LE {
		tag, fmtLen = wavFloat, 18
	}
	h := make([]byte, 0, 58)
	le := binary.LittleEndian
	h = append(h, "RIFF"...)
	riff := 4 + (8 + fmtLen) + 8 + uint32(data)
	if tag == wavFloat {
		riff += 12
	}
	h = le.AppendUint32(h, riff)
	h = append(h, "WAVEfmt "...)
	h = le.AppendUint32(h, fmtLen)
	h = le.AppendUint16(h, tag)
	h = le.AppendUint16(h, uint16(f.Channels))
	h = le.AppendUint32(h, uint32(f.Rate))
	h = le.AppendUint32(h, uint32(f.Rate*f.FrameBytes()))
	h = le.AppendUint16(h, uint16(f.FrameBytes()))
	h = le.AppendUint16(h, uint16(8*f.Encoding.SampleBytes()))
	if tag == wavFloat {
		h = le.AppendUint16(h, 0) // cbSize
		h = append(h, "fact"...)
		h = le.AppendUint32(h, 4)
		h = le.AppendUint32(h, uint32(frames))
	}
	h = append(h, "data"...)
	h = le.AppendUint32(h, uint32(data))
	return h, nil
}

// RenderWAV renders the next frames frames, advancing the simulated clock,
// and writes them to w as a complete WAV file. It renders in blocks
// through one buffer, so the file's size does not bound memory.
func (o *Offline) RenderWAV(w io.Writer, frames int) error {
	if frames < 0 {
		return fmt.Errorf("%w: RenderWAV of %d frames", ErrInvalid, frames)
	}
	h, err := WAVHeader(o.format, frames)
	if err != nil {
		return fmt.Errorf("%w: RenderWAV before Start: %w", ErrDevice, err)
	}
	if _, err := w.Write(h); err != nil {
		return err
	}
	fb := o.format.FrameBytes()
	buf := make([]byte, o.desc.BlockFrames*fb)
	for frames > 0 {
		n := min(frames, o.desc.BlockFrames)
		if _, err := o.Render(buf[:n*fb]); err != nil {
			return err
		}
		if _, err := w.Write(buf[:n*fb]); err != nil {
			return err
		}
		frames -= n
	}
	return nil
}
