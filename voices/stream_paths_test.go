package voices

import (
	"testing"
	"time"
)

// TestStreamVoicePaths plays a stream and the same PCM as a whole clip
// through the same commands on twin engines: a pitch and its change, a
// bus with a fade and a pause, a voice fade, pan and a pause. A stream
// voice goes through the normal voice paths, so the two mixes must be
// the same bits.
func TestStreamVoicePaths(t *testing.T) {
	f := Format{Rate: 44100, Channels: 2, Encoding: EncodingInt16LE}
	g := &genPCM{f: f, frames: 60000}
	type step struct {
		block int
		do    func(e *Engine, h Handle, music Bus)
	}
	cases := []struct {
		name  string
		play  PlayDesc
		steps []step
	}{
		{"pitch", PlayDesc{Pitch: 1.5}, []step{{40, func(e *Engine, h Handle, _ Bus) { e.SetPitch(h, 0.7) }}}},
		{"bus", PlayDesc{}, []step{
			{20, func(e *Engine, _ Handle, b Bus) { e.FadeBus(b, 0.3, 50*time.Millisecond, AfterNone) }},
			{50, func(e *Engine, _ Handle, b Bus) { e.PauseBus(b) }},
			{70, func(e *Engine, _ Handle, b Bus) { e.ResumeBus(b) }},
		}},
		{"voice", PlayDesc{Pan: -0.4, FadeIn: 30 * time.Millisecond}, []step{
			{30, func(e *Engine, h Handle, _ Bus) { e.Pause(h) }},
			{45, func(e *Engine, h Handle, _ Bus) { e.Resume(h) }},
			{60, func(e *Engine, h Handle, _ Bus) { e.Fade(h, 0.2, 100*time.Millisecond, AfterStop) }},
		}},
	}
	const blocks = 260
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := func(streamed bool) (l, r []float32) {
				e, dev := offlineEngine(t, EngineDesc{Buses: []BusDesc{{Name: "music"}}})
				music, _ := e.Bus("music")
				d := c.play
				d.Bus = music
				var s *Stream
				var clip Clip
				if streamed {
					s = newTestStream(t, e, g, f, g.frames, StreamDesc{Buffer: 50 * time.Millisecond})
					clip = s.Clip()
				} else {
					_, clip = clipOf(t, e, "whole", f, g.all(), ClipDesc{})
				}
				h, err := e.Play(clip, d)
				if err != nil {
					t.Fatal(err)
				}
				for b := range blocks {
					for _, st := range c.steps {
						if st.block == b {
							st.do(e, h, music)
						}
					}
					if s != nil {
						waitFull(t, s, nil)
					}
					bl, br := renderMix(t, e, dev, DefaultBlockFrames)
					l, r = append(l, bl...), append(r, br...)
				}
				if s != nil {
					if st := e.Stats(); st.StreamUnderruns != 0 {
						t.Errorf("%d underruns", st.StreamUnderruns)
					}
				}
				return l, r
			}
			sl, sr := run(true)
			cl, cr := run(false)
			heard := false
			for i := range sl {
				if sl[i] != cl[i] || sr[i] != cr[i] {
					t.Fatalf("frame %d: stream (%v, %v), whole clip (%v, %v)", i, sl[i], sr[i], cl[i], cr[i])
				}
				heard = heard || sl[i] != 0
			}
			if !heard {
				t.Fatal("both mixes are silent")
			}
		})
	}
}
