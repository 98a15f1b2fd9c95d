package voices

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/steadyframe/steadyframe/voices/internal/spatial"
)

// Vec3 is a position, velocity or direction in the game's units, on
// OpenAL's right-handed axes: x right, y up, z toward the viewer. A
// plain value.
type Vec3 struct{ X, Y, Z float32 }

// Listener is the ears of 3D sound: a position, an orientation and a
// velocity for doppler. Forward and Up are OpenAL's "at" and "up"
// vectors; both zero means facing -z with +y up. Velocity is in units
// per second. A plain value.
type Listener struct {
	Position, Forward, Up, Velocity Vec3
}

// Cone makes a positioned voice directional, as OpenAL's source cone.
// Direction is where the source faces; the zero Direction means no cone.
// Inner and Outer are whole angles in degrees, 0 to 360, Inner at most
// Outer. OuterGain, 0 to 1, is the gain outside the outer cone. A plain
// value.
type Cone struct {
	Direction    Vec3
	Inner, Outer float32
	OuterGain    float32
}

// DistanceModel is how a positioned voice fades with distance: one of
// OpenAL 1.1's models. The zero value is DistanceInverseClamped, OpenAL's
// default. A plain value.
type DistanceModel uint8

// String names the model as OpenAL does.
func (m DistanceModel) String() string { return spatial.Model(m).String() }

// The distance models of OpenAL 1.1. The clamped ones clamp the distance
// to [RefDistance, MaxDistance] first. docs/spatial.md has the equations.
const (
	DistanceInverseClamped  DistanceModel = DistanceModel(spatial.InverseClamped)
	DistanceInverse         DistanceModel = DistanceModel(spatial.Inverse)
	DistanceLinearClamped   DistanceModel = DistanceModel(spatial.LinearClamped)
	DistanceLinear          DistanceModel = DistanceModel(spatial.Linear)
	DistanceExponentClamped DistanceModel = DistanceModel(spatial.ExponentClamped)
	DistanceExponent        DistanceModel = DistanceModel(spatial.Exponent)
	// DistanceNone does not attenuate by distance.
	DistanceNone DistanceModel = DistanceModel(spatial.None)
)

// Defaults for the zero 3D fields of EngineDesc.
const (
	DefaultRefDistance  = 1
	DefaultRolloff      = 1
	DefaultSpeedOfSound = 343.3 // metres per second in air, OpenAL's default
)

// ErrNotSpatial is returned, unwrapped, by SetPosition for a voice
// played without PlayDesc.Spatial.
var ErrNotSpatial = errors.New("voices: voice not played with a position")

// Spatial positions a voice around the listener (PlayDesc.Spatial).
// Distances are in the game's units and velocities in units per second.
// A plain value: Play copies it.
type Spatial struct {
	Position, Velocity Vec3
	// RefDistance, MaxDistance and Rolloff are OpenAL's per-source
	// distance settings; 0 means the engine's (EngineDesc). For no
	// attenuation by distance, use DistanceNone.
	RefDistance, MaxDistance, Rolloff float32
	// Cone optionally makes the voice directional.
	Cone Cone
}

// voice3D is a positioned voice's 3D state, one per slot, owned by the
// mixer like the voice.
type voice3D struct {
	on      bool
	doppler bool // pitched by doppler: the voice is pitched
	pos     Vec3
	vel     Vec3
	dist    spatial.Distance
	cone    Cone
	pitch   float32 // the voice's own pitch, which doppler multiplies
	seen    uint32  // the sequence number of the last move read from pos (spatial_pos.go)
}

// mixSpatial is the mixer's 3D state.
type mixSpatial struct {
	// Fixed at NewEngine.
	model spatial.Model
	dist  spatial.Distance // the engine's defaults
	dop   spatial.Doppler

	// Owned by the barrier holder.
	lis   Listener
	basis spatial.Basis
	n     int // positioned voices in the mix
	v     []voice3D

	// in is each slot's Spatial, written by the Play that reserved the
	// slot before it publishes the command, read by the mixer when it
	// starts the voice: the queue orders the two.
	in []Spatial
	// positioned is set by Play for a voice played with a Spatial and
	// cleared by the mixer before its slot is free again: SetPosition
	// reads it to refuse a voice without one.
	positioned []atomic.Bool
	// pos holds each slot's latest SetPosition, written from any
	// goroutine and read by the mixer each block (spatial_pos.go).
	pos []posCell
	// lisCell holds the latest SetListener; lisSeen is the mixer's last
	// read of it (spatial_pos.go).
	lisCell listenerCell
	lisSeen uint32
}

// init3D checks EngineDesc's 3D fields and sets up the mixer's state.
func (e *Engine) init3D(d EngineDesc) error {
	if !spatial.Model(d.DistanceModel).Valid() {
		return fmt.Errorf("%w: DistanceModel %d", ErrInvalid, d.DistanceModel)
	}
	ds := spatial.Distance{Ref: d.RefDistance, Max: d.MaxDistance, Rolloff: d.Rolloff}
	if ds.Ref == 0 {
		ds.Ref = DefaultRefDistance
	}
	if ds.Max == 0 {
		ds.Max = float32(math.Inf(1))
	}
	if ds.Rolloff == 0 {
		ds.Rolloff = DefaultRolloff
	}
	dop := spatial.Doppler{Factor: d.DopplerFactor, SpeedOfSound: d.SpeedOfSound}
	if dop.SpeedOfSound == 0 {
		dop.SpeedOfSound = DefaultSpeedOfSound
	}
	if err := checkDistance("EngineDesc", ds); err != nil {
		return err
	}
	if !(dop.Factor >= 0 && dop.Factor <= 1e6) || !(dop.SpeedOfSound > 0 && dop.SpeedOfSound <= math.MaxFloat32) {
		return fmt.Errorf("%w: EngineDesc DopplerFactor %v (want 0 or more) or SpeedOfSound %v (want above 0)",
			ErrInvalid, d.DopplerFactor, d.SpeedOfSound)
	}
	n := len(e.mix.voices)
	e.mix.sp = mixSpatial{model: spatial.Model(d.DistanceModel), dist: ds, dop: dop,
		basis: spatial.BasisOf(spatial.Listener{}), v: make([]voice3D, n), in: make([]Spatial, n), positioned: make([]atomic.Bool, n), pos: make([]posCell, n)}
	return nil
}

func checkDistance(who string, d spatial.Distance) error {
	if !(d.Ref > 0 && d.Ref <= math.MaxFloat32) || !(d.Max >= d.Ref) || !(d.Rolloff >= 0 && d.Rolloff <= math.MaxFloat32) {
		return fmt.Errorf("%w: %s RefDistance %v, MaxDistance %v, Rolloff %v (want 0 < RefDistance <= MaxDistance, Rolloff 0 or more, all finite but MaxDistance)",
			ErrInvalid, who, d.Ref, d.Max, d.Rolloff)
	}
	return nil
}

// check3D validates a PlayDesc's Spatial, out of line from Play.
func (e *Engine) check3D(s *Spatial) error {
	if !s.Position.finite() || !s.Velocity.finite() || !s.Cone.Direction.finite() {
		return fmt.Errorf("%w: PlayDesc.Spatial position %v, velocity %v or cone direction %v not finite",
			ErrInvalid, s.Position, s.Velocity, s.Cone.Direction)
	}
	c := s.Cone
	if !(c.Inner >= 0 && c.Inner <= c.Outer && c.Outer <= 360) || !(c.OuterGain >= 0 && c.OuterGain <= 1) {
		return fmt.Errorf("%w: PlayDesc.Spatial cone inner %v°, outer %v°, outer gain %v (want 0 <= inner <= outer <= 360, gain 0..1)",
			ErrInvalid, c.Inner, c.Outer, c.OuterGain)
	}
	if !(s.RefDistance >= 0) || !(s.MaxDistance >= 0) || !(s.Rolloff >= 0) {
		return fmt.Errorf("%w: PlayDesc.Spatial RefDistance %v, MaxDistance %v, Rolloff %v (want 0 or more)",
			ErrInvalid, s.RefDistance, s.MaxDistance, s.Rolloff)
	}
	return checkDistance("PlayDesc.Spatial", e.mix.sp.resolve(s))
}

// resolve returns s's distance settings with the engine's defaults for
// its zero fields.
func (sp *mixSpatial) resolve(s *Spatial) spatial.Distance {
	d := sp.dist
	if s.RefDistance != 0 {
		d.Ref = s.RefDistance
	}
	if s.MaxDistance != 0 {
		d.Max = s.MaxDistance
	}
	if s.Rolloff != 0 {
		d.Rolloff = s.Rolloff
	}
	return d
}

// play3D hands a positioned Play's Spatial to the mixer through the
// slot Play reserved, before the command is published. With doppler on,
// the voice is played pitched, at pitch 1 unless it has one: Play has
// set the slot's playArgs (playargs.go) already.
func (e *Engine) play3D(slot uint32, s *Spatial) {
	sp := &e.mix.sp
	sp.in[slot] = *s
	sp.positioned[slot].Store(true)
	if sp.dop.Factor > 0 {
		if a := &e.mix.x.args[slot]; a.pitch == 0 {
			a.pitch = 1
		}
		e.mix.pitchable[slot].Store(true)
	}
}

// SetListener moves and turns the listener, from the mixer's next
// block; every positioned voice's gains ramp to their new values across
// that block. Safe from any goroutine. It does not queue: the mixer
// reads the latest listener once a block. After Close it returns the
// bare ErrClosed; a vector that is not finite, or Forward and Up that
// are zero or parallel (but both zero), is ErrInvalid.
func (e *Engine) SetListener(l Listener) error {
	if !l.Position.finite() || !l.Forward.finite() || !l.Up.finite() || !l.Velocity.finite() || !l.sp().Oriented() {
		return badListener(l)
	}
	if e.closed.Load() {
		return e.refuse(callSetListener, reasonClosed, -1)
	}
	e.mix.sp.lisCell.store(l)
	return nil
}

func badListener(l Listener) error {
	return fmt.Errorf("%w: listener %+v (want finite vectors, Forward and Up neither zero nor parallel, or both zero)", ErrInvalid, l)
}

// SetPosition moves h's voice, played with PlayDesc.Spatial, to pos at
// velocity vel, from the mixer's next block, its gains (and its doppler
// pitch) ramped across that block. Safe from any goroutine. It does not
// queue: the voice keeps only its latest position, which the mixer reads
// once a block, so moving many voices every frame never fills the
// command queue. A voice played without a Spatial is refused with
// ErrNotSpatial; its other refusals are ErrStaleHandle and ErrClosed.
func (e *Engine) SetPosition(h Handle, pos, vel Vec3) error {
	if !pos.finite() || !vel.finite() {
		return fmt.Errorf("%w: SetPosition position %v or velocity %v not finite", ErrInvalid, pos, vel)
	}
	if e.closed.Load() {
		return e.refuse(callSetPosition, reasonClosed, -1)
	}
	s, ok := e.slots.liveHandle(h)
	if !ok {
		return e.refuse(callSetPosition, reasonStale, -1)
	}
	if !e.mix.sp.positioned[s].Load() {
		return ErrNotSpatial
	}
	e.mix.sp.pos[s].store(h.gen(), pos, vel)
	return nil
}

// SetDirection turns the cone of h's voice, played with PlayDesc.Spatial,
// to face dir, from the mixer's next block; the zero dir removes the
// cone. The cone's angles and outer gain stay as Play set them; a voice
// played with the zero Cone has OpenAL's default, 360° wide, and stays
// omnidirectional. It refuses as SetPosition does.
func (e *Engine) SetDirection(h Handle, dir Vec3) error {
	if !dir.finite() {
		return fmt.Errorf("%w: SetDirection direction %v not finite", ErrInvalid, dir)
	}
	if s, ok := e.slots.liveHandle(h); ok && !e.mix.sp.positioned[s].Load() {
		return ErrNotSpatial
	}
	c := command{kind: cmdDirection}
	c.v3 = [3]float32{dir.X, dir.Y, dir.Z}
	return e.voiceCmd(h, c, callSetDirection)
}

func vecAt(a *[3]float32, i int) Vec3 { return Vec3{X: a[i], Y: a[i+1], Z: a[i+2]} }

// cmd3D applies a SetDirection (drain).
func (m *mixer) cmd3D(c *command) {
	sp := &m.sp
	v := m.voiceFor(c)
	if v == nil {
		return
	}
	sp.v[c.slot].cone.Direction = vecAt(&c.v3, 0)
}

// start3D makes v, just started by c, a positioned voice: its first
// block starts at its 3D gains and doppler pitch, with no ramp.
func (m *mixer) start3D(v *voice, c *command) {
	sp := &m.sp
	in := &sp.in[c.slot]
	sp.v[c.slot] = voice3D{on: true, doppler: v.pitched && sp.dop.Factor > 0, pos: in.Position, vel: in.Velocity,
		dist: sp.resolve(in), cone: in.Cone, pitch: m.x.argsOf(c).pitch}
	if in.Cone == (Cone{}) {
		// OpenAL's default cone, 360° wide: a later SetDirection leaves the
		// voice omnidirectional.
		sp.v[c.slot].cone = Cone{Inner: 360, Outer: 360, OuterGain: 1}
	}
	sp.n++
	m.latestPos(c.slot, v, &sp.v[c.slot])
	m.place(v, &sp.v[c.slot])
	v.gainL, v.gainR = m.gains(v)
	if sp.v[c.slot].doppler {
		v.step = v.stepTo
	}
}

// end3D clears slot s's 3D state before the slot is free again.
func (m *mixer) end3D(s uint32) {
	sp := &m.sp
	if sp.v[s].on {
		sp.v[s] = voice3D{}
		sp.n--
	}
	if sp.positioned[s].Load() {
		sp.positioned[s].Store(false)
	}
}

// spatialize sets every positioned voice's gains and doppler pitch for
// this block, before the voices mix (renderBlock).
func (m *mixer) spatialize() {
	for _, s := range m.active {
		if p := &m.sp.v[s]; p.on {
			v := &m.voices[s]
			m.latestPos(s, v, p)
			m.place(v, p)
		}
	}
}

// place sets v's att3d (distance times cone), its pan gains by direction
// scaled by att3d, and, with doppler, the step its pitch ramps to.
func (m *mixer) place(v *voice, p *voice3D) {
	sp := &m.sp
	lp := sp.lis.Position.sp()
	att := spatial.Gain(sp.model, spatial.Dist(p.pos.sp(), lp), p.dist) * spatial.ConeGain(p.cone.sp(), p.pos.sp(), lp)
	v.att3d = float32(att)
	l, r := panGains(float32(spatial.Pan(sp.basis, p.pos.sp(), lp)), v.mono, m.monoOut)
	v.panL, v.panR = l*v.att3d, r*v.att3d
	if p.doppler {
		ratio := spatial.Ratio(sp.dop, p.pos.sp(), p.vel.sp(), lp, sp.lis.Velocity.sp())
		pitch := min(max(float64(p.pitch)*ratio, MinPitch), MaxPitch)
		v.stepTo = pitchStep(v.pool.format.Rate, m.dev.Rate, float32(pitch))
	}
}

// sp returns v as the spatial package's vector (the same layout).
func (v Vec3) sp() spatial.Vec3 { return spatial.Vec3(v) }

// finite reports that every component is finite.
func (v Vec3) finite() bool { return v.sp().Finite() }

// sp returns l as the spatial package's listener.
func (l Listener) sp() spatial.Listener {
	return spatial.Listener{Position: l.Position.sp(), Forward: l.Forward.sp(), Up: l.Up.sp(), Velocity: l.Velocity.sp()}
}

// sp returns c as the spatial package's cone.
func (c Cone) sp() spatial.Cone {
	return spatial.Cone{Direction: c.Direction.sp(), Inner: c.Inner, Outer: c.Outer, OuterGain: c.OuterGain}
}
