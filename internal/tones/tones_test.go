package tones

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/voices"
)

var (
	monoI16   = voices.Format{Rate: 22050, Channels: 1, Encoding: voices.EncodingInt16LE}
	stereoF32 = voices.Format{Rate: 48000, Channels: 2, Encoding: voices.EncodingFloat32LE}
)

// zeroCrossings counts sign changes of channel 0, which for a sine is two
// per period: the frequency test does not trust the synthesiser's own
// arithmetic.
func zeroCrossings(t Tone, mem []byte) int {
	sb := t.Format.Encoding.SampleBytes()
	n, prev := 0, 0.0
	for o := 0; o+sb <= len(mem); o += t.Format.FrameBytes() {
		var v float64
		if t.Format.Encoding == voices.EncodingInt16LE {
			v = float64(int16(binary.LittleEndian.Uint16(mem[o:])))
		} else {
			v = float64(math.Float32frombits(binary.LittleEndian.Uint32(mem[o:])))
		}
		if v != 0 && prev != 0 && (v > 0) != (prev > 0) {
			n++
		}
		if v != 0 {
			prev = v
		}
	}
	return n
}

func TestFrequencyAndLength(t *testing.T) {
	for _, tone := range []Tone{
		{Format: monoI16, Freq: 440, Length: time.Second, Loop: true},
		{Format: stereoF32, Freq: 1000, Length: 500 * time.Millisecond, Loop: true, Level: 0.5},
	} {
		mem, err := Synth(tone)
		if err != nil {
			t.Fatal(err)
		}
		frames := len(mem) / tone.Format.FrameBytes()
		secs := float64(frames) / float64(tone.Format.Rate)
		if math.Abs(secs-tone.Length.Seconds()) > 1/tone.Freq {
			t.Errorf("%v: %v s rendered, want %v", tone.Format, secs, tone.Length.Seconds())
		}
		got := float64(zeroCrossings(tone, mem)) / 2 / secs
		if math.Abs(got-tone.Freq) > tone.Freq*0.01 {
			t.Errorf("%v: measured %.1f Hz, want %v", tone.Format, got, tone.Freq)
		}
	}
}

func TestDecayEnds(t *testing.T) {
	tone := Tone{Format: monoI16, Freq: 300, Length: 400 * time.Millisecond}
	mem, err := Synth(tone)
	if err != nil {
		t.Fatal(err)
	}
	last := int16(binary.LittleEndian.Uint16(mem[len(mem)-2:]))
	if last > 32767/50 || last < -32767/50 {
		t.Errorf("tone still at %d at its end; the decay should bring it near silence", last)
	}
}

func TestInvalid(t *testing.T) {
	for _, tone := range []Tone{
		{Format: voices.Format{Rate: 1234, Channels: 1, Encoding: voices.EncodingInt16LE}, Freq: 440, Length: time.Second},
		{Format: monoI16, Freq: 0, Length: time.Second},
		{Format: monoI16, Freq: 20000, Length: time.Second},
		{Format: monoI16, Freq: 440, Length: 0},
		{Format: monoI16, Freq: 440, Length: time.Second, Level: 2},
	} {
		if _, err := Synth(tone); !errors.Is(err, ErrInvalid) {
			t.Errorf("Synth(%+v) = %v, want ErrInvalid", tone, err)
		}
	}
}
