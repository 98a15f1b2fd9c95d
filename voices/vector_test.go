package voices

import (
	"math/rand/v2"
	"testing"

	"github.com/steadyframe/steadyframe/voices/internal/dsp"
	"github.com/steadyframe/steadyframe/voices/internal/dsp/dsptest"
)

// TestVectorRenderMatchesScalar renders looping and one-shot voices of
// every source format, with both resamplers, through voice.render with
// each kernel set, in blocks of random sizes with gain ramps: the
// dispatch, the runs' tails, the seams and ends must come out the same.
func TestVectorRenderMatchesScalar(t *testing.T) {
	dsptest.VectorLevels(t, vectorRenderMatchesScalar)
}

func vectorRenderMatchesScalar(t *testing.T, vec *dsp.Kernels) {
	vec = dsptest.VectorOrSkip(t, vec)
	r := rand.New(rand.NewPCG(13, 14))
	for _, rs := range []Resampler{ResamplerLinear, ResamplerSinc} {
		for _, f := range allFormats() {
			for _, loop := range []bool{false, true} {
				k := kindOf(f)
				pcm := dsptest.Input(r, k, 3000)
				mk := func(ks *dsp.Kernels) *voice {
					v := testVoice(f, pcm, loop)
					if rs == ResamplerSinc {
						v = testSincVoice(f, pcm, loop, 48000)
					}
					v.kern = ks
					v.loopStart = 700
					return v
				}
				a, b := mk(dsp.ScalarKernels()), mk(vec)
				scratch := make([]frame, 1024)
				for blk := 0; blk < 20; blk++ {
					n := 1 + r.IntN(1024)
					tl, tr := float32(r.Float64()), float32(r.Float64())
					if blk%3 == 0 {
						tl, tr = a.gainL, a.gainR // steady: straight into the kernels
					}
					want, got := make([]frame, n), make([]frame, n)
					a.render(want, scratch, tl, tr)
					b.render(got, scratch, tl, tr)
					dsptest.Same(t, rs.String()+" "+f.String(), got, want, 0)
					if a.ended != b.ended || a.pos != b.pos || a.seq != b.seq {
						t.Fatalf("%v %v: state differs after block %d", rs, f, blk)
					}
				}
			}
		}
	}
}
