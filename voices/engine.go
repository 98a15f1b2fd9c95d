package voices

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync/atomic"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/syncs"
)

// Policy is what Play does when every voice the caps allow is busy. It is
// fixed at NewEngine; a plain value.
type Policy uint8

const (
	// PolicyRefuse makes Play return ErrNoVoice (counted in
	// Stats.Refusals).
	PolicyRefuse Policy = iota
	// PolicySteal fades out the voice with the lowest priority, oldest
	// first, that is neither protected nor of higher priority than the new
	// one (a victim that started in the same block, so was never heard,
	// ends at once instead). If there is none, the mixer drops the new
	// voice, counts a refusal, and its handle goes stale at once. The
	// stolen voice gives its place under the caps to the new one, so the
	// counts in Stats never pass a cap; only Stats.MixPeak counts the
	// fading victims too.
	PolicySteal
)

// Defaults for the zero fields of EngineDesc.
const (
	DefaultMaxVoices   = 32
	DefaultBlockFrames = 256
	DefaultQueueSize   = 1024
	DefaultFadeFrames  = 128 // 2.7 ms at 48 kHz; never longer than the block
	// DefaultCloseTimeout bounds Close: the wait for the device's Close
	// and for a mixer block in progress.
	DefaultCloseTimeout = time.Second
)

// EngineDesc configures an Engine. The zero value of each field picks its
// default. It is a plain value: NewEngine reads it once, on the calling
// goroutine, and the caller may reuse it afterwards.
type EngineDesc struct {
	// Device plays the mix; nil means an Offline device in real-time
	// mode (silent). Use otodev.New for the sound card, or a Pull for
	// an audio system the application already runs (Ebitengine). If it
	// fails to start, the engine logs the failure and falls back to a
	// real-time Offline device. It keeps the device's error for Err.
	Device Device
	// Format is the device format; the zero value means
	// DefaultDeviceFormat (48 kHz float32 stereo).
	Format Format
	// Formats are the source formats the engine pools voices for, at
	// most MaxFormats, each once; nil means DefaultFormats. A clip of
	// another format is refused (ErrFormat). Their resampling tables are
	// built here, so Play never builds one. Read once, at NewEngine.
	Formats []Format
	// MaxVoices caps the voices playing at once, over all formats; 0
	// means DefaultMaxVoices.
	MaxVoices int
	// FormatCaps optionally caps the voices of single source formats;
	// a format not listed is capped by MaxVoices only. Read once, at
	// NewEngine.
	FormatCaps map[Format]int
	// Policy decides what happens when no voice is free.
	Policy Policy
	// BlockFrames is the mixer's block: commands take effect at block
	// boundaries; 0 means DefaultBlockFrames.
	BlockFrames int
	// QueueSize bounds the command queue (rounded up to a power of two);
	// 0 means DefaultQueueSize.
	QueueSize int
	// FadeFrames is the fade-out of Stop, steal and StopAll, in device
	// frames, at most BlockFrames; 0 means DefaultFadeFrames, or
	// BlockFrames if the block is shorter.
	FadeFrames int
	// CloseTimeout bounds Close (see Engine.Close), and the closing of a
	// device that failed to start; 0 means DefaultCloseTimeout.
	CloseTimeout time.Duration
	// Resampler converts sources whose rate differs from the device's;
	// the zero value is ResamplerSinc, the band-limited one.
	Resampler Resampler
	// Logger receives the device fallback notice; nil means
	// slog.Default().
	Logger *slog.Logger
	// Buses declares the buses under Master (bus.go), parents first;
	// read once, at NewEngine.
	Buses []BusDesc
	// Events bounds the event queue (PollEvent), rounded up to a power
	// of two; 0 means no events are queued.
	Events int
	// StartLatency, when set, places each Play without an At on the
	// engine clock, at the time it was called plus StartLatency,
	// instead of at the next block. It is for a device that pulls a
	// large span at once, such as Ebitengine's default player buffer of
	// 0.5 s: set StartLatency to it. Then the Plays of one pull start
	// spread as they were called, at a constant latency, rather than
	// all in its first block. A waiting voice counts against the caps
	// only from its start. Play then reads the clock.
	StartLatency time.Duration

	// 3D sound (spatial.go).

	// DistanceModel is how positioned voices fade with distance.
	DistanceModel DistanceModel
	// RefDistance, MaxDistance and Rolloff are the distance settings of
	// positioned voices whose Spatial leaves them zero. Their zero values
	// mean DefaultRefDistance, no maximum (+Inf) and DefaultRolloff.
	RefDistance, MaxDistance, Rolloff float32
	// DopplerFactor scales the doppler shift of positioned voices (1 is
	// physical); 0 means no doppler. With doppler, a positioned voice is
	// played pitched: resampled alone, at the pitched path's cost.
	DopplerFactor float32
	// SpeedOfSound is in the game's units per second; 0 means
	// DefaultSpeedOfSound.
	SpeedOfSound float32

	// Virtual, when set, is how many sounds may play at once (virtual.go,
	// MaxVoices+1 to MaxVirtual), of which the MaxVoices most audible are
	// mixed and the rest tracked in time. MaxVoices and FormatCaps then
	// cap the mixed ones, and Play past them neither refuses nor steals.
	// 0 means no virtual voices: Play past the caps follows Policy.
	Virtual int
}

// PlayDesc holds a voice's settings. The zero value plays once at full
// volume, centred, priority 0, unprotected. Play copies it into the
// command; it is a plain value.
type PlayDesc struct {
	// Volume is the voice's linear gain in [0, 4]; 0 means 1. To start a
	// voice silent, Play it with a tiny volume and SetVolume later.
	Volume float32
	// Pan is -1 (left) to 1 (right).
	Pan float32
	// Loop repeats the clip's loop region until Stop.
	Loop bool
	// Priority orders stealing: lower is stolen first.
	Priority int16
	// Protected voices (music) are never stolen.
	Protected bool
	// Bus is the bus the voice plays on; the zero value is Master.
	Bus Bus
	// FadeIn ramps the voice up from silence to Volume over this long.
	FadeIn time.Duration
	// At is the Clock frame the voice starts at, exact to the frame; 0,
	// or a frame already rendered, means the mixer's next block. A
	// scheduled voice holds its place under the caps from Play on.
	At int64
	// Offset is the source frame the voice starts from, inside the clip.
	Offset int
	// Pitch is the playback-rate ratio, 0.25 to 4; 0 plays at 1 on the
	// shared rate bus. A voice played with a pitch is resampled alone,
	// for its whole life, and SetPitch may change it.
	Pitch float32

	// 3D sound (spatial.go).

	// Spatial, when set, positions the voice around the listener: its
	// distance, direction and cone set its gains and pan (Pan is then
	// unused), and with EngineDesc.DopplerFactor its pitch. Play copies
	// it. Nil plays the voice as without 3D.
	Spatial *Spatial
}

// Engine plays clips on a device through one mixer. Play, Stop, SetVolume,
// SetPan, SetMasterGain, SetFormatGain, Playing, Stats and Err are safe
// from any goroutine and never block: they enqueue fixed-size commands the
// audio goroutine applies at its next block. StopAll, Bank.Release and
// Close are safe from any goroutine and block, each, at most its own
// timeout plus a millisecond or so, whatever other calls are in flight:
// they do not queue behind one another.
type Engine struct {
	format  Format
	policy  Policy
	q       *syncs.Queue[command]
	slots   *slotTable
	mix     *mixer
	barrier syncs.Barrier
	dev     Device
	devName string  // the device's Stats().Name, read once at start
	src     *source // what the device pulls: the mixer, until detached
	log     *slog.Logger
	epoch   time.Time

	closeTimeout time.Duration
	// closed refuses every later call; stopped is set once Close has
	// ended every voice, after which StopAll and Release have nothing left
	// to prove.
	closed  atomic.Bool
	stopped atomic.Bool
	// quiet is the queue mark of the latest StopAll that returned nil
	// (see Bank.Release).
	quiet atomic.Uint64

	// err is the first error seen, set once. It is read without a lock,
	// and errPoll lets one caller at a time ask the device, so that Err,
	// called from game goroutines in steady frames, never queues behind
	// another caller (a queued waiter costs an allocation after a GC).
	err     atomic.Pointer[error]
	errPoll atomic.Bool

	refusals    atomic.Uint64
	lastRefusal atomic.Uint32 // packed by refuse
	stopLastNs  atomic.Int64
	stopMaxNs   atomic.Int64
	fallbacks   atomic.Uint64
	stopAlls    atomic.Uint64

	engineExt // buses, events: control.go

	// Streaming (issue 19 item 3): the streams whose decoders Close stops.
	streams streamRegistry
}

// NewEngine builds the voice pools, the queue and the mixer, and starts
// the device. Everything the steady state needs is allocated here. It
// blocks while the device starts (otodev waits up to its ReadyTimeout for
// the sound card) and, if the device fails, up to EngineDesc.CloseTimeout
// more to cut it off the mixer and close it before the fallback starts.
func NewEngine(d EngineDesc) (*Engine, error) {
	if err := pullFormat(&d); err != nil {
		return nil, err
	}
	if d.Format == (Format{}) {
		d.Format = DefaultDeviceFormat
	}
	if err := d.Format.Validate(); err != nil {
		return nil, fmt.Errorf("device format: %w", err)
	}
	def := func(v *int, dv int, name string, lo, hi int) error {
		if *v == 0 {
			*v = dv
		}
		if *v < lo || *v > hi {
			return fmt.Errorf("%w: %s %d (want %d..%d)", ErrInvalid, name, *v, lo, hi)
		}
		return nil
	}
	if err := errors.Join(
		def(&d.MaxVoices, DefaultMaxVoices, "MaxVoices", 1, 1024),
		def(&d.BlockFrames, DefaultBlockFrames, "BlockFrames", 16, 8192),
		def(&d.QueueSize, DefaultQueueSize, "QueueSize", 2, 1<<20),
	); err != nil {
		return nil, err
	}
	// A block shorter than the default fade (16..127 frames) gets a fade
	// of one block rather than a refusal to start.
	if err := def(&d.FadeFrames, min(DefaultFadeFrames, d.BlockFrames), "FadeFrames", 1, 1<<20); err != nil {
		return nil, err
	}
	if d.FadeFrames > d.BlockFrames {
		return nil, fmt.Errorf("%w: FadeFrames %d longer than BlockFrames %d (a fade must end within the block StopAll waits for)", ErrInvalid, d.FadeFrames, d.BlockFrames)
	}
	if d.Policy > PolicySteal {
		return nil, fmt.Errorf("%w: Policy %d", ErrInvalid, d.Policy)
	}
	if d.CloseTimeout < 0 {
		return nil, fmt.Errorf("%w: CloseTimeout %v", ErrInvalid, d.CloseTimeout)
	}
	if d.CloseTimeout == 0 {
		d.CloseTimeout = DefaultCloseTimeout
	}
	if d.Resampler > ResamplerLinear {
		return nil, fmt.Errorf("%w: Resampler %d", ErrInvalid, d.Resampler)
	}
	formats := d.Formats
	if formats == nil {
		formats = DefaultFormats()
	}
	if len(formats) == 0 || len(formats) > MaxFormats {
		return nil, fmt.Errorf("%w: %d Formats (want 1..%d)", ErrInvalid, len(formats), MaxFormats)
	}
	formats = append([]Format(nil), formats...)
	for i, f := range formats {
		if err := f.Validate(); err != nil {
			return nil, fmt.Errorf("EngineDesc.Formats[%d]: %w", i, err)
		}
		if j := slices.Index(formats[:i], f); j >= 0 {
			return nil, fmt.Errorf("%w: Formats[%d] and Formats[%d] are both %v", ErrInvalid, j, i, f)
		}
	}
	caps := make([]int, len(formats))
	for i := range caps {
		caps[i] = d.MaxVoices
	}
	for f, n := range d.FormatCaps {
		if err := f.Validate(); err != nil {
			return nil, fmt.Errorf("FormatCaps: %w", err)
		}
		i := slices.Index(formats, f)
		if i < 0 {
			return nil, fmt.Errorf("FormatCaps: %w: %v is not one of the engine's Formats", ErrFormat, f)
		}
		if n < 0 || n > d.MaxVoices {
			return nil, fmt.Errorf("%w: FormatCaps[%v] = %d (want 0..%d)", ErrInvalid, f, n, d.MaxVoices)
		}
		caps[i] = n
	}
	mult := 1
	if d.Policy == PolicySteal {
		mult = 2
	}
	if d.StartLatency > 0 {
		mult += pendingSlots // voices waiting for their start hold slots, not places
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	e := &Engine{format: d.Format, policy: d.Policy, log: d.Logger, epoch: time.Now(), closeTimeout: d.CloseTimeout}
	q, err := syncs.NewQueue[command](d.QueueSize)
	if err != nil {
		return nil, fmt.Errorf("%w: QueueSize: %w", ErrInvalid, err)
	}
	e.q = q
	total, realCaps := d.MaxVoices, []int32(nil)
	if d.Virtual != 0 {
		if realCaps, err = virtualCaps(&d, caps, mult); err != nil {
			return nil, err
		}
		total = d.Virtual
	}
	e.slots = newSlotTable(total, formats, caps, mult)
	e.mix = newMixer(d.Format, d.BlockFrames, d.FadeFrames, d.Resampler, e.q, e.slots, &e.barrier, e.now)
	if err := e.initExt(d); err != nil {
		return nil, err
	}
	if err := e.init3D(d); err != nil {
		return nil, err
	}
	if realCaps != nil {
		e.mix.initVirtual(d.MaxVoices, realCaps)
	}
	e.src = &source{mix: e.mix}
	e.dev = d.Device
	if e.dev == nil {
		e.dev = NewOffline(OfflineDesc{RealTime: true, BlockFrames: d.BlockFrames})
	}
	e.devName = e.dev.Stats().Name
	if err := e.dev.Start(d.Format, e.src); err != nil {
		e.setErr(fmt.Errorf("voices: device: %w", err))
		e.log.Warn("voices: audio device failed to start; falling back to the silent offline device", "err", err)
		// A device can fail after its audio goroutine began pulling (a
		// player that errs once started): cut it off the mixer and close
		// it, so that the mixer has exactly one reader, the fallback.
		deadline := time.Now().Add(d.CloseTimeout)
		if !e.src.detach(deadline) {
			return nil, fmt.Errorf("%w: %s: a read of the mixer by the device that failed to start did not end within %v",
				ErrDeviceHung, e.devName, d.CloseTimeout)
		}
		if cerr := closeDevice(e.dev, e.devName, deadline, d.CloseTimeout); cerr != nil {
			e.setErr(cerr)
			e.log.Warn("voices: closing the failed audio device", "err", cerr)
		}
		e.dev = NewOffline(OfflineDesc{RealTime: true, BlockFrames: d.BlockFrames})
		e.devName = e.dev.Stats().Name
		e.src = &source{mix: e.mix}
		if err := e.dev.Start(d.Format, e.src); err != nil {
			return nil, fmt.Errorf("voices: offline fallback: %w", err)
		}
	}
	return e, nil
}

func (e *Engine) now() int64 { return int64(time.Since(e.epoch)) }

func (e *Engine) setErr(err error) { e.err.CompareAndSwap(nil, &err) }

// Err returns the first error the engine or its device has met (a device
// that failed to start, or died while playing), or nil. It never blocks
// and, until an error appears, allocates nothing.
func (e *Engine) Err() error {
	if p := e.err.Load(); p != nil {
		return *p
	}
	// A caller that finds another one asking the device reports what is
	// known so far rather than wait for it.
	if !e.errPoll.CompareAndSwap(false, true) {
		return nil
	}
	derr := e.dev.Err()
	e.errPoll.Store(false)
	if derr == nil {
		return nil
	}
	e.setErr(fmt.Errorf("voices: device: %w", derr))
	return *e.err.Load()
}

// Device returns the device the engine plays on (the fallback Offline
// device if the configured one failed).
func (e *Engine) Device() Device { return e.dev }

// Format returns the device format.
func (e *Engine) Format() Format { return e.format }

// Play starts clip with the settings in d and returns the voice's handle.
// It checks everything it can at once (a clip of a released bank, a bad
// volume or pan, no voice free under PolicyRefuse, a full queue) and
// returns the error; nothing is queued then. The voice starts at the
// mixer's next block.
//
// Once the pool is warm Play allocates nothing, and neither does a
// refusal. ErrNoVoice, ErrQueueFull, and ErrClosed (a closed engine, a
// released bank) come back as the sentinels themselves. So testing one
// with errors.Is against its own sentinel, or with ==, allocates
// nothing either. The package's errors say how to test against several.
// Which call, format and reason are in Stats.LastRefusal. Bad arguments
// get a wrapped ErrInvalid or ErrPCM naming them.
func (e *Engine) Play(clip Clip, d PlayDesc) (Handle, error) {
	if e.closed.Load() {
		return 0, e.refuse(callPlay, reasonClosed, -1)
	}
	c := clip.c
	if c == nil {
		return 0, fmt.Errorf("%w: Play of the zero Clip", ErrPCM)
	}
	if c.bank.engine != e {
		return 0, fmt.Errorf("%w: clip of bank %q belongs to another engine", ErrInvalid, c.bank.name)
	}
	if c.stream != nil {
		if err := c.stream.checkPlay(&d); err != nil {
			return 0, err
		}
	}
	c.bank.markPlayed()
	if c.bank.closing.Load() {
		return 0, e.refuse(callPlay, reasonBankReleased, c.pool.fi)
	}
	vol := d.Volume
	if vol == 0 {
		vol = 1
	}
	if err := checkVolume(vol); err != nil {
		return 0, err
	}
	if err := checkPan(d.Pan); err != nil {
		return 0, err
	}
	// Issue 18's fields and limits (control.go), out of line and
	// skipped when unused: a plain Play pays two branches.
	var fadeIn int32
	var ext uint8 // cmdFlagBusCount, cmdFlagClipCount
	args := usesExt(&d)
	if args || c.lim != nil {
		var err error
		if fadeIn, ext, err = e.playExt(c, &d); err != nil {
			return 0, err
		}
	}
	if e.latency > 0 && d.At == 0 {
		return e.playLater(c, &d, vol, fadeIn, ext, args)
	}
	slot, gen, flags, why := e.slots.acquire(c.pool, e.policy == PolicySteal, d.Bus)
	if why != reasonNone {
		return 0, e.refusePlay(c, why, ext, d.Bus)
	}
	flags |= ext
	if args {
		flags |= e.setArgs(slot, &d)
	}
	if d.Loop {
		flags |= cmdFlagLoop
	}
	if d.Protected {
		flags |= cmdFlagProtected
	}
	// The command is written field by field into the queue's cell: a
	// composite literal was built on the stack and copied in, 30
	// instructions more.
	cmd, pos, ok := e.q.Reserve()
	if !ok {
		e.slots.giveBack(c.pool, slot, flags&cmdFlagSteal == 0)
		e.giveBack(c, flags, d.Bus)
		return 0, e.refuse(callPlay, reasonQueueFull, c.pool.fi)
	}
	cmd.kind, cmd.flags, cmd.priority, cmd.slot, cmd.gen = cmdPlay, flags, d.Priority, slot, gen
	cmd.value, cmd.pan, cmd.clip, cmd.enqueueNs = vol, d.Pan, c, e.mix.blockNs.Load()
	cmd.fade, cmd.bus = fadeIn, uint8(d.Bus)
	if d.Spatial != nil {
		e.play3D(slot, d.Spatial)
	}
	e.q.Publish(pos)
	return makeHandle(slot, gen), nil
}

// checkVolume and checkPan inline into Play; the error is built out of
// line.
func checkVolume(v float32) error {
	if !(v >= 0 && v <= 4) {
		return badVolume(v)
	}
	return nil
}

func checkPan(p float32) error {
	if !(p >= -1 && p <= 1) {
		return badPan(p)
	}
	return nil
}

func badVolume(v float32) error { return fmt.Errorf("%w: volume %v (want 0..4)", ErrInvalid, v) }

func badPan(p float32) error { return fmt.Errorf("%w: pan %v (want -1..1)", ErrInvalid, p) }

// Playing reports whether h's voice is still playing (or about to).
func (e *Engine) Playing(h Handle) bool {
	_, ok := e.slots.liveHandle(h)
	return ok
}

// voiceCmd queues a command for h's voice. Its refusals are the bare
// sentinels: they allocate nothing.
func (e *Engine) voiceCmd(h Handle, c command, call callID) error {
	if e.closed.Load() {
		return e.refuse(call, reasonClosed, -1)
	}
	slot, ok := e.slots.liveHandle(h)
	if !ok {
		return e.refuse(call, reasonStale, -1)
	}
	c.slot, c.gen = slot, h.gen()
	if !e.q.Push(c) {
		return e.refuse(call, reasonQueueFull, -1)
	}
	return nil
}

// Stop fades h's voice out over FadeFrames and ends it. Its refusals
// (ErrStaleHandle, ErrQueueFull, ErrClosed) are the bare sentinels, as
// Play's are, and allocate nothing.
func (e *Engine) Stop(h Handle) error {
	return e.voiceCmd(h, command{kind: cmdStop}, callStop)
}

// SetVolume changes h's volume (0..4), smoothed over one block. It
// refuses as Stop does.
func (e *Engine) SetVolume(h Handle, v float32) error {
	if err := checkVolume(v); err != nil {
		return err
	}
	return e.voiceCmd(h, command{kind: cmdVolume, value: v}, callSetVolume)
}

// SetPan changes h's pan (-1..1), smoothed over one block. It refuses as
// Stop does.
func (e *Engine) SetPan(h Handle, p float32) error {
	if err := checkPan(p); err != nil {
		return err
	}
	return e.voiceCmd(h, command{kind: cmdPan, pan: p}, callSetPan)
}

// SetMasterGain sets the gain (0..4) applied to the whole mix before the
// limiter, smoothed over one block. Its refusals (ErrQueueFull,
// ErrClosed) are the bare sentinels.
func (e *Engine) SetMasterGain(g float32) error {
	if err := checkVolume(g); err != nil {
		return err
	}
	return e.ctlCmd(command{kind: cmdMaster, value: g}, callSetMasterGain, -1)
}

// SetFormatGain sets the gain (0..4) of every voice whose source has
// format f, smoothed over one block. Its refusals (ErrQueueFull,
// ErrClosed) are the bare sentinels.
func (e *Engine) SetFormatGain(f Format, g float32) error {
	if err := f.Validate(); err != nil {
		return err
	}
	if err := checkVolume(g); err != nil {
		return err
	}
	p := e.slots.pool(f)
	if p == nil {
		return fmt.Errorf("%w: SetFormatGain of %v, not one of the engine's Formats", ErrFormat, f)
	}
	fi := p.fi
	return e.ctlCmd(command{kind: cmdFormatGain, slot: uint32(fi), value: g}, callSetFormatGain, fi)
}

func (e *Engine) ctlCmd(c command, call callID, fi int) error {
	if e.closed.Load() {
		return e.refuse(call, reasonClosed, fi)
	}
	if !e.q.Push(c) {
		return e.refuse(call, reasonQueueFull, fi)
	}
	return nil
}
