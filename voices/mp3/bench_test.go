package mp3

import (
	"bytes"
	"io"
	"testing"

	gomp3 "github.com/hajimehoshi/go-mp3"
)

// BenchmarkDecode decodes the 0.25 s MPEG-1 tone: Decode against what a
// user would otherwise write, io.ReadAll over a go-mp3 decoder, which
// regrows its buffer and has no limit.
func BenchmarkDecode(b *testing.B) {
	in := readTone(b)
	b.Run("impl=ours", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := Decode(bytes.NewReader(in)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=go-mp3-ReadAll", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d, err := gomp3.NewDecoder(bytes.NewReader(in))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.ReadAll(d); err != nil {
				b.Fatal(err)
			}
		}
	})
}
