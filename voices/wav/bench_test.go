package wav

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"
)

// canonicalHeader is the 44-byte header a hand-written loader reads with
// encoding/binary, trusting that fmt comes first and data right after.
type canonicalHeader struct {
	RIFF     [4]byte
	Size     uint32
	WAVE     [4]byte
	Fmt      [4]byte
	FmtSize  uint32
	Tag      uint16
	Channels uint16
	Rate     uint32
	ByteRate uint32
	Align    uint16
	Bits     uint16
	Data     [4]byte
	DataSize uint32
}

// BenchmarkParse loads one second of 44.1 kHz stereo s16: view is Parse;
// read-copy is what a user would otherwise write, binary.Read of the
// canonical header and a copy of the samples into a new buffer.
func BenchmarkParse(b *testing.B) {
	file := riff(fmtChunk(pcm16(2, 44100)), chunk{"data", ramp(44100 * 4)})
	b.Run("impl=ours", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(file)))
		for b.Loop() {
			if _, _, err := Parse(file); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=binary.Read-copy", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(file)))
		for b.Loop() {
			r := bytes.NewReader(file)
			var h canonicalHeader
			if err := binary.Read(r, binary.LittleEndian, &h); err != nil {
				b.Fatal(err)
			}
			pcm := make([]byte, h.DataSize)
			if _, err := io.ReadFull(r, pcm); err != nil {
				b.Fatal(err)
			}
		}
	})
}
