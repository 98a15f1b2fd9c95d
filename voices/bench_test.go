package voices

import (
	"testing"
	"time"
)

// benchEngine builds the shared benchmark load: an engine on a manual
// offline device with the given number of looping voices of mixed formats
// (two thirds resampled). otodev's benchmarks build the same load through
// the public API.
func benchEngine(b *testing.B, voices int) (*Engine, *Offline) {
	e, dev := offlineEngine(b, EngineDesc{QueueSize: 1 << 16})
	var clips []Clip
	for _, f := range allFormats() {
		_, c := clipOf(b, e, f.String(), f, tone(f, f.Rate/2, 220, 0.05), ClipDesc{})
		clips = append(clips, c)
	}
	for i := 0; i < voices; i++ {
		if _, err := e.Play(clips[i%len(clips)], PlayDesc{Loop: true, Pan: float32(i%5)/2 - 1}); err != nil {
			b.Fatal(err)
		}
	}
	return e, dev
}

// BenchmarkPlay measures the game side of Play: validation, reserving a
// voice and enqueueing the command. Every 512 plays, out of the timing,
// a StopAll clears the voices so the pool stays warm and never runs out.
func BenchmarkPlay(b *testing.B) {
	b.Run("ours-enqueue", func(b *testing.B) {
		e, _ := offlineEngine(b, EngineDesc{QueueSize: 1 << 16, MaxVoices: 1024})
		_, c := clipOf(b, e, "t", mono44, tone(mono44, 441, 440, 0.5), ClipDesc{})
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if _, err := e.Play(c, PlayDesc{}); err != nil {
				b.Fatal(err)
			}
			if i%512 == 511 {
				b.StopTimer()
				// The manual device is stalled: StopAll takes its fallback.
				if err := e.StopAll(time.Millisecond); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
		}
	})
}

// BenchmarkMix32 measures the mixer rendering 1024-frame blocks of 32
// voices, and reports the real-time factor (audio time rendered per unit
// of CPU time).
func BenchmarkMix32(b *testing.B) {
	b.Run("ours-mixer", func(b *testing.B) {
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
		// Measured on the process's CPU time, not the wall clock, so a
		// loaded machine does not make the mixer look slower than it is.
		audio := DefaultDeviceFormat.Duration(1024 * n)
		b.ReportMetric(audio.Seconds()/cpu.Seconds(), "x-realtime")
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
	})
}
