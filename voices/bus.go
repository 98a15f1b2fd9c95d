package voices

import (
	"fmt"
	"math"
	"math/bits"
	"sync/atomic"
	"time"
)

// Bus names one of the engine's buses: an index into the set declared in
// EngineDesc.Buses, fixed for the engine's life. Master, the zero Bus,
// is always there: every other bus feeds it, directly or through its
// parents. A Bus is a plain value, safe to copy and use from any
// goroutine.
type Bus uint8

// Master is the bus every voice plays on unless its PlayDesc names
// another; pausing it pauses the whole engine.
const Master Bus = 0

// MaxBuses is the most buses an engine has, Master included.
const MaxBuses = 16

// BusDesc declares a bus. Buses are declared once, in EngineDesc.Buses,
// parents before children; a plain value.
type BusDesc struct {
	// Name identifies the bus (Engine.Bus); "master" is taken.
	Name string
	// Parent is the name of the bus this one feeds; "" means Master.
	Parent string
	// MaxVoices caps the voices playing on this bus at once (children's
	// voices not included); 0 means no cap but MaxVoices'. A Play past it
	// is refused with ErrNoVoice, whatever the Policy.
	MaxVoices int
	// Duck, when Duck.By is set, turns this bus down while another is
	// sounding.
	Duck DuckDesc
}

// DuckDesc makes a bus's gain follow another bus's level. The level of
// By is its peak over a block, after its gains. While it is above
// Threshold, the ducked bus's gain falls by Depth dB, linearly in dB
// over Attack. Once it is below, the gain comes back over Release. A
// plain value.
type DuckDesc struct {
	By        string  // the bus whose level ducks this one
	Depth     float32 // dB of reduction, 0 < Depth <= 96
	Threshold float32 // dBFS; 0 means DefaultDuckThreshold
	Attack    time.Duration
	Release   time.Duration
}

// DefaultDuckThreshold is the level, in dBFS, above which a sidechain
// bus ducks, when DuckDesc.Threshold is 0.
const DefaultDuckThreshold = -50

// After is what a fade does once it reaches its level: a plain value.
type After uint8

const (
	// AfterNone leaves the voice or bus playing at the fade's level.
	AfterNone After = iota
	// AfterStop ends the voice (every voice of the bus), as Stop does.
	AfterStop
	// AfterPause pauses the voice (or bus), as Pause does.
	AfterPause
)

// busConfig is a bus as NewEngine resolved it. Immutable after NewEngine.
type busConfig struct {
	name      string
	parent    int // index; -1 for Master
	maxVoices int32
	duckBy    int // index, or -1
	duckDepth float32
	duckThr   float32 // linear
	duckAtt   float32 // per-frame gain factor while attacking (< 1)
	duckRel   float32 // per-frame gain factor while releasing (> 1)
}

// busShared is what producers and the mixer both touch for one bus: the
// voice count against its cap, and the figures the mixer publishes each
// block for Stats.
type busShared struct {
	count  atomic.Int32
	level  atomic.Uint32 // float32 bits: peak of the last block, after the bus's gains
	gain   atomic.Uint32 // float32 bits: gain × gate × duck at the end of the last block
	paused atomic.Bool
	muted  atomic.Bool
	voices atomic.Int32 // voices on the bus at the last block, paused ones included
	_      [36]byte     // one cache line per bus: Plays of one bus do not contend with another's
}

// resolveBuses checks d and builds the bus table, Master first.
func resolveBuses(ds []BusDesc, rate int) ([]busConfig, error) {
	if len(ds)+1 > MaxBuses {
		return nil, fmt.Errorf("%w: %d buses declared (at most %d besides master)", ErrInvalid, len(ds), MaxBuses-1)
	}
	bs := make([]busConfig, 1, len(ds)+1)
	bs[0] = busConfig{name: "master", parent: -1, duckBy: -1}
	find := func(name string) int {
		for i := range bs {
			if bs[i].name == name {
				return i
			}
		}
		return -1
	}
	for _, d := range ds {
		if d.Name == "" || find(d.Name) >= 0 {
			return nil, fmt.Errorf("%w: bus name %q is empty or declared twice", ErrInvalid, d.Name)
		}
		p := 0
		if d.Parent != "" {
			if p = find(d.Parent); p < 0 {
				return nil, fmt.Errorf("%w: bus %q: parent %q is not declared before it", ErrInvalid, d.Name, d.Parent)
			}
		}
		if d.MaxVoices < 0 {
			return nil, fmt.Errorf("%w: bus %q: MaxVoices %d", ErrInvalid, d.Name, d.MaxVoices)
		}
		bs = append(bs, busConfig{name: d.Name, parent: p, maxVoices: int32(d.MaxVoices), duckBy: -1})
	}
	for i, d := range ds {
		if d.Duck.By == "" {
			continue
		}
		c := &bs[i+1]
		k := d.Duck
		by := find(k.By)
		if by < 0 || by == i+1 {
			return nil, fmt.Errorf("%w: bus %q: Duck.By %q is not another declared bus", ErrInvalid, d.Name, k.By)
		}
		if !(k.Depth > 0 && k.Depth <= 96) || k.Attack <= 0 || k.Release <= 0 || k.Threshold > 0 {
			return nil, fmt.Errorf("%w: bus %q: Duck depth %v dB, threshold %v dBFS, attack %v, release %v (want 0 < depth <= 96, threshold <= 0, attack and release > 0)",
				ErrInvalid, d.Name, k.Depth, k.Threshold, k.Attack, k.Release)
		}
		thr := k.Threshold
		if thr == 0 {
			thr = DefaultDuckThreshold
		}
		// Linear in dB: Depth over the attack's frames, one factor a frame.
		perFrame := func(d time.Duration) float64 {
			return float64(k.Depth) / 20 / max(1, d.Seconds()*float64(rate))
		}
		c.duckBy, c.duckDepth = by, float32(math.Pow(10, -float64(k.Depth)/20))
		c.duckThr = float32(math.Pow(10, float64(thr)/20))
		c.duckAtt = float32(math.Pow(10, -perFrame(k.Attack)))
		c.duckRel = float32(math.Pow(10, perFrame(k.Release)))
	}
	return bs, nil
}

// Bus returns the bus declared with name ("master" for Master), or false.
// It allocates nothing; look buses up once, at load time.
func (e *Engine) Bus(name string) (Bus, bool) {
	for i := range e.buses {
		if e.buses[i].name == name {
			return Bus(i), true
		}
	}
	return 0, false
}

// BusStats is one bus's state in a Stats snapshot: a plain value.
type BusStats struct {
	Name string
	// Level is the bus's peak over the last block, after its gains and
	// ducking, as a linear amplitude (1 is full scale).
	Level float32
	// Gain is the bus's own gain times its mute or pause gate times its
	// duck gain, at the end of the last block.
	Gain   float32
	Voices int // voices playing on the bus now, counted against its MaxVoices
	Paused bool
	Muted  bool
}

func (e *Engine) checkBus(b Bus) error {
	if int(b) >= len(e.buses) {
		return fmt.Errorf("%w: bus %d (the engine has %d)", ErrInvalid, b, len(e.buses))
	}
	return nil
}

func (e *Engine) busCmd(b Bus, c command, call callID) error {
	if err := e.checkBus(b); err != nil {
		return err
	}
	c.bus = uint8(b)
	return e.ctlCmd(c, call, -1)
}

// FadeBus moves bus b's gain (0..4) to g over d, linearly in amplitude,
// starting at the mixer's next block, then does what after says to the
// bus (AfterStop ends every voice on it and its children, AfterPause
// pauses it). A d under one block ramps over one block. Its refusals
// (ErrQueueFull, ErrClosed) are the bare sentinels.
func (e *Engine) FadeBus(b Bus, g float32, d time.Duration, after After) error {
	if err := checkVolume(g); err != nil {
		return err
	}
	return e.busCmd(b, command{kind: cmdBusFade, value: g, fade: e.framesOf(d), op: uint8(after)}, callBus)
}

// SetBusGain sets bus b's gain (0..4), ramped over one block.
func (e *Engine) SetBusGain(b Bus, g float32) error { return e.FadeBus(b, g, 0, AfterNone) }

// MuteBus silences bus b (or lets it sound again), ramped over one
// block; its voices go on playing.
func (e *Engine) MuteBus(b Bus, mute bool) error {
	op := uint8(0)
	if mute {
		op = 1
	}
	return e.busCmd(b, command{kind: cmdBusMute, op: op}, callBus)
}

// PauseBus pauses bus b and its children: their output ramps to silence
// over the next block, after which their voices keep their positions,
// are not mixed and cost nothing. Pausing Master pauses the engine.
func (e *Engine) PauseBus(b Bus) error {
	return e.busCmd(b, command{kind: cmdBusPause, op: 1}, callBus)
}

// ResumeBus resumes bus b: its voices continue from the frame they were
// paused at, ramping up over one block.
func (e *Engine) ResumeBus(b Bus) error {
	return e.busCmd(b, command{kind: cmdBusPause, op: 0}, callBus)
}

// StopBus fades out every voice on bus b and its children over fade (at
// least FadeFrames) and ends them.
func (e *Engine) StopBus(b Bus, fade time.Duration) error {
	return e.busCmd(b, command{kind: cmdBusStop, fade: e.framesOf(fade)}, callBus)
}

// framesOf converts d to device frames (rounded down), clamped to what a
// command holds. A 32.32 fixed-point multiply rather than a division:
// Play converts its fade-in with it.
func (e *Engine) framesOf(d time.Duration) int32 {
	if d <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(d), e.framesPerNs)
	return int32(min(hi<<32|lo>>32, math.MaxInt32))
}
