package voices

import "github.com/steadyframe/steadyframe/voices/internal/dsp"

// decode converts count source frames, starting at frame idx and
// following the loop (or reading silence past the end of a one-shot
// clip), into dst as stereo float32, through the reference converter
// (dsp.Decode). The mixer's inner loops compute the same samples without
// the intermediate buffer (see TestKernelsMatchReference), and the mixer
// uses decode itself only for the frame that interpolates across a loop
// seam or past the end.
func (v *voice) decode(dst []float32, idx, count int) {
	k := 0
	fb := v.kind.FrameBytes()
	for k < count {
		if idx >= v.end {
			if !v.loop {
				clear(dst[2*k : 2*count])
				return
			}
			idx = v.loopStart
		}
		run := min(count-k, v.end-idx)
		dsp.Decode(v.kind, dst[2*k:2*(k+run)], v.data[fb*idx:fb*(idx+run)])
		k += run
		idx += run
	}
}
