package flac_test

import (
	"fmt"
	"os"

	"github.com/steadyframe/steadyframe/voices"
	"github.com/steadyframe/steadyframe/voices/flac"
)

// A game decodes its FLAC sounds once, at load time, and gives the PCM
// to a bank; the mixer then plays it from memory without decoding.
func Example() {
	file, err := os.Open("testdata/tone-s16-stereo-22050.flac")
	if err != nil {
		panic(err)
	}
	defer file.Close()
	format, pcm, err := flac.Decode(file) // pcm is the game's to keep
	if err != nil {
		panic(err)
	}
	frames := len(pcm) / format.FrameBytes()
	fmt.Println(format, frames, format.Duration(frames))

	eng, err := voices.NewEngine(voices.EngineDesc{Device: voices.NewOffline(voices.OfflineDesc{})})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	tone, err := eng.NewClip("tone", pcm, format)
	if err != nil {
		panic(err)
	}
	fmt.Println(tone.Frames())
	// Output:
	// 22050Hz/2ch/s16le 2205 100ms
	// 2205
}

// A 24-bit file decodes to 32-bit float, keeping its depth.
func ExampleDecode_deep() {
	file, err := os.Open("testdata/tone-s24-mono-44100.flac")
	if err != nil {
		panic(err)
	}
	defer file.Close()
	format, pcm, err := flac.Decode(file)
	fmt.Println(format, len(pcm), err)
	// Output:
	// 44100Hz/1ch/f32le 17640 <nil>
}
