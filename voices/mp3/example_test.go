package mp3_test

import (
	"fmt"
	"os"
	"time"

	"github.com/steadyframe/steadyframe/voices"
	"github.com/steadyframe/steadyframe/voices/mp3"
)

// A game decodes its MP3 sounds once, at load time, and gives the PCM to
// a bank; the mixer then plays it from memory without decoding.
func Example() {
	file, err := os.Open("testdata/tone-1k-44100-mono.mp3")
	if err != nil {
		panic(err)
	}
	defer file.Close()
	format, pcm, err := mp3.Decode(file) // pcm is the game's to keep
	if err != nil {
		panic(err)
	}
	frames := len(pcm) / format.FrameBytes()
	// 0.25 s of tone, plus the encoder's and decoder's delay and padding.
	fmt.Println(format, format.Duration(frames).Round(time.Millisecond))

	eng, err := voices.NewEngine(voices.EngineDesc{Device: voices.NewOffline(voices.OfflineDesc{})})
	if err != nil {
		panic(err)
	}
	defer eng.Close()
	tone, err := eng.NewClip("tone", pcm, format)
	if err != nil {
		panic(err)
	}
	fmt.Println(tone.Frames() == frames)
	// Output:
	// 44100Hz/2ch/s16le 313ms
	// true
}
