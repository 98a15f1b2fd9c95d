package wav_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/steadyframe/steadyframe/voices"
	"github.com/steadyframe/steadyframe/voices/wav"
)

// A game reads a WAV file into memory it owns (os.ReadFile, embed), parses
// it without copying, and gives the samples to a bank. The file here is
// built in memory so that the example stands alone.
func Example() {
	f := voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE}
	tone := make([]byte, 4410*2) // 100 ms of 440 Hz
	for i := range 4410 {
		s := 0.5 * math.Sin(2*math.Pi*440*float64(i)/44100)
		binary.LittleEndian.PutUint16(tone[2*i:], uint16(int16(s*32767)))
	}
	file, err := wav.Append(nil, f, tone)
	if err != nil {
		panic(err)
	}

	format, pcm, err := wav.Parse(file) // pcm is a view of file
	if err != nil {
		panic(err)
	}
	fmt.Println(format, len(pcm)/format.FrameBytes(), "frames")

	dev := voices.NewOffline(voices.OfflineDesc{})
	eng, err := voices.NewEngine(voices.EngineDesc{Device: dev})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	beep, err := eng.NewClip("beep", pcm, format) // file must outlive the bank
	if err != nil {
		panic(err)
	}
	fmt.Println(format.Duration(beep.Frames()))
	// Once the bank is released (here with no device pulling, which takes
	// the stalled-device path), file may be reused.
	if err := beep.Bank().Release(20 * time.Millisecond); err != nil {
		panic(err)
	}
	// Output:
	// 44100Hz/1ch/s16le 4410 frames
	// 100ms
}

// Parse names what is wrong with a file it cannot read.
func ExampleParse_unsupported() {
	adpcm := []byte("RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00" +
		"\x02\x00\x01\x00\x22\x56\x00\x00\x93\x2b\x00\x00\x00\x01\x04\x00" +
		"data\x00\x00\x00\x00")
	_, _, err := wav.Parse(adpcm)
	fmt.Println(err)
	// Output:
	// wav: unsupported format: format tag 0x0002 (Microsoft ADPCM); only PCM and IEEE float are read
}
