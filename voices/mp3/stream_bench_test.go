package mp3

import (
	"bytes"
	"io"
	"testing"
)

// BenchmarkSource decodes one second of audio per op through a Source,
// looping the 0.25 s tone as a looping stream does: allocs/op and B/op
// are go-mp3's allocations per second of 44.1 kHz audio, and %core the
// share of one core decoding in real time takes.
func BenchmarkSource(b *testing.B) {
	s, err := NewSource(bytes.NewReader(readTone(b)))
	if err != nil {
		b.Fatal(err)
	}
	second := s.Format().Rate * s.Format().FrameBytes()
	buf := make([]byte, 4096)
	b.ReportAllocs()
	for b.Loop() {
		for left := second; left > 0; {
			n, err := s.Read(buf[:min(len(buf), left)])
			left -= n
			if err == io.EOF {
				if err := s.SeekFrame(0); err != nil {
					b.Fatal(err)
				}
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e7, "%core")
}
