package voices

import "testing"

// TestSteadyVoiceEndsOnItsLastBlock plays one-shot clips whose length
// is a whole number of 64-frame blocks, so their last block takes
// render's fast path (renderSteady): each must end in the block that
// plays its last frame, as the general path ends it, and its frames must
// reach the device in full.
func TestSteadyVoiceEndsOnItsLastBlock(t *testing.T) {
	for _, f := range []Format{st48f, mono48f} {
		t.Run(f.String(), func(t *testing.T) {
			e, dev := offlineEngine(t, EngineDesc{BlockFrames: 64})
			pcm := make([]byte, 128*f.FrameBytes())
			fill(f, pcm, 0.25)
			_, c := clipOf(t, e, "c", f, pcm, ClipDesc{})
			if _, err := e.Play(c, PlayDesc{}); err != nil {
				t.Fatal(err)
			}
			delay := e.mix.limDelay
			l, _ := render(t, dev, 64)
			if a := e.Stats().Active; a != 1 {
				t.Fatalf("after the first block: %d voices active, want 1", a)
			}
			l2, _ := render(t, dev, 64)
			if a := e.Stats().Active; a != 0 {
				t.Fatalf("after the block with the clip's last frame: %d voices active, want 0", a)
			}
			l3, _ := render(t, dev, delay)
			l = append(append(l, l2...), l3...)
			gl, _ := panGains(0, f.Channels == 1, false)
			want := float32(0.25 * gl)
			for i := delay; i < delay+128; i++ {
				if l[i] != want {
					t.Fatalf("frame %d of the clip: %v, want %v", i-delay, l[i], want)
				}
			}
		})
	}
}
