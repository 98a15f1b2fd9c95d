package voices

import (
	"fmt"
	"math"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/syncs"
)

// engineExt holds what buses, events and the clock add to an Engine
// (issue 18). It is fixed at NewEngine but for the atomics inside.
type engineExt struct {
	buses  []busConfig
	busSh  []busShared
	events *syncs.Queue[Event]
	// framesPerNs is the device rate in frames per nanosecond, 32.32
	// fixed point (framesOf).
	framesPerNs uint64
	limitCounters
	latency int64 // EngineDesc.StartLatency in frames; 0: Plays start at the next block
}

// initExt resolves EngineDesc.Buses and Events and hands them to the
// mixer.
func (e *Engine) initExt(d EngineDesc) error {
	bs, err := resolveBuses(d.Buses, d.Format.Rate)
	if err != nil {
		return err
	}
	ev, err := newEvents(d.Events)
	if err != nil {
		return err
	}
	e.buses, e.busSh, e.events = bs, make([]busShared, len(bs)), ev
	e.slots.packBuses(e.buses)
	// Rounded up, so that a whole number of frames' nanoseconds converts
	// back to that number, not one short.
	e.framesPerNs = (uint64(d.Format.Rate)<<32 + uint64(time.Second) - 1) / uint64(time.Second)
	if d.StartLatency < 0 {
		return fmt.Errorf("%w: StartLatency %v", ErrInvalid, d.StartLatency)
	}
	e.latency = int64(e.framesOf(d.StartLatency))
	e.mix.x.init(e.mix, e.buses, e.busSh, ev)
	e.mix.x.latency, e.mix.x.policy = e.latency, d.Policy
	return nil
}

// usesExt reports whether d sets any of issue 18's fields, Pitch or
// Spatial: one branch on their bits or-ed together, and one more.
func usesExt(d *PlayDesc) bool {
	return uint64(d.Bus)|uint64(d.FadeIn)|uint64(d.At)|uint64(d.Offset)|uint64(math.Float32bits(d.Pitch)) != 0 || d.Spatial != nil
}

// playExt is Play's part for issue 18's fields and limits, out of line:
// it validates the fields, converts the fade-in to frames, and applies
// the bus's MaxVoices and the clip's limits, returning what it counted
// (cmdFlagBusCount, cmdFlagClipCount) or the refusal's sentinel.
func (e *Engine) playExt(c *clipState, d *PlayDesc) (int32, uint8, error) {
	var ext uint8
	if d.Spatial != nil {
		if err := e.check3D(d.Spatial); err != nil {
			return 0, 0, err
		}
		ext |= cmdFlag3D
	}
	// Unsigned compares catch a negative Offset and Bus's bound in one
	// test each; FadeIn and At share a sign test.
	if uint(d.Bus) >= uint(len(e.buses)) || uint(d.Offset) >= uint(c.frames) || int64(d.FadeIn)|d.At < 0 ||
		d.Pitch != 0 && !(d.Pitch >= MinPitch && d.Pitch <= MaxPitch) {
		return 0, 0, e.badPlay(c, d)
	}
	if e.slots.packed(d.Bus) {
		// Counted by acquire, with the total (buspack.go); checked here
		// too, so that it refuses before the clip's limits do.
		if e.slots.busFull(d.Bus) {
			return 0, 0, e.refusePlay(c, reasonBusCap, 0, d.Bus)
		}
	} else if limit := e.buses[d.Bus].maxVoices; limit > 0 {
		// One atomic add, taken back past the cap: a Play that loses the
		// race refuses, as it would a moment later.
		if n := &e.busSh[d.Bus].count; n.Add(1) > limit {
			n.Add(-1)
			return 0, 0, e.refusePlay(c, reasonBusCap, 0, d.Bus)
		}
		ext |= cmdFlagBusCount
	}
	if l := c.lim; l != nil {
		var start int64
		if l.cooldown > 0 {
			start = e.startFrame(d.At)
		}
		counted, why := e.admit(l, start)
		if why != reasonNone {
			return 0, 0, e.refusePlay(c, why, ext, d.Bus)
		}
		if counted {
			ext |= cmdFlagClipCount
		}
	}
	return e.framesOf(d.FadeIn), ext, nil
}

func (e *Engine) badPlay(c *clipState, d *PlayDesc) error {
	if d.Pitch != 0 {
		if err := checkPitch("PlayDesc.Pitch", d.Pitch); err != nil {
			return err
		}
	}
	return fmt.Errorf("%w: PlayDesc bus %d (the engine has %d), offset %d (the clip has %d frames), fade-in %v, at %d",
		ErrInvalid, d.Bus, len(e.buses), d.Offset, c.frames, d.FadeIn, d.At)
}

// refusePlay gives back what playExt counted, reports and counts the
// refusal, and returns its sentinel.
func (e *Engine) refusePlay(c *clipState, why refusalReason, ext uint8, b Bus) error {
	e.giveBack(c, ext, b)
	e.refusals.Add(1)
	pushEvent(e.events, EventRefused, 0, c)
	return e.refuse(callPlay, why, c.pool.fi)
}

func (e *Engine) giveBack(c *clipState, ext uint8, b Bus) {
	if ext&cmdFlagBusCount != 0 {
		e.slots.dropBus(b, &e.busSh[b])
	}
	if ext&cmdFlagClipCount != 0 {
		c.lim.release()
	}
}

// Pause pauses h's voice: it ramps to silence over FadeFrames, then
// keeps its position and costs nothing to mix until Resume. Its
// refusals (ErrStaleHandle, ErrQueueFull, ErrClosed) are the bare
// sentinels.
func (e *Engine) Pause(h Handle) error {
	return e.voiceCmd(h, command{kind: cmdPause, op: 1}, callPause)
}

// Resume continues h's paused voice from the frame it stopped at,
// ramping up over FadeFrames. It refuses as Pause does.
func (e *Engine) Resume(h Handle) error {
	return e.voiceCmd(h, command{kind: cmdPause, op: 0}, callResume)
}

// Fade moves h's volume (0..4) to v over d, linearly in amplitude and
// exact to the frame, from the mixer's next block, then does what after
// says. A voice on a rate bus starts it later by its filter's look-ahead,
// a constant (docs/mixer.md). SetVolume cancels a fade in progress. It
// refuses as Pause does.
func (e *Engine) Fade(h Handle, v float32, d time.Duration, after After) error {
	if err := checkVolume(v); err != nil {
		return err
	}
	if after > AfterPause {
		return fmt.Errorf("%w: After %d", ErrInvalid, after)
	}
	return e.voiceCmd(h, command{kind: cmdFade, value: v, fade: e.framesOf(d), op: uint8(after)}, callFade)
}

// Clock returns the engine's sample clock: the device frames the mixer
// has rendered (blocks played silent while a StopAll held the mixer do
// not count). PlayDesc.At is on this clock. Safe from any goroutine.
func (e *Engine) Clock() int64 { return e.mix.x.clock.Load() }

// Position returns the source frame h's voice had reached at the end of
// the last block (the Offset it will start from, while it waits to
// start), or false once the handle is stale. Safe from any goroutine.
func (e *Engine) Position(h Handle) (int64, bool) {
	s, ok := e.slots.liveHandle(h)
	if !ok {
		return 0, false
	}
	p := e.mix.x.pos[s].Load()
	_, ok = e.slots.liveHandle(h)
	return p, ok
}

func f32(b uint32) float32 { return math.Float32frombits(b) }

// extStats fills in Stats' bus and event figures.
func (e *Engine) extStats(s *Stats) {
	s.Clock = e.Clock()
	s.NumBuses = len(e.buses)
	for i := range e.buses {
		sh := &e.busSh[i]
		s.Buses[i] = BusStats{
			Name: e.buses[i].name, Level: f32(sh.level.Load()), Gain: f32(sh.gain.Load()),
			Voices: int(sh.voices.Load()), Paused: sh.paused.Load(), Muted: sh.muted.Load(),
		}
	}
	if e.events != nil {
		s.EventsDropped = e.events.Full()
	}
	s.Cooldowns, s.InstanceRefusals = e.cooldowns.Load(), e.instanceRefusals.Load()
}
