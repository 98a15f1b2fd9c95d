package voices

import (
	"testing"
	"time"
)

// BenchmarkBaseline_Play is today's BenchmarkPlay/impl=ours on the engine
// of 9b6fe4b (where it was BenchmarkPlay/ours-enqueue): Play of one clip
// into a stalled offline device, every 512th followed, off the clock, by
// a StopAll that frees the voices.
func BenchmarkBaseline_Play(b *testing.B) {
	e, _ := offlineEngine(b, EngineDesc{QueueSize: 1 << 16, MaxVoices: 1024})
	_, c := clipOf(b, e, "t", mono44, tone(mono44, 441, 440, 0.5), ClipDesc{})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := e.Play(c, PlayDesc{}); err != nil {
			b.Fatal(err)
		}
		if i%512 == 511 {
			b.StopTimer()
			if err := e.StopAll(time.Millisecond); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	}
}

// BenchmarkBaseline_Mix32 is today's BenchmarkMix32 on the mixer of
// 9b6fe4b: 32 looping voices of the 12 formats at 22050, 44100 and
// 48000 Hz (then every format the engine had; today's benchFormats picks
// the same 12), rendered in 1024-frame blocks. That mixer resampled
// linearly with scalar code only.
func BenchmarkBaseline_Mix32(b *testing.B) {
	e, _ := benchEngine(b, 32)
	buf := make([]byte, 1024*8)
	b.ReportAllocs()
	cpu0 := cpuTime()
	n := 0
	for b.Loop() {
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
}
