package tones

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/steadyframe/steadyframe/voices"
)

// ErrInvalid is returned for a tone that cannot be rendered.
var ErrInvalid = errors.New("tones: invalid tone")

// Tone describes one sound.
type Tone struct {
	Format voices.Format
	Freq   float64       // Hz
	Length time.Duration // for a loop, rounded to whole periods
	// Loop renders a steady level that repeats without a click; otherwise
	// the tone has a 3 ms attack and an exponential decay.
	Loop bool
	// Level is the peak amplitude in (0, 1]; 0 means 0.6.
	Level float64
}

// Synth renders t into fresh PCM memory in t.Format.
func Synth(t Tone) ([]byte, error) {
	if err := t.Format.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if !(t.Freq > 0) || t.Freq >= float64(t.Format.Rate)/2 {
		return nil, fmt.Errorf("%w: frequency %v Hz at %d Hz", ErrInvalid, t.Freq, t.Format.Rate)
	}
	level := t.Level
	if level == 0 {
		level = 0.6
	}
	if !(level > 0 && level <= 1) {
		return nil, fmt.Errorf("%w: level %v (want 0..1)", ErrInvalid, level)
	}
	frames := int(t.Length.Seconds() * float64(t.Format.Rate))
	if t.Loop {
		period := float64(t.Format.Rate) / t.Freq
		frames = int(math.Round(float64(frames)/period) * period)
	}
	if frames < 1 {
		return nil, fmt.Errorf("%w: length %v is shorter than one frame", ErrInvalid, t.Length)
	}
	mem := make([]byte, frames*t.Format.FrameBytes())
	sb := t.Format.Encoding.SampleBytes()
	for f := 0; f < frames; f++ {
		s := float64(f) / float64(t.Format.Rate)
		env := level
		if !t.Loop {
			env = level * math.Min(1, s/0.003) * math.Exp(-s*12)
		}
		v := env * math.Sin(2*math.Pi*t.Freq*s)
		for c := 0; c < t.Format.Channels; c++ {
			o := (f*t.Format.Channels + c) * sb
			if t.Format.Encoding == voices.EncodingInt16LE {
				binary.LittleEndian.PutUint16(mem[o:], uint16(int16(v*32767)))
			} else {
				binary.LittleEndian.PutUint32(mem[o:], math.Float32bits(float32(v)))
			}
		}
	}
	return mem, nil
}
