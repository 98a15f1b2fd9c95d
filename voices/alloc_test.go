package voices

import (
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

// wantNoAllocs is testenv.NoAllocs with this package's run count, except
// that under the race detector it runs f a few times for the detector's
// checks instead of skipping the rest of the test.
func wantNoAllocs(t *testing.T, what string, f func()) {
	t.Helper()
	if testenv.Race {
		for range 10 {
			f()
		}
		return
	}
	testenv.NoAllocs(t, what, 200, f)
}

// TestPlayAllocs proves the game side allocates nothing once warm: Play,
// SetVolume, SetPan, Stop and Stats.
func TestPlayAllocs(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{QueueSize: 4096})
	_, c := clipOf(t, e, "tone", mono44, tone(mono44, 441, 440, 0.5), ClipDesc{})
	buf := make([]byte, 1024*8)
	wantNoAllocs(t, "Play+SetVolume+SetPan+Stop+Stats+Err", func() {
		h, err := e.Play(c, PlayDesc{Volume: 0.5, Pan: 0.2, Priority: 3})
		if err != nil {
			t.Fatal(err)
		}
		_ = e.SetVolume(h, 0.7)
		_ = e.SetPan(h, -0.2)
		_ = e.Stop(h)
		_ = e.Stats()
		_ = e.Err()
		_, _ = dev.Render(buf) // keep voices from piling up past the cap
	})
}

// TestMixerAllocs proves the mixer's Read allocates nothing, with 32
// voices of mixed formats, resampling (both resamplers, scalar and vector
// kernels), stealing and stopping in play.
func TestMixerAllocs(t *testing.T) {
	for _, rs := range []Resampler{ResamplerSinc, ResamplerLinear} {
		for _, ks := range []*dsp.Kernels{dsp.ScalarKernels(), dsp.BestKernels()} {
			e, _ := offlineEngine(t, EngineDesc{Policy: PolicySteal, Resampler: rs})
			e.mix.setKernels(ks)
			var clips []Clip
			for _, f := range allFormats() {
				_, c := clipOf(t, e, f.String(), f, tone(f, f.Rate/10, 330, 0.2), ClipDesc{})
				clips = append(clips, c)
			}
			for i := 0; i < 40; i++ {
				_, _ = e.Play(clips[i%len(clips)], PlayDesc{Loop: true, Priority: int16(i % 3)})
			}
			buf := make([]byte, 1024*8)
			i := 0
			wantNoAllocs(t, "mixer Read with 32 voices, "+rs.String()+", "+ks.Name(), func() {
				_, _ = e.Play(clips[i%len(clips)], PlayDesc{Loop: true, Priority: 2})
				i++
				_, _ = e.mix.Read(buf)
			})
			if s := e.Stats(); s.Active < 32 {
				t.Fatalf("only %d voices active", s.Active)
			}
		}
	}
}
