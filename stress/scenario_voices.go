package main

import (
	"fmt"
	"time"

	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/voices"
)

// stormPlays is how many plays each worker issues in the burst frame.
const stormPlays = 100

// stormOver is how many times over a cap past voices.DefaultMaxVoices
// (virtual voices) the burst plays.
const stormOver = 2

// Probe priorities: above every effect's (the scene plays effect i at
// priority i), so no effect may steal a probe; the low probe is the one a
// steal must take first. probes fills a cap of 32 but the music's and the
// low probe's places; a larger cap (virtual voices) takes its cap less 2,
// up to maxProbes.
const (
	probePrio    = 50
	probeLowPrio = 40
	probes       = voices.DefaultMaxVoices - 2
	probeExtra   = 3
	maxProbes    = scene.Virtual - 2
)

// Voice-storm stages, each timed from the phase's start.
const (
	stormBurst = iota // every worker's burst, then the effects die away
	stormFill         // probes fill every place but the music's
	stormSteal        // three more probes must steal low, then the two oldest
	stormStop         // probes checked and stopped
	stormDone
)

// voiceStorm is a burst of plays from every worker in one frame
// (hundreds), with the protected music playing: the voice cap is reached,
// steals go lowest priority first then oldest, the protected voice is
// never stolen, and refusals and steals are counted and add up (the
// plays' request accounting, checked at the end, covers the burst). The
// order is checked with probes, looping voices that end only when stolen:
// with the cap full of probes, three more must take the low-priority
// probe first, then the two oldest. A voiceStorm belongs to the render
// goroutine.
type voiceStorm struct {
	stage   int
	t0      time.Time
	at      time.Time // when the stage began
	blocks  uint64    // the mixer's blocks when the stage began
	took    time.Time // when the mixer had run two blocks since; zero before
	issued  int
	peak    int
	cap     int
	lost    int    // frames in which the music was not playing
	lostAt  uint64 // the first such frame
	probe   [maxProbes + probeExtra]voices.Handle
	probes  int // probes played at priority probePrio before the extra ones
	low     voices.Handle
	playErr int // probes the engine refused
	// after the steal: probes still playing, by role
	lowPlays                     bool
	oldestGone, youngKept, extra int
}

func (*voiceStorm) name() string { return "voice-storm" }

func (v *voiceStorm) start(r *renderer) {
	v.t0, v.at = time.Now(), time.Now()
	v.issued = len(r.workers) * stormPlays
	if r.snd != nil && r.snd.Effects() > 0 {
		// The burst must pass the cap, whatever it is; the emitters stop
		// for the phase, so that the probes count against the cap alone.
		// A larger cap takes twice its size in plays: a third of the
		// effects have a cooldown, which refuses most of their burst, and
		// the rest must still pass the cap for the burst to steal.
		extra := 0
		if c := r.snd.Engine.Stats().MaxVoices; c > voices.DefaultMaxVoices {
			extra = (stormOver*c - voices.DefaultMaxVoices) / len(r.workers)
		}
		r.clock.stormExtra.Store(int64(extra))
		v.issued += len(r.workers) * extra
		if r.emit != nil {
			r.emit.Stop()
		}
		v.blocks = r.snd.Engine.Stats().Blocks
		r.clock.storm.Add(1)
	}
}

func (v *voiceStorm) frame(r *renderer, i int) bool {
	if r.snd == nil {
		return true
	}
	e := r.snd.Engine
	st := e.Stats()
	v.peak, v.cap = max(v.peak, st.Peak), st.MaxVoices
	if !e.Playing(r.snd.Music) {
		if v.lost == 0 {
			v.lostAt = r.frame
		}
		v.lost++
	}
	// A stage's time runs from when the mixer has taken its commands:
	// two blocks after it began. A device that pulls in bursts (a paced
	// PulseAudio sink, about half a second) runs the mixer that late.
	if v.took.IsZero() && st.Blocks >= v.blocks+2 {
		v.took = time.Now()
	}
	since := time.Duration(0)
	if !v.took.IsZero() {
		since = time.Since(v.took)
	}
	switch v.stage {
	case stormBurst:
		// The longest effect lasts 300 ms.
		if since >= 600*time.Millisecond && i >= 30 {
			v.next(stormFill, e)
		}
	case stormFill:
		v.probes = min(v.cap-2, maxProbes)
		for k := range v.probes {
			v.probe[k] = v.play(r, probePrio)
		}
		v.low = v.play(r, probeLowPrio)
		v.next(stormSteal, e)
	case stormSteal:
		if since >= 150*time.Millisecond {
			for k := v.probes; k < v.probes+probeExtra; k++ {
				v.probe[k] = v.play(r, probePrio)
			}
			v.next(stormStop, e)
		}
	case stormStop:
		if since >= 300*time.Millisecond {
			v.lowPlays = e.Playing(v.low)
			for k := range v.probes {
				switch playing := e.Playing(v.probe[k]); {
				case k < probeExtra-1 && !playing:
					v.oldestGone++
				case k >= probeExtra-1 && playing:
					v.youngKept++
				}
			}
			for k := v.probes; k < v.probes+probeExtra; k++ {
				if e.Playing(v.probe[k]) {
					v.extra++
				}
			}
			for _, h := range v.probe[:v.probes+probeExtra] {
				_ = e.Stop(h)
			}
			_ = e.Stop(v.low)
			v.next(stormDone, e)
		}
	case stormDone:
		// The emitters play again once the stopped probes have left them
		// room under the cap.
		if since < 200*time.Millisecond || r.emit != nil && st.Active+r.emit.Len() > v.cap {
			return false
		}
		if r.emit != nil {
			r.emit.Restart(time.Since(r.start))
		}
		return true
	}
	return false
}

func (v *voiceStorm) next(stage int, e *voices.Engine) {
	v.stage, v.at, v.blocks, v.took = stage, time.Now(), e.Stats().Blocks, time.Time{}
}

func (v *voiceStorm) play(r *renderer, prio int16) voices.Handle {
	h, err := r.snd.PlayProbe(prio)
	if err != nil {
		v.playErr++
	}
	return h
}

func (v *voiceStorm) verdict(p *phase) ([]string, string) {
	var bad []string
	d := p.delta()
	if v.cap == 0 {
		return []string{"no audio engine"}, ""
	}
	if v.peak != v.cap {
		bad = append(bad, fmt.Sprintf("voices peaked at %d, want the cap, %d", v.peak, v.cap))
	}
	if v.lost > 0 {
		bad = append(bad, fmt.Sprintf("the protected music was not playing in %d frames, from frame %d: stolen", v.lost, v.lostAt))
	}
	if v.playErr > 0 {
		bad = append(bad, fmt.Sprintf("%d probe plays refused at the call", v.playErr))
	}
	// The low probe goes first, then the oldest probes: the three extra
	// probes take one and two.
	oldest := probeExtra - 1
	if broken("voice-storm") {
		oldest = probeExtra
	}
	if v.lowPlays || v.oldestGone != oldest || v.youngKept != v.probes-(probeExtra-1) || v.extra != probeExtra {
		bad = append(bad, fmt.Sprintf("steal order: low-priority probe playing %v (want false), %d of the oldest %d probes stolen (want %d), "+
			"%d of the other %d kept (want all), %d of %d new probes playing",
			v.lowPlays, v.oldestGone, probeExtra-1, oldest, v.youngKept, v.probes-(probeExtra-1), v.extra, probeExtra))
	}
	if d.steals < probeExtra+1 {
		bad = append(bad, fmt.Sprintf("%d steals in the phase, want the burst's and the probes' %d at least", d.steals, probeExtra+1))
	}
	return bad, fmt.Sprintf("burst of %d plays in one frame: cap %d reached, %d steals, %d refused; music never stolen; "+
		"with the cap full, 3 new voices stole the lowest priority, then the 2 oldest",
		v.issued, v.cap, d.steals, d.voiceRefusals)
}
