package voices

import (
	"fmt"
	"testing"
)

// TestVirtualAllocs proves that with virtual voices on, Play past the
// real voices, the ranking, the swaps and the virtual sounds' advance
// allocate nothing once warm: 300 sounds on 8 real voices, over unity,
// rate bus and pitched voices, with volumes moving so that sounds swap
// every block.
func TestVirtualAllocs(t *testing.T) {
	e, _ := offlineEngine(t, EngineDesc{MaxVoices: 8, Virtual: 512, QueueSize: 1 << 14})
	var clips []Clip
	for _, f := range []Format{st48f, mono44, {Rate: 22050, Channels: 1, Encoding: EncodingInt16LE}} {
		_, c := clipOf(t, e, f.String(), f, tone(f, f.Rate/10, 330, 0.1), ClipDesc{})
		clips = append(clips, c)
	}
	var hs []Handle
	for i := range 300 {
		d := PlayDesc{Loop: true, Volume: float32(1+i%17) / 8}
		if i%5 == 0 {
			d.Pitch = 1 + float32(i%3)/4
		}
		h, err := e.Play(clips[i%len(clips)], d)
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, h)
	}
	buf := make([]byte, 1024*8)
	_, _ = e.mix.Read(buf)
	swaps0 := e.Stats().Swaps
	i := 0
	wantNoAllocs(t, "Play, SetVolume, the ranking and the swaps with 300 sounds on 8 voices", func() {
		h, err := e.Play(clips[i%len(clips)], PlayDesc{Volume: 3})
		if err != nil {
			t.Fatal(err)
		}
		_ = e.SetVolume(hs[(i*37)%len(hs)], float32(1+i%31)/8)
		_ = e.SetVolume(hs[(i*53)%len(hs)], 0.05)
		_, _ = e.mix.Read(buf)
		_ = e.Stop(h)
		_ = e.Stats()
		i++
	})
	st := e.Stats()
	if st.Swaps == swaps0 || st.Real != 8 || st.Virtual < 290 {
		t.Fatalf("Stats Swaps %d (from %d) Real %d Virtual %d: the swaps were not exercised", st.Swaps, swaps0, st.Real, st.Virtual)
	}
}

// BenchmarkVirtual measures the mixer with virtual voices: 32 real
// sounds, the load of BenchmarkMix32 (12 formats, two thirds resampled,
// the sinc), and N virtual ones, quieter, in 256-frame blocks, 1024
// frames an op. The ranking sorts every sound each block, so a virtual
// sound's cost is its share of the sort and its advance; real=0 is the
// empty mixer, so (real=32 - real=0)/32 is a real voice's cost.
// swapping=1 moves one sound's volume each op so that it swaps in and
// out: the cost of the swaps themselves.
func BenchmarkVirtual(b *testing.B) {
	for _, c := range []struct {
		real, virtual int
		swapping      bool
	}{
		{0, 0, false}, {32, 0, false}, {32, 128, false}, {32, 512, false}, {32, 1024, false}, {32, 1024, true},
	} {
		name := fmt.Sprintf("real=%d/virtual=%d", c.real, c.virtual)
		if c.swapping {
			name += "/swapping=1"
		}
		b.Run(name, func(b *testing.B) {
			e, _ := offlineEngine(b, EngineDesc{MaxVoices: 32, Virtual: 1100, Formats: benchFormats(), QueueSize: 1 << 16})
			var clips []Clip
			for _, f := range benchFormats() {
				_, c := clipOf(b, e, f.String(), f, tone(f, f.Rate/2, 220, 0.05), ClipDesc{})
				clips = append(clips, c)
			}
			var loud Handle
			for i := range c.real + c.virtual {
				d := PlayDesc{Loop: true, Pan: float32(i%5)/2 - 1, Volume: 1}
				if i >= c.real {
					d.Volume = 0.01 + float32(i%50)/1000 // quieter than every real one
				}
				h, err := e.Play(clips[i%len(clips)], d)
				if err != nil {
					b.Fatal(err)
				}
				if i == c.real {
					loud = h
				}
			}
			buf := make([]byte, 1024*8)
			_, _ = e.mix.Read(buf)
			b.ReportAllocs()
			cpu0 := cpuTime()
			n := 0
			for b.Loop() {
				if c.swapping {
					_ = e.SetVolume(loud, float32(n%2)*2+0.01) // loudest, then quietest: in, then out
				}
				_, _ = e.mix.Read(buf)
				n++
			}
			cpu := cpuTime() - cpu0
			if s := e.Stats(); s.Real != c.real || s.Virtual != c.virtual {
				b.Fatalf("Real %d Virtual %d, want %d %d", s.Real, s.Virtual, c.real, c.virtual)
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
		})
	}
}
