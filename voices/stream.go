package voices

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// StreamSource is what a Stream decodes ahead from: PCM frames in one
// Format, read in order. NewPCMSource reads raw PCM from an io.ReaderAt;
// voices/wav, voices/mp3 and voices/flac make sources from files. A
// source belongs to its Stream's decoder goroutine once NewStream has it:
// no other goroutine may call it until Stream.Close returns nil.
type StreamSource interface {
	// Format returns the PCM format Read produces; it never changes.
	Format() Format
	// Read decodes the next frames into p, whose length is a whole number
	// of frames, and returns the bytes written, also a whole number of
	// frames. At the end of the stream it returns io.EOF, with n ≥ 0.
	Read(p []byte) (int, error)
	// SeekFrame makes the next Read start at frame n of the stream.
	SeekFrame(n int64) error
}

// DefaultStreamBuffer is how much decoded audio a Stream buffers ahead
// unless StreamDesc.Buffer says otherwise.
const DefaultStreamBuffer = 500 * time.Millisecond

// streamRead is the most frames the decoder asks its source for at once,
// so that the mixer sees fresh frames while a long refill runs.
const streamRead = 4096

// Stream errors.
var (
	// ErrStreamInUse is returned by Stream.Close when a voice still
	// plays the stream, or its decoder is still inside a call to the
	// source, at the timeout.
	ErrStreamInUse = errors.New("voices: stream still in use")
	// ErrStream is returned by NewStream when the source fails before
	// the stream could buffer anything, and kept by Stream.Err when it
	// fails later.
	ErrStream = errors.New("voices: stream source failed")
)

// StreamDesc configures a stream. It is a plain value, read once by
// NewStream; the zero value of each optional field picks its default.
type StreamDesc struct {
	// Name is used in errors.
	Name string
	// Source is the decoder; its Format must be one the engine pools.
	Source StreamSource
	// Buffer is how much decoded audio the stream holds ahead; 0 means
	// DefaultStreamBuffer. It is rounded up to at least four mixer blocks
	// of reading at pitch 4 plus the pitch filter's window.
	Buffer time.Duration
	// Loop repeats the stream's loop region until Stop. A stream is
	// decoded ahead, so its looping is fixed here: Play must pass the
	// same PlayDesc.Loop.
	Loop bool
	// LoopStart and LoopEnd are the loop points, in frames of the source;
	// LoopEnd 0 means the end of the stream.
	LoopStart, LoopEnd int64
}

// Stream is a clip decoded while it plays, from a StreamSource, into a
// fixed-size ring buffer. One goroutine per stream, started by
// NewStream, does the decoding, so a source that blocks delays only its
// own stream. Its Clip plays through the normal voice paths, one voice
// at a time.
//
// A Stream's methods are safe for concurrent use. The source, and
// whatever reader it reads, must stay valid until Close returns nil.
type Stream struct {
	name   string
	eng    *Engine
	src    StreamSource
	bank   *Bank
	clip   Clip
	st     *streamState
	frames int // the ring's length in frames

	poll time.Duration // how often the decoder looks for room in the ring
	quit atomic.Bool   // set by Close: the decoder returns
	done chan struct{} // closed when the decoder goroutine returns

	err atomic.Pointer[error]
}

// streamState is what the mixer and the decoder goroutine share. The
// decoder writes the ring ahead of written; the mixer reads behind it and
// publishes consumed. Each side writes only its own counters.
type streamState struct {
	s    *Stream
	ring []byte
	n    uint64 // ring frames
	fb   int
	need uint64 // most frames a voice reads ahead of its position in a block
	// behind is how many frames before its position a voice may read
	// (the pitch filter's history): the decoder never overwrites them.
	behind uint64

	written  atomic.Uint64 // frames written since the last rewind (decoder)
	consumed atomic.Uint64 // frames the voice has moved past (mixer)
	// eof is set by the decoder once the stream's last frame and the
	// silent tail after it are written; final is then the frame at which
	// the voice ends.
	eof   atomic.Bool
	final atomic.Uint64
	// rewinding is set by the mixer when the stream's voice ends and
	// cleared by the decoder once it has rewound the source and reset the
	// counters: no voice reads the ring meanwhile.
	rewinding atomic.Bool

	// Owned by the mixer.
	lastPos uint64 // the voice's ring position before this block
	starved bool   // the last block was an underrun
	gated   bool   // gated this block: streamsAdvance accounts for it
	v       *voice // the voice gated this block

	loop bool // StreamDesc.Loop, which Play must match
}

// NewStream makes a stream over d.Source and fills its buffer on the
// calling goroutine before it returns, so that a first Play starts at
// once. It then starts the stream's decoder goroutine. Everything the
// stream needs is allocated here; its memory is Memory bytes.
func (e *Engine) NewStream(d StreamDesc) (*Stream, error) {
	if e.closed.Load() {
		return nil, fmt.Errorf("%w: NewStream %q", ErrClosed, d.Name)
	}
	if d.Source == nil {
		return nil, fmt.Errorf("%w: stream %q has no Source", ErrInvalid, d.Name)
	}
	f := d.Source.Format()
	if err := f.Validate(); err != nil {
		return nil, fmt.Errorf("stream %q: %w", d.Name, err)
	}
	p := e.slots.pool(f)
	if p == nil {
		return nil, fmt.Errorf("%w: stream %q: %v is not one of the engine's formats (EngineDesc.Formats)", ErrFormat, d.Name, f)
	}
	if d.Buffer < 0 || d.LoopStart < 0 || d.LoopEnd < 0 || (d.LoopEnd != 0 && d.LoopStart >= d.LoopEnd) {
		return nil, fmt.Errorf("%w: stream %q: Buffer %v, loop [%d, %d)", ErrInvalid, d.Name, d.Buffer, d.LoopStart, d.LoopEnd)
	}
	if d.Buffer == 0 {
		d.Buffer = DefaultStreamBuffer
	}
	need, behind := e.streamReach(f)
	frames := max(uint64(d.Buffer.Seconds()*float64(f.Rate)), 4*need+behind)
	fb := f.FrameBytes()
	s := &Stream{
		name: d.Name, eng: e, src: d.Source, frames: int(frames),
		poll: min(max(f.Duration(int(frames))/16, time.Millisecond), 10*time.Millisecond),
		done: make(chan struct{}),
	}
	st := &streamState{s: s, ring: make([]byte, int(frames)*fb), n: frames, fb: fb, need: need, behind: behind, loop: d.Loop}
	s.st = st
	b, err := e.NewBank("stream "+d.Name, st.ring)
	if err != nil {
		return nil, err
	}
	s.bank = b
	// The voice plays the ring as a loop of its whole length: the decoder
	// keeps the frames ahead of it fresh, and the loop paths already read
	// across the ring's seam as one signal.
	c, err := b.Clip(ClipDesc{Format: f, MaxInstances: 1})
	if err != nil {
		return nil, err
	}
	c.c.stream = st
	s.clip = c
	dec := &streamDecoder{s: s, st: st, loop: d.Loop, loopStart: d.LoopStart, loopEnd: d.LoopEnd}
	if err := dec.fill(); err != nil {
		return nil, fmt.Errorf("%w: stream %q: %w", ErrStream, d.Name, err)
	}
	e.streams.add(s)
	go dec.run()
	return s, nil
}

// streamReach returns how many frames of a stream of format f a voice
// may read ahead of its position in one block (at pitch 4, with the pitch
// filter's window), and how many behind it.
func (e *Engine) streamReach(f Format) (need, behind uint64) {
	m := e.mix
	taps := uint64(m.voices[e.slots.pool(f).base].ps.bank.For(pitchStep(f.Rate, m.dev.Rate, MaxPitch)).Taps())
	adv := uint64(m.block)*uint64(f.Rate)*MaxPitch/uint64(m.dev.Rate) + 2
	return adv + taps, taps
}

// Clip returns the clip that plays the stream. It plays one voice at a
// time (a second Play is refused with ErrNoVoice, as MaxInstances 1
// refuses), never with a PlayDesc.Offset, and with PlayDesc.Loop as
// StreamDesc.Loop set it.
func (s *Stream) Clip() Clip { return s.clip }

// Name returns the stream's name.
func (s *Stream) Name() string { return s.name }

// Memory returns the bytes of the stream's ring buffer: its Buffer at the
// source format's frame size. The decoder's own state is the source's.
func (s *Stream) Memory() int { return len(s.st.ring) }

// Err returns the first error the source returned while playing, or nil.
// The stream ends at a source error as at its end.
func (s *Stream) Err() error {
	if p := s.err.Load(); p != nil {
		return *p
	}
	return nil
}

// Close ends the stream: no voice may start on it any more, and once it
// returns nil neither the mixer nor the decoder goroutine touches the
// source again, so the caller may close or reuse its reader. It waits up
// to timeout, first for the stream's voice to end (as Bank.Release does:
// Stop it first), then for the decoder to leave the source. At the
// timeout it returns ErrStreamInUse naming which; a voice still playing
// leaves the stream usable, a decoder still in the source does not. A
// decoder refilling the ring stops after the source call it is in (at
// most 4096 frames), so the wait is one call, not a whole refill.
// Safe from any goroutine; once it has returned nil it returns nil.
func (s *Stream) Close(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	if err := s.bank.Release(timeout); err != nil {
		return fmt.Errorf("%w: stream %q: %w", ErrStreamInUse, s.name, err)
	}
	s.stop()
	t := time.NewTimer(max(time.Until(deadline), time.Millisecond))
	defer t.Stop()
	select {
	case <-s.done:
		s.eng.streams.remove(s)
		return nil
	case <-t.C:
		return fmt.Errorf("%w: stream %q after %v: its decoder is still inside a call to the source", ErrStreamInUse, s.name, timeout)
	}
}

// stop tells the decoder goroutine to return.
func (s *Stream) stop() { s.quit.Store(true) }

func (s *Stream) setErr(err error) {
	err = fmt.Errorf("%w: stream %q: %w", ErrStream, s.name, err)
	s.err.CompareAndSwap(nil, &err)
}

// streamDecoder is the decoder goroutine's state: it alone calls the
// source.
type streamDecoder struct {
	s         *Stream
	st        *streamState
	loop      bool
	loopStart int64
	loopEnd   int64
	pos       int64  // the source's next frame
	tail      uint64 // silent frames still to write after the end
	ended     bool   // the source's last frame is written
	rewound   bool   // rewound, refilling: rewinding clears once the ring is full
}

// run is the decoder goroutine: it refills the ring, rewinds when the
// stream's voice has ended, and returns when the stream is closed. It
// polls, sleeping a sixteenth of the ring's length (1 to 10 ms) between
// looks, rather than wait on a channel the mixer signals. A goroutine
// blocked on a channel needs a sudog, which the runtime allocates again
// once a GC has emptied its cache: the guard caught that wait allocating
// in steady frames.
func (d *streamDecoder) run() {
	s, st := d.s, d.st
	defer close(s.done)
	for {
		time.Sleep(s.poll)
		if s.quit.Load() {
			return
		}
		if st.rewinding.Load() && !d.rewound {
			d.rewind()
		}
		if err := d.fill(); err != nil {
			s.setErr(err)
			d.finish()
		}
		if d.rewound {
			// The ring is full again (or the stream has ended): the waiting
			// voice may read it. Clearing rewinding before the refill made a
			// replay's first block an underrun.
			d.rewound = false
			st.rewinding.Store(false)
		}
	}
}

// rewind moves the source back to its start and empties the ring. The
// stream's voice has ended and the next one waits for rewinding to
// clear, so nothing reads the ring meanwhile. run clears it once the
// refill is done.
func (d *streamDecoder) rewind() {
	st := d.st
	d.pos, d.tail, d.ended = 0, 0, false
	if err := d.s.src.SeekFrame(0); err != nil {
		d.s.setErr(err)
		d.ended = true
	}
	st.written.Store(0)
	st.consumed.Store(0)
	st.eof.Store(false)
	d.rewound = true
	if d.ended {
		d.finish()
	}
}

// finish writes the silent tail once the source has ended (or failed).
func (d *streamDecoder) finish() {
	if !d.ended {
		d.ended = true
		d.st.final.Store(d.st.written.Load() + d.st.behind)
		d.tail = 2 * d.st.need
	}
	d.writeTail()
}

// fill decodes into the ring until it is full or the stream has ended.
func (d *streamDecoder) fill() error {
	st := d.st
	for {
		if d.s.quit.Load() {
			// Closed: stop between two reads of the source, so Close
			// waits for one call at most, not for a whole refill.
			return nil
		}
		if d.ended {
			d.writeTail()
			return nil
		}
		w := st.written.Load()
		room := st.consumed.Load() + st.n - st.behind - w
		if room == 0 || st.rewinding.Load() && !d.rewound {
			return nil
		}
		at := w % st.n
		k := min(room, st.n-at, streamRead)
		if d.loop && d.loopEnd > 0 {
			k = min(k, uint64(d.loopEnd-d.pos))
		}
		buf := st.ring[at*uint64(st.fb) : (at+k)*uint64(st.fb)]
		n, err := d.s.src.Read(buf)
		got := uint64(n / st.fb)
		d.pos += int64(got)
		st.written.Store(w + got)
		atEnd := err == io.EOF || (d.loop && d.loopEnd > 0 && d.pos >= d.loopEnd)
		if err != nil && err != io.EOF {
			return err
		}
		if got == 0 && !atEnd {
			return fmt.Errorf("source returned no frames and no error")
		}
		if !atEnd {
			continue
		}
		if !d.loop {
			d.finish()
			return nil
		}
		if d.pos == d.loopStart && got == 0 {
			return fmt.Errorf("the loop [%d, %d) holds no frames", d.loopStart, d.loopEnd)
		}
		if err := d.s.src.SeekFrame(d.loopStart); err != nil {
			return err
		}
		d.pos = d.loopStart
	}
}

// writeTail writes as much of the silent tail as the ring has room for,
// then marks the stream's end.
func (d *streamDecoder) writeTail() {
	st := d.st
	for d.tail > 0 {
		w := st.written.Load()
		room := st.consumed.Load() + st.n - st.behind - w
		if room == 0 {
			return
		}
		at := w % st.n
		k := min(room, st.n-at, d.tail)
		clear(st.ring[at*uint64(st.fb) : (at+k)*uint64(st.fb)])
		st.written.Store(w + k)
		d.tail -= k
	}
	st.eof.Store(true)
}

// streamRegistry is the engine's list of streams, so that Engine.Close
// can stop their decoders. It is touched only when a stream is made or
// closed.
type streamRegistry struct {
	mu   sync.Mutex // guards list
	list []*Stream
}

func (r *streamRegistry) add(s *Stream) {
	r.mu.Lock()
	r.list = append(r.list, s)
	r.mu.Unlock()
}

func (r *streamRegistry) remove(s *Stream) {
	r.mu.Lock()
	for i, x := range r.list {
		if x == s {
			r.list = append(r.list[:i], r.list[i+1:]...)
			break
		}
	}
	r.mu.Unlock()
}

// stopAll tells every stream's decoder to return; Engine.Close calls it.
// It does not wait: Stream.Close is the proof that a source is free.
func (r *streamRegistry) stopAll() {
	r.mu.Lock()
	for _, s := range r.list {
		s.stop()
	}
	r.mu.Unlock()
}
