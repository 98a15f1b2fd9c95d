package voices

import "github.com/steadyframe/steadyframe/voices/internal/dsp"

// renderSteady is render's fast path, for the voice most blocks hold: at
// the source rate (a device-rate voice, or a member summed on its rate
// bus), neither fading nor pitched, at the gains of its last block, and
// with the whole block inside its clip or loop region. It mixes the block
// with one kernel call and reports true; otherwise it does nothing and
// reports false. It gives the bits render's general path gives.
//
// At 64-frame blocks the general path's setup (the ramp, the run split,
// the seam checks) costs more than the kernel call (docs/mixer.md,
// "Fewer steps a block").
func (v *voice) renderSteady(mix []frame, tl, tr float32) bool {
	if v.step != dsp.FracOne || v.fading || v.pitched || v.sinc != nil || tl != v.gainL || tr != v.gainR {
		return false
	}
	k := int(v.pos >> 32)
	end := k + len(mix)
	if end > v.end {
		return false
	}
	fb := v.kind.FrameBytes()
	v.kern.Mix(v.kind, mix, v.data[k*fb:v.end*fb], tl, tr)
	v.pos += uint64(len(mix)) << 32
	if !v.loop && end >= v.end {
		v.ended = true
	}
	return true
}
