package voices

import (
	"math"

	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

// kindOf returns the source kind of format f: its decoder.
func kindOf(f Format) dsp.Kind {
	k := dsp.KindS16Mono
	if f.Encoding == EncodingFloat32LE {
		k = dsp.KindF32Mono
	}
	if f.Channels == 2 {
		k++
	}
	return k
}

// frame is one stereo frame of the mix bus (dsp.Frame), under a short
// name for the package's many buses.
type frame = dsp.Frame

// voice is one playing sound. Its converter (kind) and resampler step are
// set when the pool is built; Play fills in the clip and settings. A voice
// belongs to the mixer (the audio goroutine, or a StopAll holding the
// barrier); nothing else reads it.
type voice struct {
	// The steady path's fields first (steady.go, steadylist.go): a voice
	// is 256 bytes, and the mixer's voices start on a 64-byte line (the
	// allocator's size classes are multiples of 64), so a steady block
	// reads one line of a device-rate voice and two of a rate bus's
	// member, where it read three and four (docs/mixer.md, "Tails and
	// lines").
	kern    *dsp.Kernels // the inner loops: vector where the CPU has them
	bus     *rateBus     // the source rate's shared resampler, or nil: the voice mixes into the device bus
	data    []byte       // the caller's PCM, set by Play: valid until the voice ends
	end     int          // frame where the voice loops or stops
	pos     uint64       // 32.32 fixed point, in source frames; with sinc, only the whole frame
	kind    dsp.Kind
	ended   bool
	loop    bool
	fading  bool
	mono    bool
	pitched bool // played with a pitch: resampled alone, step moving from step to stepTo

	gainL, gainR float32 // gains applied at the end of the last block

	// Fixed at construction.
	pool   *formatPool
	step   uint64         // source frames per device frame, 32.32 fixed point (linear)
	sinc   *dsp.SincTable // the band-limited resampler's filter, or nil: unity rate or linear
	planes *dsp.Planes    // the mixer's scratch for the sinc kernels' converted source
	fade   int            // a fade's length in the frames the voice mixes at
	ps     *pitchState    // the pitched voices' filters and scratch (pitch.go)

	// Set by Play.
	gen        uint32
	clip       *clipState
	loopStart  int
	seq        uint32 // with sinc, the place in the table's cycle of phases: the position's fraction
	wraps      int    // loop seams crossed, up to one loop past the filter's length (see sincFrame)
	volume     float32
	panL, panR float32 // panGains(pan, mono), kept so a block computes no trig
	priority   int16
	protected  bool
	order      uint64 // start order, for "steal the oldest"
	counted    bool   // counted against the caps (false once stolen)
	joining    bool   // on a bus, not yet summed: it joins at the next block
	startOff   int    // on a bus, joining: its start's device frame inside the block
	stepTo     uint64 // pitched: the step this block ramps to
	swapOut    bool   // a virtual voice's swap out: its gains ramp to silence this block (virtual.go)

	fadeLeft int // frames until a fading voice's gain reaches zero

	// att3d is the 3D distance × cone gain set each block before mixing;
	// 1 without a position (spatial.go).
	att3d float32

	_ [28]byte // to 256 bytes, four whole lines: TestVoiceLayout
}

// ramp is a voice's gain across one block: before each frame, l and r
// step by dl and dr.
type ramp struct{ l, r, dl, dr float32 }

// render adds this voice's next len(mix) device frames into mix,
// converting and resampling (linear, or the sinc where v.sinc is set)
// straight from the caller's PCM. The position is carried across calls, so block edges are
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
// steady gains of BenchmarkMix32, a little faster. It reports whether
// the block took the steady path (renderSteady), as the steady list
// records.
func (v *voice) render(mix, scratch []frame, tl, tr float32) (steady bool) {
	if v.renderSteady(mix, tl, tr) {
		return true
	}
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
			mix[i][0] += float32(f[0] * g.l)
			mix[i][1] += float32(f[1] * g.r)
		}
	}
	if !v.loop && !v.pitched && int(v.pos>>32) >= v.stop() {
		v.ended = true
	}
	return false
}

// renderFrames mixes len(mix) frames at gains (gl, gr). It splits them
// into runs whose source frames lie wholly inside the clip, each mixed by
// one specialised loop (dsp.Kernels), and the rare frame that interpolates
// across the loop seam or past the end, which goes through decode. A
// voice with the sinc goes to renderSinc instead.
func (v *voice) renderFrames(mix []frame, gl, gr float32) {
	if v.pitched {
		v.renderPitched(mix, gl, gr)
		return
	}
	if v.sinc != nil {
		v.renderSinc(mix, gl, gr)
		return
	}
	unity := v.step == dsp.FracOne // the position then never has a fraction
	lim := v.end - 1               // the last frame a resampled run may start at
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
	t := dsp.Frac(v.pos)
	out[0] += float32((s[0] + float32((s[2]-s[0])*t)) * gl)
	out[1] += float32((s[1] + float32((s[3]-s[1])*t)) * gr)
}

// mixRun dispatches a run starting at source frame k, whose every source
// frame (and, resampling, the next one) lies inside the clip, to the
// inner loop for the voice's encoding, channels and rate.
func (v *voice) mixRun(mix []frame, k int, gl, gr float32) {
	fb := v.kind.FrameBytes()
	src := v.data[k*fb : v.end*fb]
	if v.step == dsp.FracOne {
		v.kern.Mix(v.kind, mix, src, gl, gr)
		return
	}
	v.kern.Linear(v.kind, mix, src, v.pos&(dsp.FracOne-1), v.step, gl, gr)
}

// renderSinc is renderFrames for the band-limited resampler. The filter
// reads t.Taps() source frames around each position: from t.Half() frames
// before it to taps-half-1 after. Runs whose every window lies inside
// the clip (after a loop seam, inside the loop region) go to the kernels;
// frames whose window crosses the clip's start, its end or a loop seam go
// through sincEdges, which reads the stream as it plays: silence before
// the start and past the end of a one-shot clip, the loop's start after
// its end, and the loop's end before its start once it has wrapped. So a
// loop seam is filtered as the continuous signal it is.
func (v *voice) renderSinc(mix []frame, gl, gr float32) {
	t := v.sinc
	for i := 0; i < len(mix); {
		k := int(v.pos >> 32)
		if k >= v.end {
			if !v.loop {
				if k < v.stop() {
					i += v.sincEdges(mix[i:], k, gl, gr) // the filter's tail
					continue
				}
				v.ended = true
				return
			}
			v.pos -= uint64(v.end-v.loopStart) << 32
			if v.wraps*(v.end-v.loopStart) < t.Taps() {
				v.wraps++
			}
			continue
		}
		if !v.sincFits(k) {
			i += v.sincEdges(mix[i:], k, gl, gr)
			continue
		}
		// The run ends before the first position whose window would read
		// past the clip's last frame: end-1-(taps-half-1) is the last
		// frame a position may lie in.
		c := min(len(mix)-i, t.OutputsUpTo(k, v.seq, v.end-t.Taps()+t.Half()))
		fb := v.kind.FrameBytes()
		v.kern.Sinc(v.kind, mix[i:i+c], v.data[(k-t.Half())*fb:v.end*fb], t, v.seq, gl, gr, v.planes)
		k, v.seq = t.Advance(k, v.seq, c)
		v.pos = uint64(k) << 32
		i += c
	}
}

// stop returns the frame at which the position ends a one-shot voice:
// the clip's end, or with the sinc half a window later, when the last
// frame has left the filter, so that its response (the band-limited end
// of the clip) plays out instead of being cut.
func (v *voice) stop() int {
	if v.sinc != nil {
		return v.end + v.sinc.Half()
	}
	return v.end
}

// sincFits reports whether the window of a position in frame k lies where
// the kernels may read it: inside the clip, and after a loop seam inside
// the loop region.
func (v *voice) sincFits(k int) bool {
	first := 0
	if v.wraps > 0 {
		first = v.loopStart
	}
	return k-v.sinc.Half() >= first && k+v.sinc.Taps()-v.sinc.Half()-1 < v.end
}

// sincEdgeSlack is how many source frames past one window sincEdges
// decodes at once, so that it decodes each frame about once rather than
// once per output that reads it. A window and the slack fit a plane.
const sincEdgeSlack = 64

// sincEdges mixes the frames from mix[0] on, starting at frame k, whose
// windows reach outside what the kernels may read, and returns how many
// it mixed (at least one). It decodes the stream around them through
// sincFrame into the planes of the mixer's scratch (the source's own
// scale: 16-bit samples scaled, float ones sanitized), then filters them
// with the kernel set's filter, the frames up to the first whose window
// fits the kernels, leaves the decoded span, or reaches the end or the
// loop seam.
func (v *voice) sincEdges(mix []frame, k int, gl, gr float32) int {
	t := v.sinc
	span := t.Taps() + sincEdgeSlack
	l, r := v.planes.Window(span)
	base := k - t.Half()
	var f [2]float32
	for j := range span {
		v.sincFrame(f[:], base+j)
		l[j], r[j] = f[0], f[1]
	}
	stop := v.end
	if !v.loop {
		stop = v.stop()
	}
	n, seq := 0, v.seq
	for n < len(mix) && k < stop && (n == 0 || !v.sincFits(k)) {
		if k-t.Half()-base+t.Taps() > span {
			break
		}
		k, seq = t.Step1(k, seq)
		n++
	}
	v.kern.Filter(!v.mono, mix[:n], l, r, t, v.seq, gl, gr)
	v.seq = seq
	v.pos = uint64(k) << 32
	return n
}

// sincFrame decodes the frame the stream plays at clip frame j, where j
// may lie before the clip or past its end: with the loop wrapped w times,
// frame j is frame j + w × the loop's length of the stream. Counting at
// most one wrap past the filter's length is enough: beyond it no window
// reaches back to the clip's intro.
func (v *voice) sincFrame(dst []float32, j int) {
	s := j + v.wraps*(v.end-v.loopStart)
	if s >= v.end && v.loop {
		s = v.loopStart + (s-v.end)%(v.end-v.loopStart)
	}
	if s < 0 || s >= v.end {
		dst[0], dst[1] = 0, 0
		return
	}
	v.decode(dst, s, 1)
}

// panGains returns the left and right gains for pan in [-1, 1]. On a
// stereo device, mono sources pan at constant power (a centred mono voice
// is -3 dB per side) and stereo ones by balance (centre leaves both
// channels at unity). A mono device plays the mean of the two, so there a
// mono source pans by balance too, 1-pan and 1+pan, whose mean is unity at
// any pan: panning a mono voice on a mono device changes nothing, as it
// should.
func panGains(pan float32, mono, monoOut bool) (float32, float32) {
	if mono && !monoOut {
		a := (float64(pan) + 1) * math.Pi / 4
		return float32(math.Cos(a)), float32(math.Sin(a))
	}
	if mono {
		return 1 - pan, 1 + pan
	}
	l, r := float32(1), float32(1)
	if pan > 0 {
		l = 1 - pan
	} else {
		r = 1 + pan
	}
	return l, r
}
