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
	buses   []busConfig
	busSh   []busShared
	events  *syncs.Queue[Event]
	anyCaps bool // some bus has a MaxVoices
	limitCounters
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
	for i := range bs {
		e.anyCaps = e.anyCaps || bs[i].maxVoices > 0
	}
	e.mix.x.init(e.mix, e.buses, e.busSh, ev)
	return nil
}

// checkPlay validates PlayDesc's issue-18 fields and returns the fade-in
// in frames. The error is built out of line.
func (e *Engine) checkPlay(c *clipState, d *PlayDesc) (int32, error) {
	if int(d.Bus) >= len(e.buses) || d.Offset < 0 || d.Offset >= c.frames || d.FadeIn < 0 || d.At < 0 {
		return 0, e.badPlay(c, d)
	}
	if d.FadeIn == 0 {
		return 0, nil
	}
	return e.framesOf(d.FadeIn), nil
}

func (e *Engine) badPlay(c *clipState, d *PlayDesc) error {
	return fmt.Errorf("%w: PlayDesc bus %d (the engine has %d), offset %d (the clip has %d frames), fade-in %v, at %d",
		ErrInvalid, d.Bus, len(e.buses), d.Offset, c.frames, d.FadeIn, d.At)
}

// reserveBus counts a voice against bus b's MaxVoices, or reports false.
func (e *Engine) reserveBus(b Bus) bool {
	c := e.buses[b].maxVoices
	if c == 0 {
		return true
	}
	n := &e.busSh[b].count
	for {
		v := n.Load()
		if v >= c {
			return false
		}
		if n.CompareAndSwap(v, v+1) {
			return true
		}
	}
}

// admitPlay applies the bus's MaxVoices and the clip's limits for Play,
// setting in ext what it counted.
func (e *Engine) admitPlay(c *clipState, b Bus, ext *uint8) refusalReason {
	if e.anyCaps && e.buses[b].maxVoices > 0 {
		if !e.reserveBus(b) {
			return reasonBusCap
		}
		*ext |= cmdFlagBusCount
	}
	if c.lim != nil {
		counted, why := e.admit(c.lim)
		if why != reasonNone {
			return why
		}
		if counted {
			*ext |= cmdFlagClipCount
		}
	}
	return reasonNone
}

// refusePlay gives back what admitPlay counted, reports and counts the
// refusal, and returns its sentinel.
func (e *Engine) refusePlay(c *clipState, why refusalReason, ext uint8, b Bus) error {
	e.giveBack(c, ext, b)
	e.refusals.Add(1)
	pushEvent(e.events, EventRefused, 0, c)
	return e.refuse(callPlay, why, c.pool.fi)
}

func (e *Engine) giveBack(c *clipState, ext uint8, b Bus) {
	if ext&cmdFlagBusCount != 0 {
		e.busSh[b].count.Add(-1)
	}
	if ext&cmdFlagClipCount != 0 {
		c.lim.count.Add(-1)
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
// says. SetVolume cancels a fade in progress. It refuses as Pause does.
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
