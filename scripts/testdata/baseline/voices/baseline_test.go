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
