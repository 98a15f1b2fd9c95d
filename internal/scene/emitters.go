package scene

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/steadyframe/steadyframe/internal/tones"
	"github.com/steadyframe/steadyframe/voices"
)

// MaxEmitters is the most emitters NewEmitters makes: the engine's
// logical sounds (sceneVirtual) less a margin for the effects and the
// music.
const MaxEmitters = 900

// WorldHalf is half the side of the square world the emitters move in, in
// the engine's distance units, centred on the origin of the x-z plane.
const WorldHalf = 40

// The scene's 3D settings: OpenAL's inverse clamped model, full level
// within 2 units, no quieter past 40.
const (
	emitRef = 2
	emitMax = 40
	// emitVolume keeps 32 mixed emitters near the limiter's threshold.
	emitVolume = 0.12
	// emitPriority is below every effect's (the effect's index): an
	// effect outranks every emitter for a real voice.
	emitPriority = -1
	// Listener path: a circle of this radius, once around in listenerLap.
	listenerRadius = 18
	listenerLap    = 30 * time.Second
)

// emitterTones are the emitters' loops: mono float32 at 48 kHz, the
// common device rate, so they share the mixer's cheapest path.
var emitterTones = [...]tones.Tone{
	{Format: emitFormat, Freq: 330, Length: time.Second, Loop: true, Level: 0.5},
	{Format: emitFormat, Freq: 392, Length: time.Second, Loop: true, Level: 0.5},
	{Format: emitFormat, Freq: 494, Length: time.Second, Loop: true, Level: 0.5},
	{Format: emitFormat, Freq: 587, Length: time.Second, Loop: true, Level: 0.5},
}

var emitFormat = voices.Format{Rate: 48000, Channels: 1, Encoding: voices.EncodingFloat32LE}

// ErrEmitters is returned, wrapped, for an emitter count NewEmitters
// cannot make.
var ErrEmitters = errors.New("scene: bad emitter count")

// ErrMixerStalled reports a mixer that did not apply the plays queued
// while the scene was made (the music, the emitters) within 30 s.
var ErrMixerStalled = errors.New("scene: the mixer did not start")

// orbit is one emitter's path: a circle around a fixed centre.
type orbit struct {
	cx, cz, r, w, phase float64
}

// Emitters are the scene's positioned sounds: looping clips that circle
// fixed points of the world while the listener walks its own circle.
// Step moves them all once a frame through Engine.SetPosition and
// SetListener. The engine ranks them by audibility and mixes the nearest
// (EngineDesc.Virtual); the others stay alive, virtual. Doppler is off:
// with it every positioned voice would take the pitched path, about 40
// times a plain voice's cost (docs/spatial.md).
//
// Emitters belong to the goroutine that made them (the render
// goroutine). Their voices belong to the engine's audio goroutine.
type Emitters struct {
	eng   *voices.Engine
	h     []voices.Handle
	orbit []orbit
	pos   []voices.Vec3
	lis   voices.Listener
	stats EmitterStats
	// play is the Play of emitter i, reused so that Restart allocates
	// nothing; stopped is set between Stop and Restart.
	play    voices.PlayDesc
	sp      voices.Spatial
	clips   []voices.Clip
	stopped bool
	// blocks is the mixer's block count at the last moves sent.
	blocks uint64
}

// EmitterStats counts what Step sent and what the engine refused. A
// plain value.
type EmitterStats struct {
	// Moves counts accepted SetPosition and SetListener commands.
	Moves uint64
	// QueueFull counts commands the full queue refused; the sound keeps
	// its last position until the next frame.
	QueueFull uint64
	// Lost counts SetPosition calls on an emitter that no longer plays
	// (stolen past the logical cap).
	Lost uint64
	// Held counts the frames whose moves Step held back: the mixer had
	// not run a block since the last ones.
	Held uint64
	// Refused counts the plays of NewEmitters and Restart the engine
	// refused (past its cap): those emitters stay silent.
	Refused uint64
}

// NewEmitters plays n looping emitters (0..MaxEmitters) at positions
// drawn from seed, on the world bus, and places the listener. Call it
// at load time: it allocates n's storage. The emitters play until StopAll.
func (a *Audio) NewEmitters(n int, seed uint64) (*Emitters, error) {
	if n < 0 || n > MaxEmitters {
		return nil, fmt.Errorf("%w: %d (want 0..%d)", ErrEmitters, n, MaxEmitters)
	}
	m := &Emitters{eng: a.Engine, h: make([]voices.Handle, n), orbit: make([]orbit, n), pos: make([]voices.Vec3, n)}
	rng := rand.New(rand.NewPCG(seed, 19))
	for i := range m.orbit {
		o := orbit{
			cx: (rng.Float64()*2 - 1) * (WorldHalf - 4), cz: (rng.Float64()*2 - 1) * (WorldHalf - 4),
			r: 1 + 3*rng.Float64(), w: 0.2 + 0.8*rng.Float64(), phase: 2 * math.Pi * rng.Float64(),
		}
		if i%2 == 1 {
			o.w = -o.w
		}
		m.orbit[i] = o
	}
	m.place(0)
	if err := a.Engine.SetListener(m.lis); err != nil {
		return nil, fmt.Errorf("scene: emitters: listener: %w", err)
	}
	bus, _ := a.Engine.Bus("sfx")
	m.clips = a.emitClips[:]
	m.play = voices.PlayDesc{Volume: emitVolume, Loop: true, Priority: emitPriority, Bus: bus, Spatial: &m.sp}
	for i := range m.h {
		h, err := m.start(i)
		switch err {
		case nil:
		case voices.ErrNoVoice, voices.ErrQueueFull:
			// Past the engine's cap: counted, and the emitter stays
			// silent.
			m.stats.Refused++
		default:
			return nil, fmt.Errorf("scene: emitter %d of %d: %w", i, n, err)
		}
		m.h[i] = h
	}
	// As for the music: a StopAll before the mixer starts them would
	// cancel plays the stress tool counts as its workers'.
	if err := a.waitStarted("emitters"); err != nil {
		return nil, err
	}
	return m, nil
}

// start plays emitter i at its place.
func (m *Emitters) start(i int) (voices.Handle, error) {
	m.sp = voices.Spatial{Position: m.pos[i]}
	return m.eng.Play(m.clips[i%len(m.clips)], m.play)
}

// Stop stops every emitter; Step then moves only the listener. The stress
// tool's voice-storm does this, to count its probes against the engine's
// cap alone. It allocates nothing.
func (m *Emitters) Stop() {
	for _, h := range m.h {
		_ = m.eng.Stop(h)
	}
	m.stopped = true
}

// Restart plays every emitter again, at its place at time t. It allocates
// nothing; a refused play is counted (Stats.Refused).
func (m *Emitters) Restart(t time.Duration) {
	m.place(t)
	for i := range m.h {
		h, err := m.start(i)
		if err != nil {
			m.stats.Refused++
		}
		m.h[i] = h
	}
	m.stopped = false
}

// place computes the listener and every emitter at time t.
func (m *Emitters) place(t time.Duration) {
	s := t.Seconds()
	a := 2 * math.Pi * s / listenerLap.Seconds()
	sin, cos := math.Sincos(a)
	speed := 2 * math.Pi * listenerRadius / listenerLap.Seconds()
	// The listener walks counter-clockwise seen from above (+y), facing
	// its direction of travel.
	m.lis = voices.Listener{
		Position: voices.Vec3{X: float32(listenerRadius * cos), Z: float32(listenerRadius * sin)},
		Forward:  voices.Vec3{X: float32(-sin), Z: float32(cos)},
		Up:       voices.Vec3{Y: 1},
		Velocity: voices.Vec3{X: float32(-speed * sin), Z: float32(speed * cos)},
	}
	for i, o := range m.orbit {
		sin, cos := math.Sincos(o.phase + o.w*s)
		m.pos[i] = voices.Vec3{X: float32(o.cx + o.r*cos), Z: float32(o.cz + o.r*sin)}
	}
}

// Step moves the listener and every emitter to where they are t after
// the start, from the engine's next block. It allocates nothing. A
// refusal is counted (Stats), never fatal: the sound keeps its last
// position. Without doppler the velocities are not sent.
//
// Step sends nothing while the mixer has not run a block since the last
// moves: the mixer has not read them yet, and the new ones would only
// overwrite them. SetPosition keeps a voice's latest position rather than
// queueing, so moves never fill the queue; this saves the writes a device
// that pulls in bursts (a paced PulseAudio sink, about half a second)
// would never see.
func (m *Emitters) Step(t time.Duration) {
	m.place(t)
	b := m.eng.Stats().Blocks
	if b == m.blocks {
		m.stats.Held++
		return
	}
	m.blocks = b
	m.count(m.eng.SetListener(m.lis))
	if m.stopped {
		return
	}
	for i, h := range m.h {
		m.count(m.eng.SetPosition(h, m.pos[i], voices.Vec3{}))
	}
}

func (m *Emitters) count(err error) {
	switch err {
	case nil:
		m.stats.Moves++
	case voices.ErrQueueFull:
		m.stats.QueueFull++
	default:
		m.stats.Lost++
	}
}

// Len is the number of emitters.
func (m *Emitters) Len() int { return len(m.h) }

// Position is emitter i's position at the last Step.
func (m *Emitters) Position(i int) voices.Vec3 { return m.pos[i] }

// Handle is emitter i's voice.
func (m *Emitters) Handle(i int) voices.Handle { return m.h[i] }

// Listener is the listener at the last Step.
func (m *Emitters) Listener() voices.Listener { return m.lis }

// Stats returns the counts of every Step so far.
func (m *Emitters) Stats() EmitterStats { return m.stats }

// loadEmitterClips makes a bank and a clip over each emitter tone.
func (a *Audio) loadEmitterClips() error {
	for i, t := range emitterTones {
		mem, err := tones.Synth(t)
		if err != nil {
			return fmt.Errorf("scene: emitter tone %d: %w", i, err)
		}
		bank, err := a.Engine.NewBank(fmt.Sprintf("emitter%d-%s", i, t.Format), mem)
		if err != nil {
			return fmt.Errorf("scene: emitter bank %d: %w", i, err)
		}
		clip, err := bank.Clip(voices.ClipDesc{Format: t.Format})
		if err != nil {
			return fmt.Errorf("scene: emitter clip %d: %w", i, err)
		}
		a.emitBanks[i], a.emitClips[i] = bank, clip
	}
	return nil
}

// emitterEngine sets the engine's 3D distances, its logical sounds
// (Virtual) and a command queue deep enough for every emitter's
// SetPosition of several frames per block.
func emitterEngine(d *voices.EngineDesc) {
	d.RefDistance, d.MaxDistance = emitRef, emitMax
	d.QueueSize, d.Virtual = QueueSize, Virtual
}

// QueueSize is the scene engine's command queue. Several frames of
// MaxEmitters moves may wait for one mixer block, beside the stress
// tool's voice-storm: a burst past the logical cap and a probe for each
// place. 4096 overflowed in that storm.
const QueueSize = 16384

// Virtual is how many logical sounds the scene's engine holds
// (EngineDesc.Virtual): every emitter, the music and the effects.
const Virtual = 1024
