package voices

import (
	"errors"
	"testing"
	"time"
)

func TestFormatValidate(t *testing.T) {
	seen := map[Format]bool{}
	for _, f := range DefaultFormats() {
		if err := f.Validate(); err != nil {
			t.Errorf("%v: %v", f, err)
		}
		if seen[f] {
			t.Errorf("%v twice in DefaultFormats", f)
		}
		seen[f] = true
		if got, want := f.FrameBytes(), f.Channels*f.Encoding.SampleBytes(); got != want {
			t.Errorf("%v: FrameBytes %d, want %d", f, got, want)
		}
	}
	// The doc's count: 9 rates, mono and stereo, s16le and f32le.
	if len(seen) != 36 || len(DefaultFormats()) > MaxFormats {
		t.Errorf("%d default formats, want 36 (at most MaxFormats)", len(seen))
	}
	for _, rate := range []int{MinRate, 12000, 24000, 37800, 44101, MaxRate} {
		if f := (Format{Rate: rate, Channels: 2, Encoding: EncodingInt16LE}); f.Validate() != nil {
			t.Errorf("%v: %v, want valid", f, f.Validate())
		}
	}
	for _, f := range []Format{
		{}, {Rate: MinRate - 1, Channels: 2, Encoding: EncodingInt16LE}, {Rate: MaxRate + 1, Channels: 1, Encoding: EncodingFloat32LE}, {Rate: 48000, Channels: 3, Encoding: EncodingInt16LE},
		{Rate: 48000, Channels: 0, Encoding: EncodingFloat32LE}, {Rate: 48000, Channels: 2, Encoding: 9},
	} {
		if err := f.Validate(); !errors.Is(err, ErrFormat) {
			t.Errorf("%v: Validate = %v, want ErrFormat", f, err)
		}
	}
	if s := DefaultDeviceFormat.String(); s != "48000Hz/2ch/f32le" {
		t.Errorf("String = %q", s)
	}
	if d := DefaultDeviceFormat.Duration(480); d != 10*time.Millisecond {
		t.Errorf("Duration(480) = %v", d)
	}
}
