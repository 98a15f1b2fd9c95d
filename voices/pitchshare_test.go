package voices

import (
	"math"
	"testing"
)

// shareScene plays a scene of pitched voices, many of them in step: five
// at pitch 1.25 from 44.1 kHz (every encoding, loops and one-shots that
// end inside the render, each its own pan and volume), one from 22.05
// kHz at pitch 2.5 (the same step), and two of their own. Mid-render it
// moves one member's pitch, another's volume, and stops a third. It
// returns the mix (before the limiter) and the filters the shared groups
// ran. With off, every voice renders alone.
func shareScene(t *testing.T, off bool) (l, r []float32, filters int) {
	t.Helper()
	const block = 256
	e, dev := offlineEngine(t, EngineDesc{QueueSize: 4096, BlockFrames: block})
	e.mix.ps.share.off = off
	var hs []Handle
	play := func(f Format, frames int, freq float64, d PlayDesc) {
		_, c := clipOf(t, e, f.String(), f, tone(f, frames, freq, 0.1), ClipDesc{LoopStart: frames / 4})
		h, err := e.Play(c, d)
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, h)
	}
	for i, f := range allFormats() {
		if f.Rate != 44100 {
			continue
		}
		play(f, 3000+700*i, 300+float64(100*i), PlayDesc{Pitch: 1.25, Loop: i%2 == 0, Pan: float32(i%3-1) / 2, Volume: 0.2 + float32(i)/20})
	}
	play(Format{44100, 2, EncodingFloat32LE}, 2500, 990, PlayDesc{Pitch: 1.25, Pan: 0.3, Volume: 0.3})  // a fifth, one-shot
	play(Format{22050, 1, EncodingInt16LE}, 2000, 700, PlayDesc{Pitch: 2.5, Loop: true, Volume: 0.3})   // the same step
	play(Format{48000, 1, EncodingFloat32LE}, 4000, 500, PlayDesc{Pitch: 1.1, Loop: true, Volume: 0.3}) // alone
	play(Format{44100, 1, EncodingInt16LE}, 4000, 800, PlayDesc{Pitch: 0.8, Loop: true, Volume: 0.3})   // alone
	for b := range 40 {
		switch b {
		case 10:
			_ = e.SetPitch(hs[1], 1.5) // leaves its group
		case 14:
			_ = e.SetVolume(hs[2], 0.1) // alone while its gain ramps, then back
		case 20:
			_ = e.Stop(hs[0]) // fades alone
		case 25:
			_ = e.SetPitch(hs[1], 1.25) // back in step? only if its fraction is
		}
		bl, br := renderMix(t, e, dev, block)
		l, r = append(l, bl...), append(r, br...)
	}
	return l, r, e.mix.ps.share.filters
}

// TestPitchShareMatchesAlone holds the shared filter to the voices
// filtered alone: the filter is linear, so only the order of the sums
// differs.
func TestPitchShareMatchesAlone(t *testing.T) {
	l, r, shared := shareScene(t, false)
	la, ra, alone := shareScene(t, true)
	if alone != 0 {
		t.Fatalf("with sharing off, %d shared filters ran", alone)
	}
	// 40 blocks of one group of at least two; more while the members
	// that left render alone.
	if shared < 40 {
		t.Fatalf("%d shared filters in 40 blocks, want at least 40", shared)
	}
	var worst, peak float64
	for i := range l {
		worst = max(worst, math.Abs(float64(l[i]-la[i])), math.Abs(float64(r[i]-ra[i])))
		peak = max(peak, math.Abs(float64(la[i])), math.Abs(float64(ra[i])))
	}
	if peak < 0.05 {
		t.Fatalf("the scene peaks at %g: too quiet to compare", peak)
	}
	if worst > 1e-6 {
		t.Errorf("shared and alone differ by up to %g (peak %g), want <= 1e-6", worst, peak)
	}
	t.Logf("%d shared filters; largest difference %.2g of a peak of %.3f", shared, worst, peak)
}

// TestPitchShareAllocs: sorting voices into groups and rendering them
// allocates nothing.
func TestPitchShareAllocs(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{QueueSize: 4096})
	_, c := clipOf(t, e, "loop", mono44, tone(mono44, 4410, 440, 0.1), ClipDesc{})
	for i := range 12 {
		if _, err := e.Play(c, PlayDesc{Loop: true, Pitch: 1 + float32(i%3)/4, Pan: float32(i%5)/2 - 1}); err != nil {
			t.Fatal(err)
		}
	}
	buf := make([]byte, 1024*8)
	_, _ = dev.Render(buf) // the first block ramps every gain in: alone
	before := e.mix.ps.share.filters
	wantNoAllocs(t, "mix of 12 pitched voices in 3 groups", func() { _, _ = dev.Render(buf) })
	if e.mix.ps.share.filters == before {
		t.Error("no group shared a filter")
	}
}
