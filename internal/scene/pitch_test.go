package scene

import (
	"io"
	"math"
	"testing"

	"github.com/steadyframe/steadyframe/voices"
)

// TestPitcherSpread checks the random pitches: one play in four, within
// an octave either way and centred on the recorded pitch, half of them
// gliding.
func TestPitcherSpread(t *testing.T) {
	var p pitcher
	const n = 200000
	var pitched, glides int
	var sumLog float64
	for range n {
		pitch, glide := p.next()
		if pitch == 0 {
			if glide != 0 {
				t.Fatalf("glide %v on an unpitched play", glide)
			}
			continue
		}
		pitched++
		for _, q := range []float32{pitch, glide} {
			if q != 0 && !(q >= 0.5 && q <= 2) {
				t.Fatalf("pitch %v outside 0.5..2", q)
			}
		}
		if glide != 0 {
			glides++
		}
		sumLog += math.Log2(float64(pitch))
	}
	if f := float64(pitched) / n; math.Abs(f-1.0/pitchEvery) > 0.01 {
		t.Errorf("%.3f of the plays pitched, want %.3f", f, 1.0/pitchEvery)
	}
	if f := float64(glides) / float64(pitched); math.Abs(f-0.5) > 0.02 {
		t.Errorf("%.3f of the pitched plays glide, want 0.5", f)
	}
	if m := sumLog / float64(pitched); math.Abs(m) > 0.02 {
		t.Errorf("mean pitch 2^%.3f, want 2^0", m)
	}
}

// TestAudioPlaysSfxPitched plays every effect through Audio.Play's
// paths on the offline engine: the sfx effects' pitched voices take
// SetPitch, their unpitched ones refuse it (voices.ErrNotPitched), and
// the effects of the other buses are never pitched.
func TestAudioPlaysSfxPitched(t *testing.T) {
	a, err := OpenAudio("offline", NewLogger("text", io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := a.StopAll(); err != nil {
			t.Error(err)
		}
		if err := a.ReleaseBanks(); err != nil {
			t.Error(err)
		}
		if err := a.Close(); err != nil {
			t.Error(err)
		}
	}()
	var sfx, pitched int
	for i := range 400 {
		sound := i % Effects
		if a.buses[sound] != a.sfx {
			if err := a.Play(sound, 0.1, 0); err != nil && err != voices.ErrNoVoice && err != voices.ErrCooldown {
				t.Fatal(err)
			}
			continue
		}
		sfx++
		h, pitch, err := a.playPitched(a.clips[sound], voices.PlayDesc{Volume: 0.1, Bus: a.sfx})
		if err == voices.ErrNoVoice || err == voices.ErrCooldown {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		switch err := a.Engine.SetPitch(h, 1); {
		case err == voices.ErrStaleHandle:
		case pitch != 0 && err != nil:
			t.Fatalf("SetPitch of a voice played at pitch %v: %v", pitch, err)
		case pitch == 0 && err != voices.ErrNotPitched:
			t.Fatalf("SetPitch of an unpitched voice: %v, want ErrNotPitched", err)
		}
		if pitch != 0 {
			pitched++
		}
	}
	if sfx == 0 || pitched == 0 || pitched == sfx {
		t.Errorf("%d of %d sfx plays pitched", pitched, sfx)
	}
}
