package voices

import (
	"math"
	"testing"
)

// busScene plays the same voices on an engine with rate buses and on one
// that resamples each voice alone, all starting in the first block, and
// returns both renders: looping and one-shot voices of 22050 and 44100
// Hz, every encoding and channel count, at several pans and volumes.
func busScene(t *testing.T, frames int) (shared, alone []float32) {
	t.Helper()
	run := func(perVoice bool) []float32 {
		e, dev := offlineEngine(t, EngineDesc{BlockFrames: 128})
		if perVoice {
			e.mix.perVoice()
		}
		i := 0
		for _, rate := range []int{22050, 44100} {
			for _, ch := range []int{1, 2} {
				for _, enc := range []Encoding{EncodingInt16LE, EncodingFloat32LE} {
					f := Format{Rate: rate, Channels: ch, Encoding: enc}
					// One-shots shorter than the render end inside it.
					_, c := clipOf(t, e, f.String(), f, tone(f, rate/8+i*37, 300+float64(i)*410, 0.2), ClipDesc{})
					d := PlayDesc{Loop: i%2 == 0, Pan: float32(i%5)/2 - 1, Volume: 0.5 + float32(i)/8}
					if _, err := e.Play(c, d); err != nil {
						t.Fatal(err)
					}
					i++
				}
			}
		}
		l, r := render(t, dev, frames)
		out := make([]float32, 0, 2*frames)
		for j := range l {
			out = append(out, l[j], r[j])
		}
		return out
	}
	return run(false), run(true)
}

// TestRateBusMatchesPerVoice holds the shared resampling to the result of
// filtering each voice alone: the same filter at the same phases, so the
// two differ only by the order of float sums. One-shot voices end inside
// the render, so their filter tails are compared too.
func TestRateBusMatchesPerVoice(t *testing.T) {
	shared, alone := busScene(t, 9600)
	worst := 0.0
	for i := range shared {
		worst = math.Max(worst, math.Abs(float64(shared[i]-alone[i])))
	}
	if rms(alone) < 0.05 {
		t.Fatalf("the scene is nearly silent: rms %v", rms(alone))
	}
	t.Logf("largest difference %.3g (rms %.3f)", worst, rms(alone))
	if worst > 2e-6 {
		t.Fatalf("rate buses differ from per-voice resampling by up to %.3g, want <= 2e-6", worst)
	}
}

// TestRateBusJoinQuantised plays an impulse, 10 source frames into its
// clip, into a 22050 Hz bus that is already playing and finds where its
// peak lands: within half a source frame (1.09 device frames) of where a
// voice resampled alone puts it, 10×48000/22050 device frames after the
// start of the block it was played in.
func TestRateBusJoinQuantised(t *testing.T) {
	f := Format{Rate: 22050, Channels: 1, Encoding: EncodingFloat32LE}
	imp := make([]byte, 4*200)
	fill(f, imp[40:44], 0.5)
	// Several block starts, so that the bus's phase differs each time.
	for _, lead := range []int{256, 512 + 256, 3*256 + 256} {
		e, dev := offlineEngine(t, EngineDesc{})
		_, bed := clipOf(t, e, "bed", f, make([]byte, 4*1000), ClipDesc{}) // silent, keeps the bus live
		_, click := clipOf(t, e, "click", f, imp, ClipDesc{})
		if _, err := e.Play(bed, PlayDesc{Loop: true}); err != nil {
			t.Fatal(err)
		}
		render(t, dev, lead)
		if b := e.mix.voices[e.slots.pools[f.index()].base].bus; b == nil || !b.live {
			t.Fatal("the bed did not make the bus live")
		}
		if _, err := e.Play(click, PlayDesc{}); err != nil {
			t.Fatal(err)
		}
		l, _ := render(t, dev, 256)
		k := 0
		for i := range l {
			if math.Abs(float64(l[i])) > math.Abs(float64(l[k])) {
				k = i
			}
		}
		if k == 0 || k == len(l)-1 {
			t.Fatalf("lead %d: peak at the edge, frame %d", lead, k)
		}
		// The peak between frames, from the parabola through three.
		a, b, c := float64(l[k-1]), float64(l[k]), float64(l[k+1])
		at := float64(k) + 0.5*(a-c)/(a-2*b+c)
		want := 10*48000/22050.0 + float64(e.limDelay())
		if limit := 0.5 * 48000 / 22050.0; math.Abs(at-want) > limit+0.05 {
			t.Errorf("lead %d: the click peaks %.3f device frames into its block, want %.3f within %.2f", lead, at, want, limit)
		}
		t.Logf("lead %d: peak at %.3f, want %.3f", lead, at, want)
	}
}
