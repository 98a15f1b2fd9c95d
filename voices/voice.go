package voices

import "math"

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

// kindFrameBytes is the size of one source frame of each kind.
var kindFrameBytes = [...]int{kindS16Mono: 2, kindS16Stereo: 4, kindF32Mono: 4, kindF32Stereo: 8}

// fracOne is 1.0 in the 32.32 fixed-point source position.
const fracOne = 1 << 32

// frame is one stereo frame of the mix bus. Typing the bus as frames
// rather than interleaved floats lets the inner loops index both channels
// without bounds checks.
type frame [2]float32

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
	gen        uint32
	clip       *clipState
	data       []byte // the caller's PCM: valid until the voice ends
	end        int    // frame where the voice loops or stops
	loopStart  int
	loop       bool
	pos        uint64 // 32.32 fixed point, in source frames
	volume     float32
	panL, panR float32 // panGains(pan, mono), kept so a block computes no trig
	priority   int16
	protected  bool
	order      uint64 // start order, for "steal the oldest"
	counted    bool   // counted against the caps (false once stolen)

	gainL, gainR float32 // gains applied at the end of the last block
	fading       bool
	fadeLeft     int // frames until a fading voice's gain reaches zero
	ended        bool
}

// ramp is a voice's gain across one block: before each frame, l and r
// step by dl and dr.
type ramp struct{ l, r, dl, dr float32 }

// render adds this voice's next len(mix) device frames into mix,
// converting and resampling (linear interpolation) straight from the
// caller's PCM. The position is carried across calls, so block edges are
// seamless. The gains ramp from the last block's to (tl, tr) across the
// block so volume and pan changes never step; a fading voice instead
// ramps to silence over fadeLeft frames. A voice that reaches the end of
// a one-shot clip, or the end of its fade, is marked ended.
//
// A steady gain goes straight into the inner loops. A ramping one (a
// block with a volume or pan change, or a fade) renders at unity gain
// into scratch, which must be as long as mix (nil is fine for a steady
// gain), and is ramped into mix in a second pass. A ramp lasts one block,
// so the inner loops need not carry it: they stay simpler and, at the
// steady gains of BenchmarkMix32, a little faster.
func (v *voice) render(mix, scratch []frame, tl, tr float32) {
	n := len(mix)
	g := ramp{l: v.gainL, r: v.gainR}
	if v.fading {
		// Frame i (from 1) plays at (fadeLeft-i)/fadeLeft of the gain; the
		// frame that would play at zero ends the voice instead.
		left := float32(v.fadeLeft)
		g.dl, g.dr = -g.l/left, -g.r/left
		if v.fadeLeft-1 <= n {
			n = v.fadeLeft - 1
			v.ended = true
		}
		v.fadeLeft -= n
		tl, tr = g.l*float32(v.fadeLeft)/left, g.r*float32(v.fadeLeft)/left
	} else if tl != g.l || tr != g.r {
		g.dl, g.dr = (tl-g.l)/float32(n), (tr-g.r)/float32(n)
	}
	v.gainL, v.gainR = tl, tr
	if g.dl == 0 && g.dr == 0 {
		v.renderFrames(mix[:n], g.l, g.r)
	} else {
		s := scratch[:n]
		clear(s)
		v.renderFrames(s, 1, 1)
		for i, f := range s {
			g.l += g.dl
			g.r += g.dr
			mix[i][0] += f[0] * g.l
			mix[i][1] += f[1] * g.r
		}
	}
	if !v.loop && int(v.pos>>32) >= v.end {
		v.ended = true
	}
}

// renderFrames mixes len(mix) frames at gains (gl, gr). It splits them
// into runs whose source frames lie wholly inside the clip, each mixed by
// one specialised loop (kernels.go), and the rare frame that interpolates
// across the loop seam or past the end, which goes through decode.
func (v *voice) renderFrames(mix []frame, gl, gr float32) {
	unity := v.step == fracOne // the position then never has a fraction
	lim := v.end - 1           // the last frame a resampled run may start at
	if unity {
		lim = v.end
	}
	for i := 0; i < len(mix); {
		k := int(v.pos >> 32)
		if k >= v.end {
			if !v.loop {
				v.ended = true
				return
			}
			v.pos -= uint64(v.end-v.loopStart) << 32
			continue
		}
		if k >= lim {
			v.edge(&mix[i], k, gl, gr)
			v.pos += v.step
			i++
			continue
		}
		var c int
		if unity {
			c = min(len(mix)-i, v.end-k)
		} else {
			c = min(len(mix)-i, int((uint64(lim)<<32-v.pos+v.step-1)/v.step))
		}
		v.mixRun(mix[i:i+c], k, gl, gr)
		v.pos += uint64(c) * v.step
		i += c
	}
}

// edge mixes one frame whose interpolation reads frame k and the frame
// after it, which is across the loop seam or past the end (silence).
func (v *voice) edge(out *frame, k int, gl, gr float32) {
	var s [4]float32
	v.decode(s[:], k, 2)
	t := frac(v.pos)
	out[0] += (s[0] + (s[2]-s[0])*t) * gl
	out[1] += (s[1] + (s[3]-s[1])*t) * gr
}

// mixRun dispatches a run starting at source frame k, whose every source
// frame (and, resampling, the next one) lies inside the clip, to the
// inner loop for the voice's encoding, channels and rate.
func (v *voice) mixRun(mix []frame, k int, gl, gr float32) {
	fb := kindFrameBytes[v.kind]
	src := v.data[k*fb : v.end*fb]
	if v.step == fracOne {
		switch v.kind {
		case kindS16Mono:
			mixS16Mono(mix, src, gl, gr)
		case kindS16Stereo:
			mixS16Stereo(mix, src, gl, gr)
		case kindF32Mono:
			mixF32Mono(mix, src, gl, gr)
		default:
			mixF32Stereo(mix, src, gl, gr)
		}
		return
	}
	p := v.pos & (fracOne - 1)
	switch v.kind {
	case kindS16Mono:
		resampleS16Mono(mix, src, p, v.step, gl, gr)
	case kindS16Stereo:
		resampleS16Stereo(mix, src, p, v.step, gl, gr)
	case kindF32Mono:
		resampleF32Mono(mix, src, p, v.step, gl, gr)
	default:
		resampleF32Stereo(mix, src, p, v.step, gl, gr)
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
