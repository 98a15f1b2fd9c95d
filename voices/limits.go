package voices

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"
)

// ErrCooldown is returned, unwrapped, by Play of a clip whose
// ClipDesc.Cooldown has not passed since its last accepted Play. It is
// counted in Stats.Refusals and Stats.Cooldowns.
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
	cooldown int64 // ns
	count    atomic.Int32
	last     atomic.Int64 // engine clock (ns) of the last accepted Play
}

// newClipLimits checks ClipDesc's limits and returns them, or nil.
func newClipLimits(d ClipDesc) (*clipLimits, error) {
	if d.MaxInstances < 0 || d.Instances > InstancesStealQuietest || d.Cooldown < 0 {
		return nil, fmt.Errorf("%w: ClipDesc MaxInstances %d, Instances %d, Cooldown %v", ErrInvalid, d.MaxInstances, d.Instances, d.Cooldown)
	}
	if d.MaxInstances == 0 && d.Cooldown == 0 {
		return nil, nil
	}
	l := &clipLimits{max: int32(min(d.MaxInstances, math.MaxInt32)), mode: d.Instances, cooldown: int64(d.Cooldown)}
	l.last.Store(math.MinInt64 / 2)
	return l, nil
}

// admit applies a clip's cooldown and, under InstancesRefuse, its
// instance cap, for Play. It returns whether the voice was counted
// against the cap, or the refusal.
func (e *Engine) admit(l *clipLimits) (bool, refusalReason) {
	if l.cooldown > 0 {
		now := e.now()
		last := l.last.Load()
		if now-last < l.cooldown || !l.last.CompareAndSwap(last, now) {
			e.cooldowns.Add(1)
			return false, reasonCooldown
		}
	}
	if l.max == 0 || l.mode != InstancesRefuse {
		return false, reasonNone
	}
	for {
		n := l.count.Load()
		if n >= l.max {
			e.instanceRefusals.Add(1)
			return false, reasonInstances
		}
		if l.count.CompareAndSwap(n, n+1) {
			return true, reasonNone
		}
	}
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
