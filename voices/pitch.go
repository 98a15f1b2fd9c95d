package voices

import (
	"fmt"

	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

// Pitch limits: a voice plays at 0.25 to 4 times its clip's rate.
const (
	MinPitch = 0.25
	MaxPitch = 4
)

// pitchSpan is how many source frames a pitched voice decodes at once:
// the planes it filters from. It holds the longest window (4608 frames,
// 192 kHz at pitch 4 on an 8 kHz device) and then some outputs.
const pitchSpan = 8192

// pitchState is what the pitched voices of one mixer share: the filters,
// built by NewEngine, and the scratch each voice uses in turn. It belongs
// to the mixer (the barrier holder).
type pitchState struct {
	bank  *dsp.PitchBank
	l, r  []float32   // the converted source, one plane per channel (Kernels.Split)
	steps []uint64    // a block's steps, one per output
	share *pitchShare // the voices in step this block (pitchshare.go)
}

// newPitchState builds the filters for every format of slots, up to
// pitch 4, on a device of rate dev.
func newPitchState(slots *slotTable, dev, block int) *pitchState {
	var most uint64
	for i := range slots.pools {
		most = max(most, pitchStep(slots.pools[i].format.Rate, dev, MaxPitch))
	}
	return &pitchState{
		bank:  dsp.PitchBankUpTo(most),
		l:     make([]float32, pitchSpan),
		r:     make([]float32, pitchSpan),
		steps: make([]uint64, block),
		share: newPitchShare(len(slots.states)),
	}
}

// pitchStep returns the source frames per device frame, 32.32, of a
// voice from rate src at pitch on a device of rate dev. Two products and
// a quotient, none fused: the same bits on every CPU.
func pitchStep(src, dev int, pitch float32) uint64 {
	return uint64(float64(float64(src)*float64(pitch)) / float64(dev) * dsp.FracOne)
}

func checkPitch(name string, p float32) error {
	if !(p >= MinPitch && p <= MaxPitch) {
		return fmt.Errorf("%w: %s %v (want %v..%v, or 0 for 1)", ErrInvalid, name, p, MinPitch, MaxPitch)
	}
	return nil
}

// SetPitch changes the playback rate of h's voice, which must have been
// played with PlayDesc.Pitch set, to pitch (0.25..4; 0 means 1). The
// step moves linearly across the mixer's next block, so a sweep has no
// zipper noise. A voice played without a pitch is refused with
// ErrNotPitched; its other refusals are SetVolume's.
func (e *Engine) SetPitch(h Handle, pitch float32) error {
	if pitch == 0 {
		pitch = 1
	}
	if err := checkPitch("SetPitch pitch", pitch); err != nil {
		return err
	}
	if s, ok := e.slots.liveHandle(h); ok && !e.mix.pitchable[s].Load() {
		return ErrNotPitched
	}
	return e.voiceCmd(h, command{kind: cmdPitch, value: pitch}, callSetPitch)
}

// startPitched makes v, just started by c, a pitched voice: off its rate
// bus, its fade in device frames, its step set.
func (m *mixer) startPitched(v *voice, pitch float32) {
	v.bus, v.sinc, v.fade, v.pitched = nil, nil, m.fade, true
	v.step = pitchStep(v.pool.format.Rate, m.dev.Rate, pitch)
	v.stepTo = v.step
}

// renderPitched mixes len(mix) frames of a pitched voice at gains (gl,
// gr). Its position counts frames of the stream it plays: the clip, then
// the loop region again and again (frames before the clip and past a
// one-shot's end are silence). Each output's step moves linearly from
// v.step to v.stepTo across the block. The filter is the bank's for the
// larger of the two, so its cutoff lies at or below the output's Nyquist
// frequency. The stream is decoded a span at a time into planes.
func (v *voice) renderPitched(mix []frame, gl, gr float32) {
	ps := v.ps
	n := len(mix)
	steps := ps.steps[:n]
	rampSteps(steps, v.step, v.stepTo)
	if v.kind == dsp.KindS16Mono || v.kind == dsp.KindS16Stereo {
		gl, gr = gl*dsp.S16Scale, gr*dsp.S16Scale // Split leaves 16-bit samples unscaled
	}
	t := ps.bank.For(max(v.step, v.stepTo))
	K, half := t.Taps(), t.Half()
	for i := 0; i < n; {
		if L := v.end - v.loopStart; v.loop {
			// The stream repeats with the loop's length past its start.
			for int(v.pos>>32)-half-L >= v.loopStart {
				v.pos -= uint64(L) << 32
			}
		}
		base := int(v.pos>>32) - half // the next output's window start
		if !v.loop && base >= v.end {
			v.ended = true
			break
		}
		// As many outputs as the span holds. The filter takes each
		// position counted from its window's start: base + half is the
		// next output's window start in the planes' frame 0.
		org := uint64(base+half) << 32
		p := v.pos - org
		c, q := fitSpan(steps[i:], p, K, v.step == v.stepTo)
		span := int(q>>32) + K // frames the outputs read at most, and the next one's start
		v.decodeStream(ps, base, min(span, pitchSpan))
		v.kern.FilterSteps(t, mix[i:i+c], ps.l, ps.r, v.mono, p, steps[i:i+c], gl, gr)
		v.pos = org + q
		i += c
	}
	v.step = v.stepTo
}

// decodeStream converts n frames of the stream from frame base into the
// planes of ps (Kernels.Split: 16-bit samples unscaled).
func (v *voice) decodeStream(ps *pitchState, base, n int) {
	l, r := ps.l[:n], ps.r[:n]
	fb := v.kind.FrameBytes()
	for j := 0; j < n; {
		s := base + j
		if s >= v.end && v.loop {
			s = v.loopStart + (s-v.end)%(v.end-v.loopStart)
		}
		run := 1
		switch {
		case s < 0:
			run = min(n-j, -s)
			clear(l[j : j+run])
			clear(r[j : j+run])
		case s >= v.end:
			run = n - j
			clear(l[j:])
			clear(r[j:])
		default:
			run = min(n-j, v.end-s)
			v.kern.Split(v.kind, l[j:j+run], r[j:j+run], v.data[fb*s:fb*(s+run)])
		}
		j += run
	}
}

// fitSpan returns how many outputs of steps, the first at position p in
// the planes, have their window of K frames inside the span's
// pitchSpan, and the position after the last of them. With constant
// steps it divides instead of counting.
func fitSpan(steps []uint64, p uint64, K int, constant bool) (int, uint64) {
	if constant && len(steps) > 0 {
		// Output c's window starts at frame (p + c·step)>>32.
		room := uint64(pitchSpan-K)<<32 | (1<<32 - 1)
		c := 0
		if p <= room {
			c = min(len(steps), int((room-p)/steps[0])+1)
		}
		return c, p + uint64(c)*steps[0]
	}
	c, q := 0, p
	for c < len(steps) && int(q>>32)+K <= pitchSpan {
		q += steps[c]
		c++
	}
	return c, q
}

// rampSteps fills steps with a ramp from s0 to s1: output i of n
// advances by s0 + (s1-s0)×(i+1)/n, the quotient truncated, so the last
// is s1. It counts the quotient and remainder on, dividing once.
func rampSteps(steps []uint64, s0, s1 uint64) {
	if s0 == s1 {
		if len(steps) > 0 {
			steps[0] = s0
		}
		for k := 1; k < len(steps); k *= 2 {
			copy(steps[k:], steps[:k])
		}
		return
	}
	n := uint64(len(steps))
	up := s1 > s0
	d := s1 - s0
	if !up {
		d = s0 - s1
	}
	dq, dr := d/n, d%n
	var q, rem uint64
	for i := range steps {
		q, rem = q+dq, rem+dr
		if rem >= n {
			q, rem = q+1, rem-n
		}
		if up {
			steps[i] = s0 + q
		} else {
			steps[i] = s0 - q
		}
	}
}

// unpitch clears slot s's pitchable mark before the slot is free again.
func (m *mixer) unpitch(s uint32) {
	if m.pitchable[s].Load() {
		m.pitchable[s].Store(false)
	}
}
