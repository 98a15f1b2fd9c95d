package voices

import (
	"sync/atomic"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/syncs"
)

// FormatStats is one source format's voice occupancy, part of a Stats
// snapshot: a plain value.
type FormatStats struct {
	Format Format
	Active int // voices counted against this format's cap now
	Peak   int // most voices counted against this format's cap at once; never above Cap
	Cap    int
	// Slots is how many voice slots the format has left: Cap (twice Cap
	// under PolicySteal, for fading victims) less Retired. Once Slots
	// falls to Active, Play of the format is refused for want of a slot.
	Slots int
	// Retired counts the format's slots retired for good because their
	// 2^32 handle generations are spent.
	Retired int
}

// Stats is a snapshot of an Engine's counters: a plain value, safe to
// hand to any goroutine. Taking one allocates nothing; the counters are
// read one by one, so under load they may be a few commands apart.
type Stats struct {
	Active    int // voices left in the mix at the end of the last block; at most MaxVoices
	Peak      int // most voices counted against MaxVoices at once (playing, or queued to start); never above it
	Counted   int // voices counted against MaxVoices now: playing, or queued to start
	MaxVoices int
	// MixPeak is the most voices rendered in one block, counting stolen
	// voices during their fade-out: the mixer's heaviest block. It may
	// pass MaxVoices under PolicySteal (stolen voices fade while their
	// replacements play), never 2×MaxVoices.
	MixPeak int
	// Formats holds the engine's source formats, in the order
	// EngineDesc.Formats declares them (DefaultFormats' by default);
	// the entries past them are zero.
	Formats [MaxFormats]FormatStats
	// Retired counts voice slots retired for good, over every format: a
	// slot serves 2^32 voices, then is never reissued, so no stale Handle
	// can become valid again. Each retired slot is one fewer in its
	// format's Slots.
	Retired int

	Refusals  uint64 // Plays refused: no voice, a steal with no victim, a bank being released, or cancelled by StopAll
	Steals    uint64
	QueueFull uint64 // commands refused because the queue was full
	Underruns uint64 // device reads that found its buffers empty
	Blocks    uint64 // mixer blocks rendered
	Skipped   uint64 // blocks played silent while a StopAll held the mixer
	// LastRefusal describes the most recent call refused with a bare
	// sentinel (Play, Stop, SetVolume, SetPan, SetMasterGain,
	// SetFormatGain): the call, the format and the reason its error
	// leaves out.
	LastRefusal Refusal

	MixLast, MixMax, MixTotal time.Duration // time to mix one block
	// PlayToMixLast is the delay before the latest voice started: from
	// the start of the last block begun before its Play call to the
	// start of the block that first rendered it. Play reads no clock,
	// which would cost a third of Play. It keeps the start time the
	// mixer publishes each block. So the figure overstates the true
	// delay by the time from that block's start to the call. That is
	// less than one block while the device keeps pulling, and a stalled
	// device shows in full.
	PlayToMixLast time.Duration
	PlayToMixMax  time.Duration
	// DeviceLatency is the rendered audio buffered in the device plus the
	// limiter's look-ahead (1.5 ms), which delays the whole mix.
	DeviceLatency time.Duration
	// StopAllLast and StopAllMax are the time StopAll took to cross the
	// barrier. Like every duration here they come from the monotonic
	// clock, whose tick on Windows is the system timer's (0.5–15.6 ms):
	// a faster StopAll can read as 0 there. StopAlls counts the calls that
	// crossed the barrier, so a count says one ran where a time cannot.
	StopAllLast, StopAllMax time.Duration
	StopAlls                uint64 // StopAll calls that crossed the barrier (fallbacks included)
	StopAllFallbacks        uint64 // StopAlls that had to seize a stalled mixer

	Device  DeviceStats
	Barrier syncs.BarrierStats

	// Clock is the engine's sample clock (Engine.Clock).
	Clock int64
	// Buses holds the first NumBuses buses' state, Master first, in the
	// order EngineDesc.Buses declared them.
	Buses    [MaxBuses]BusStats
	NumBuses int
	// EventsDropped counts events lost to a full event queue.
	EventsDropped uint64
	// Cooldowns counts Plays refused by a clip's Cooldown (ErrCooldown);
	// InstanceRefusals those refused by its MaxInstances. Both are in
	// Refusals too.
	Cooldowns, InstanceRefusals uint64

	// Streaming. StreamUnderruns counts the times a stream's decoder fell
	// behind its voice; StreamUnderrunFrames the device frames played
	// silent for it, a block at a time.
	StreamUnderruns, StreamUnderrunFrames uint64

	// Virtual voices (EngineDesc.Virtual; all zero without them). Real
	// and Virtual are the last block's ranking: the sounds given a real
	// voice, and those tracked without mixing. A sound waiting for its
	// start time is in neither. RealMax is the real voices' cap
	// (EngineDesc.MaxVoices); MaxVoices, Counted and Peak then count
	// logical sounds. Swaps counts moves either way.
	Real, Virtual, RealMax int
	Swaps                  uint64
}

// Stats returns the engine's counters; safe from any goroutine.
func (e *Engine) Stats() Stats {
	m := e.mix
	s := Stats{
		Active: int(m.activeNow.Load()), Peak: int(e.slots.peak.Load()),
		Counted: int(e.slots.counted()), MaxVoices: int(e.slots.cap),
		MixPeak:   int(m.mixPeak.Load()),
		Refusals:  e.refusals.Load() + m.refusals.Load(),
		Steals:    m.steals.Load(),
		QueueFull: e.q.Full(),
		MixLast:   time.Duration(m.mixLastNs.Load()), MixMax: time.Duration(m.mixMaxNs.Load()),
		MixTotal:      time.Duration(m.mixTotalNs.Load()),
		PlayToMixLast: time.Duration(m.playLastNs.Load()), PlayToMixMax: time.Duration(m.playMaxNs.Load()),
		StopAllLast: time.Duration(e.stopLastNs.Load()), StopAllMax: time.Duration(e.stopMaxNs.Load()),
		StopAlls: e.stopAlls.Load(), StopAllFallbacks: e.fallbacks.Load(),
		LastRefusal: e.lastRefusalOf(e.lastRefusal.Load()),
		Device:      e.dev.Stats(),
		Barrier:     e.barrier.Stats(),
	}
	e.extStats(&s)
	e.streamStats(&s)
	e.virtStats(&s)
	s.Underruns = s.Device.Underruns
	s.DeviceLatency = s.Device.Latency + e.format.Duration(m.limDelay)
	// Only the mixer enters the barrier, once per block: its passes are the
	// blocks rendered, its skipped passes the blocks played silent.
	s.Blocks, s.Skipped = s.Barrier.Passes, s.Barrier.Skipped
	for i := range e.slots.pools {
		p := &e.slots.pools[i]
		r := int(p.retired.Load())
		s.Retired += r
		s.Formats[i] = FormatStats{Format: p.format, Active: int(p.count()), Peak: int(p.peak.Load()), Cap: int(p.cap),
			Slots: int(p.size) - r, Retired: r}
	}
	return s
}

// recordNs stores d as the latest of a duration and raises its maximum.
// StopAlls may run concurrently, so the maximum only ever rises through
// syncs.StoreMaxInt64.
func recordNs(last, most *atomic.Int64, d int64) {
	last.Store(d)
	syncs.StoreMaxInt64(most, d)
}
