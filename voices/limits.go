package voices

import (
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"
	"time"
)

// ErrCooldown is returned, unwrapped, by Play of a clip whose voice
// would start within ClipDesc.Cooldown of the start of its last accepted
// Play, on the engine clock. It is counted in Stats.Refusals and
// Stats.Cooldowns. The cooldown counts device frames, rounded up, not
// wall time: it is deterministic on the offline device, and a stalled
// device, whose Plays would all start on one frame, refuses all but one.
// A Play without an At counts from the mixer's next block, so its
// cooldown holds to within one block.
var ErrCooldown = errors.New("voices: clip in cooldown")

// Instances is what Play does when a clip already plays
// ClipDesc.MaxInstances times: a plain value.
type Instances uint8

const (
	// InstancesRefuse makes Play return ErrNoVoice (counted in
	// Stats.Refusals and Stats.InstanceRefusals).
	InstancesRefuse Instances = iota
	// InstancesStealOldest fades out the clip's oldest voice for the new
	// one.
	InstancesStealOldest
	// InstancesStealQuietest fades out the clip's quietest voice (the
	// lowest gain, after volume, pan and fades) for the new one.
	InstancesStealQuietest
)

// clipLimits is a clip's instance cap and cooldown; nil in clipState
// when it has neither.
type clipLimits struct {
	max      int32
	mode     Instances
	cooldown int64 // device frames, rounded up; 0: none
	// word packs the voices counted against max and the start frame of
	// the last accepted Play, so that Play checks and takes both in one
	// compare-and-swap: count<<limCountShift | (last start + limBias).
	// The mixer gives a place back with one atomic add (release).
	word atomic.Uint64
}

// The start frame rides biased, so the zero word means no start yet and
// a count of zero: the bias puts "never" 2^47 frames before frame 0. A
// start past limMaxFrame (over 90 years at 48 kHz) counts as limMaxFrame.
const (
	limCountShift = 48
	limCountOne   = uint64(1) << limCountShift
	limFrameMask  = limCountOne - 1
	limBias       = int64(1) << 47
	limMaxFrame   = limBias - 1
)

// newClipLimits checks ClipDesc's limits and returns them, or nil. rate
// is the device rate the cooldown is counted in.
func newClipLimits(d ClipDesc, rate int) (*clipLimits, error) {
	if d.MaxInstances < 0 || d.Instances > InstancesStealQuietest || d.Cooldown < 0 {
		return nil, fmt.Errorf("%w: ClipDesc MaxInstances %d, Instances %d, Cooldown %v", ErrInvalid, d.MaxInstances, d.Instances, d.Cooldown)
	}
	if d.MaxInstances == 0 && d.Cooldown == 0 {
		return nil, nil
	}
	// The count shares its word with the start frame: 2^15 instances is
	// far past any pool (1024 voices, a few slots each).
	return &clipLimits{max: int32(min(d.MaxInstances, 1<<15)), mode: d.Instances, cooldown: cooldownFrames(d.Cooldown, rate)}, nil
}

// cooldownFrames converts a cooldown to device frames, rounded up, so a
// start the cooldown's frames after the last is never within its time.
func cooldownFrames(d time.Duration, rate int) int64 {
	hi, lo := bits.Mul64(uint64(d), uint64(rate))
	if hi >= uint64(time.Second) {
		return limBias // longer than the clock can run
	}
	q, r := bits.Div64(hi, lo, uint64(time.Second))
	if r != 0 {
		q++
	}
	return int64(min(q, uint64(limBias)))
}

// counts reports whether Play counts its voices against max: under
// InstancesRefuse; the stealing modes are the mixer's (stealInstance).
func (l *clipLimits) counts() bool { return l.max > 0 && l.mode == InstancesRefuse }

// release gives back a place that admit counted.
func (l *clipLimits) release() { l.word.Add(^(limCountOne - 1)) } // minus one count

// admit applies a clip's cooldown and, under InstancesRefuse, its
// instance cap, for a Play whose voice starts at frame start on the
// engine clock. In one compare-and-swap it counts the voice and moves
// the last start on; a refused Play changes neither. It returns whether
// the voice was counted against the cap, or the refusal, counted on e.
func (e *Engine) admit(l *clipLimits, start int64) (bool, refusalReason) {
	start = min(start, limMaxFrame)
	count := l.counts()
	for {
		w := l.word.Load()
		nw := w
		if l.cooldown > 0 {
			// A start within the cooldown of the last, before or after
			// it (an At may be earlier), is refused.
			last := int64(w&limFrameMask) - limBias
			if d := start - last; d < l.cooldown && d > -l.cooldown {
				e.cooldowns.Add(1)
				return false, reasonCooldown
			}
			if start > last {
				nw = w&^limFrameMask | uint64(start+limBias)
			}
		}
		if count {
			if int32(w>>limCountShift) >= l.max {
				e.instanceRefusals.Add(1)
				return false, reasonInstances
			}
			nw += limCountOne
		}
		if nw == w || l.word.CompareAndSwap(w, nw) {
			return count, reasonNone
		}
	}
}

// startFrame is the engine clock frame a Play's voice starts at, as
// Play can know it, for the cooldown: At if it is ahead of the clock;
// under a StartLatency, the clock plus the latency plus the frames
// since the mixer's latest block (one clock read); else the clock, the
// mixer's next block. A Play that lands while the mixer renders starts
// a block after that, so a cooldown holds to within one block.
func (e *Engine) startFrame(at int64) int64 {
	clock := e.mix.x.clock.Load()
	if at > clock {
		return at
	}
	if e.latency > 0 && at == 0 {
		since := max(e.now()-e.mix.blockNs.Load(), 0)
		return clock + e.latency + int64(e.framesOf(time.Duration(since)))
	}
	return clock
}

// stealInstance makes room for a new voice of clip c under a stealing
// Instances mode: while c plays MaxInstances voices not yet fading, it
// fades out the oldest or the quietest. The mixer calls it as it starts
// the voice.
func (m *mixer) stealInstance(c *clipState) {
	l := c.lim
	var n int32
	var victim *voice
	for _, s := range m.active {
		v := &m.voices[s]
		if v.clip != c || v.fading || v.ended {
			continue
		}
		n++
		if victim == nil ||
			l.mode == InstancesStealOldest && v.order < victim.order ||
			l.mode == InstancesStealQuietest && v.gainL+v.gainR < victim.gainL+victim.gainR {
			victim = v
		}
	}
	if n < l.max || victim == nil {
		return
	}
	m.markStopped(m.slotOf(victim), EventStolen)
	if victim.order >= m.blockOrder {
		victim.ended = true // started in this block: never heard
	} else {
		m.startFade(victim)
	}
	m.steals.Add(1)
}

// Cooldowns and instance refusals are counted on the engine.
type limitCounters struct {
	cooldowns        atomic.Uint64
	instanceRefusals atomic.Uint64
}
