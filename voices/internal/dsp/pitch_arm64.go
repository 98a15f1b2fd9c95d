//go:build !steadyframe_scalar

package dsp

// The pitched filter on NEON (pitch_arm64.s), one output at a time in
// pitchDot's order.

//go:noescape
func pitchMonoNEON(out *Frame, n int, l, r *float32, coef *float32, taps int, p uint64, steps *uint64, gl, gr float32, limit int) (next uint64, left int)

//go:noescape
func pitchStereoNEON(out *Frame, n int, l, r *float32, coef *float32, taps int, p uint64, steps *uint64, gl, gr float32, limit int) (next uint64, left int)

// filterStepsNEON is the NEON FilterSteps. As on amd64, the kernels stop
// at the first window past the planes, and that panics.
func filterStepsNEON(t *Interp, out []Frame, l, r []float32, mono bool, p uint64, steps []uint64, gl, gr float32) uint64 {
	n := len(out)
	if n == 0 {
		return p
	}
	steps = steps[:n]
	if mono {
		r = l
	}
	limit := min(len(l), len(r)) - t.taps
	var left int
	if mono {
		p, left = pitchMonoNEON(&out[0], n, &l[0], &r[0], &t.coef[0], t.taps, p, &steps[0], gl, gr, limit)
	} else {
		p, left = pitchStereoNEON(&out[0], n, &l[0], &r[0], &t.coef[0], t.taps, p, &steps[0], gl, gr, limit)
	}
	if left != 0 {
		pitchOverrun(t, l, r)
	}
	return p
}
