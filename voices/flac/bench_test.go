package flac

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"

	mflac "github.com/mewkiz/flac"
)

// BenchmarkDecode decodes the 0.1 s 16-bit stereo tone: Decode against
// what a user would otherwise write, ParseNext in a loop appending each
// sample, with no sizing, checks or limit.
func BenchmarkDecode(b *testing.B) {
	in := readFile(b, "tone-s16-stereo-22050.flac")
	b.Run("impl=ours", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := Decode(bytes.NewReader(in)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=mewkiz-ParseNext", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s, err := mflac.New(bytes.NewReader(in))
			if err != nil {
				b.Fatal(err)
			}
			var pcm []byte
			for {
				fr, err := s.ParseNext()
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				for i := range int(fr.BlockSize) {
					for _, sf := range fr.Subframes {
						pcm = binary.LittleEndian.AppendUint16(pcm, uint16(int16(sf.Samples[i])))
					}
				}
			}
		}
	})
}
