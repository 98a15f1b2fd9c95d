package tones_test

import (
	"fmt"
	"time"

	"github.com/steadyframe/steadyframe/internal/tones"
	"github.com/steadyframe/steadyframe/voices"
)

// Render a click in a 22 kHz mono int16 format and a music loop in 44.1
// kHz stereo; hand each to voices.Engine.NewBank.
func Example() {
	click, err := tones.Synth(tones.Tone{
		Format: voices.Format{Rate: 22050, Channels: 1, Encoding: voices.EncodingInt16LE},
		Freq:   1200, Length: 40 * time.Millisecond,
	})
	if err != nil {
		panic(err)
	}
	loop, err := tones.Synth(tones.Tone{
		Format: voices.Format{Rate: 44100, Channels: 2, Encoding: voices.EncodingInt16LE},
		Freq:   110, Length: time.Second, Loop: true,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(click), "bytes;", len(loop)/4, "frames, a whole number of 110 Hz periods")
	// Output: 1764 bytes; 44100 frames, a whole number of 110 Hz periods
}
