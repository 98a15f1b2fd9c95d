package voices

import "fmt"

// Resampler selects how the mixer converts a voice whose source rate
// differs from the device rate. It is fixed per engine
// (EngineDesc.Resampler); a plain value.
type Resampler uint8

const (
	// ResamplerSinc, the default, is a band-limited polyphase FIR: a
	// Kaiser-windowed sinc of 48 source frames (more when
	// downsampling), evaluated at the exact rational phase of every
	// device frame. From a 22050 Hz source to 48 kHz it passes 10 kHz
	// within 0.4 dB and holds every image at least 85 dB down. End to
	// end, the THD+N of a -6 dBFS 1 kHz tone is about -105 dB from a
	// float32 source. From a 16-bit one it is -91.6 dB, its own
	// quantisation. TestSincQuality logs the figures. Downsampling
	// (88.2 or 96 kHz to 48 kHz) scales the cutoff to the device's
	// Nyquist frequency, so content above it is filtered out rather
	// than folded back.
	//
	// The voices of one source rate share one filter: they are summed
	// at the source rate and filtered once. So a voice that starts
	// while others of its rate play starts on that rate's sample grid.
	// It is at most half a source frame from the block start: 11.3 µs
	// at 44.1 kHz, 22.7 µs at 22.05 kHz, 62.5 µs at 8 kHz. Alone, it
	// starts exactly on the block.
	ResamplerSinc Resampler = iota
	// ResamplerLinear interpolates between the two nearest source
	// frames. With vector kernels it costs about a quarter of the sinc
	// (the whole 32-voice mix of BenchmarkMix32). But it dulls the top
	// octave and leaves images only a few dB down. A 10 kHz tone from
	// 22050 Hz comes out 6 dB low, beside an image at 12.05 kHz 3 dB
	// below it. For sound effects on a CPU budget.
	ResamplerLinear
)

// String returns the resampler's name.
func (r Resampler) String() string {
	switch r {
	case ResamplerSinc:
		return "sinc"
	case ResamplerLinear:
		return "linear"
	}
	return fmt.Sprintf("resampler(%d)", uint8(r))
}
