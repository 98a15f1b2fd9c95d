package voices

import (
	"encoding/binary"
	"math"
)

// sourceKind selects a voice's decoder; fixed per pool, so starting a
// voice configures nothing.
type sourceKind uint8

const (
	kindS16Mono sourceKind = iota
	kindS16Stereo
	kindF32Mono
	kindF32Stereo
)

func kindOf(f Format) sourceKind {
	k := kindS16Mono
	if f.Encoding == EncodingFloat32LE {
		k = kindF32Mono
	}
	if f.Channels == 2 {
		k++
	}
	return k
}

// fracOne is 1.0 in the 32.32 fixed-point source position.
const fracOne = 1 << 32

// voice is one playing sound. Its converter (kind) and resampler step are
// set when the pool is built; Play fills in the clip and settings. A voice
// belongs to the mixer (the audio goroutine, or a StopAll holding the
// barrier); nothing else reads it.
type voice struct {
	// Fixed at construction.
	pool *formatPool
	kind sourceKind
	step uint64 // source frames per device frame, 32.32 fixed point
	mono bool

	// Set by Play.
	gen       uint32
	clip      *clipState
	data      []byte // the caller's PCM: valid until the voice ends
	end       int    // frame where the voice loops or stops
	loopStart int
	loop      bool
	pos       uint64 // 32.32 fixed point, in source frames
	volume    float32
	pan       float32
	priority  int16
	protected bool
	order     uint64 // start order, for "steal the oldest"
	counted   bool   // counted against the caps (false once stolen)

	gainL, gainR float32 // gains applied at the end of the last block
	fading       bool
	fade         float32 // fade-out gain, 1 → 0
	ended        bool
}

// decode converts count source frames, starting at frame idx and
// following the loop (or reading silence past the end of a one-shot
// clip), into dst as stereo float32. The per-encoding loops are kept
// separate and tight, with the switch outside them: measured by
// BenchmarkMix32, converting a run of frames first and resampling from the
// floats is about three times as fast as decoding frame by frame inside
// the resampler.
func (v *voice) decode(dst []float32, idx, count int) {
	k := 0
	for k < count {
		if idx >= v.end {
			if !v.loop {
				clear(dst[2*k : 2*count])
				return
			}
			idx = v.loopStart
		}
		run := min(count-k, v.end-idx)
		out := dst[2*k : 2*(k+run)]
		switch v.kind {
		case kindS16Mono:
			src := v.data[2*idx : 2*(idx+run)]
			for i := 0; i < run; i++ {
				s := float32(int16(binary.LittleEndian.Uint16(src[2*i:]))) * (1.0 / 32768)
				out[2*i], out[2*i+1] = s, s
			}
		case kindS16Stereo:
			src := v.data[4*idx : 4*(idx+run)]
			for i := 0; i < 2*run; i++ {
				out[i] = float32(int16(binary.LittleEndian.Uint16(src[2*i:]))) * (1.0 / 32768)
			}
		case kindF32Mono:
			src := v.data[4*idx : 4*(idx+run)]
			for i := 0; i < run; i++ {
				s := sanitize(math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:])))
				out[2*i], out[2*i+1] = s, s
			}
		default:
			src := v.data[8*idx : 8*(idx+run)]
			for i := 0; i < 2*run; i++ {
				out[i] = sanitize(math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:])))
			}
		}
		k += run
		idx += run
	}
}

// sanitize clamps float samples and reads NaN as silence, so hostile PCM
// cannot poison the mix.
func sanitize(s float32) float32 {
	switch {
	case s != s:
		return 0
	case s > 1:
		return 1
	case s < -1:
		return -1
	}
	return s
}

// srcFrames returns how many source frames, from the current one, n
// device frames read (the last one interpolates towards one more).
func (v *voice) srcFrames(n int) int {
	return int((v.pos&(fracOne-1)+uint64(n-1)*v.step)>>32) + 2
}

// pull converts and resamples the next len(dst)/2 device frames into dst
// (stereo, interleaved) at unity gain; past the end of a one-shot clip
// dst is silent. It is render without the mix, for tests and tools.
func (v *voice) pull(dst []float32) {
	clear(dst)
	v.gainL, v.gainR = 1, 1
	v.render(dst, make([]float32, 2*v.srcFrames(len(dst)/2)), 1, 1, 0)
}

// render adds this voice's next len(mix)/2 device frames into mix, using
// src (at least 2*srcFrames floats) as scratch. It converts the source
// frames the block needs, then resamples them by linear interpolation;
// the position is carried across calls, so block edges are seamless. The
// gains ramp from the last block's to (tl, tr) across the block so volume
// and pan changes never step, and a fading voice loses fadeStep of gain
// per frame. A voice that reaches the end of a one-shot clip, or the end
// of its fade, is marked ended.
func (v *voice) render(mix, src []float32, tl, tr, fadeStep float32) {
	n := len(mix) / 2
	idx := int(v.pos >> 32)
	v.decode(src, idx, v.srcFrames(n))
	valid := n
	if !v.loop {
		// Device frames whose source frame is still inside the clip.
		left := uint64(v.end)<<32 - v.pos
		if c := int((left + v.step - 1) / v.step); c < n {
			valid = c
			v.ended = true
		}
	}
	gl, gr := v.gainL, v.gainR
	dl, dr := (tl-gl)/float32(n), (tr-gr)/float32(n)
	v.gainL, v.gainR = tl, tr
	fade, fs := float32(1), float32(0)
	if v.fading {
		fade, fs = v.fade, fadeStep
	}
	p, step := v.pos&(fracOne-1), v.step
	for i := 0; i < valid; i++ {
		k := int(p>>32) * 2
		t := float32(uint32(p)) * (1.0 / fracOne)
		gl += dl
		gr += dr
		fade -= fs
		if fade <= 0 {
			v.fade, v.ended = 0, true
			return
		}
		l0, r0 := src[k], src[k+1]
		mix[2*i] += (l0 + (src[k+2]-l0)*t) * gl * fade
		mix[2*i+1] += (r0 + (src[k+3]-r0)*t) * gr * fade
		p += step
	}
	v.fade = fade
	v.pos += uint64(valid) * step
	if v.loop {
		loopLen := uint64(v.end-v.loopStart) << 32
		for v.pos>>32 >= uint64(v.end) {
			v.pos -= loopLen
		}
	}
}

// panGains returns the left and right gains for pan in [-1, 1]: constant
// power for mono sources (a centred mono voice is -3 dB per side), a
// balance control for stereo ones (centre leaves both channels at unity).
func panGains(pan float32, mono bool) (float32, float32) {
	if mono {
		a := (float64(pan) + 1) * math.Pi / 4
		return float32(math.Cos(a)), float32(math.Sin(a))
	}
	l, r := float32(1), float32(1)
	if pan > 0 {
		l = 1 - pan
	} else {
		r = 1 + pan
	}
	return l, r
}

// softClip limits x to (-1, 1) without a hard corner: below the knee the
// signal passes unchanged; above it, it bends smoothly towards full scale
// (continuous value and slope at the knee). Pure float32 arithmetic keeps
// it deterministic.
func softClip(x float32) float32 {
	const knee = 0.75
	const room = 1 - knee
	a := x
	if a < 0 {
		a = -a
	}
	if a <= knee {
		return x
	}
	t := (a - knee) / room
	y := knee + room*t/(1+t)
	if x < 0 {
		return -y
	}
	return y
}
