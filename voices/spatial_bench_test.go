package voices

import (
	"testing"

	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

// BenchmarkMixSpatial32 measures the mixer rendering 1024-frame blocks
// of BenchmarkMix32's load (32 looping voices of 12 formats, vector
// kernels, the sinc), each block after moving the listener and every
// voice. impl=unpositioned plays the voices without a Spatial and moves
// nothing: BenchmarkMix32's vector-sinc, side by side. impl=positioned
// adds the 3D gains, still on the shared rate buses, and
// impl=positioned-static the same without moving anything, so that no
// gain ramps; impl=doppler turns
// doppler on, which makes every voice pitched (each through its own
// filter), as in BenchmarkMix32's vector-sinc-pitched.
func BenchmarkMixSpatial32(b *testing.B) {
	for _, impl := range []string{"unpositioned", "positioned-static", "positioned", "doppler"} {
		b.Run("impl="+impl, func(b *testing.B) {
			d := EngineDesc{QueueSize: 1 << 16, BlockFrames: 1024}
			if impl == "doppler" {
				d.DopplerFactor = 1
			}
			e, _ := offlineEngine(b, d)
			var clips []Clip
			for _, f := range benchFormats() {
				_, c := clipOf(b, e, f.String(), f, tone(f, f.Rate/2, 220, 0.05), ClipDesc{})
				clips = append(clips, c)
			}
			hs := make([]Handle, 32)
			pos := func(i, n int) Vec3 {
				return Vec3{X: float32(i%8) - 4 + float32(n%100)/50, Y: 1, Z: -float32(i / 8)}
			}
			for i := range hs {
				pd := PlayDesc{Loop: true, Pan: float32(i%5)/2 - 1}
				if impl != "unpositioned" {
					pd.Spatial = &Spatial{Position: pos(i, 0), Velocity: Vec3{X: 2}}
				}
				h, err := e.Play(clips[i%len(clips)], pd)
				if err != nil {
					b.Fatal(err)
				}
				hs[i] = h
			}
			buf := make([]byte, 1024*8)
			_, _ = e.mix.Read(buf)
			e.mix.setKernels(dsp.BestKernels())
			b.ReportAllocs()
			cpu0 := cpuTime()
			n := 0
			for b.Loop() {
				if impl == "positioned" || impl == "doppler" {
					_ = e.SetListener(Listener{Position: Vec3{X: float32(n%10) / 10}, Velocity: Vec3{Z: -1}})
					for i, h := range hs {
						if err := e.SetPosition(h, pos(i, n), Vec3{X: 2}); err != nil {
							b.Fatal(err)
						}
					}
				}
				_, _ = e.mix.Read(buf)
				n++
			}
			cpu := cpuTime() - cpu0
			if s := e.Stats(); s.Active != 32 {
				b.Fatalf("%d voices active", s.Active)
			}
			audio := DefaultDeviceFormat.Duration(1024 * n)
			b.ReportMetric(audio.Seconds()/cpu.Seconds(), "x-realtime")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
		})
	}
}
