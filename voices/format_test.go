package voices

import (
	"errors"
	"testing"
	"time"
)

func TestFormatValidate(t *testing.T) {
	seen := map[int]bool{}
	for _, rate := range []int{8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200, 96000} {
		for ch := 1; ch <= 2; ch++ {
			for _, enc := range []Encoding{EncodingInt16LE, EncodingFloat32LE} {
				f := Format{Rate: rate, Channels: ch, Encoding: enc}
				if err := f.Validate(); err != nil {
					t.Errorf("%v: %v", f, err)
				}
				i := f.index()
				if seen[i] || formatAt(i) != f {
					t.Errorf("%v: index %d not a bijection (back to %v)", f, i, formatAt(i))
				}
				seen[i] = true
				if got, want := f.FrameBytes(), ch*enc.SampleBytes(); got != want {
					t.Errorf("%v: FrameBytes %d, want %d", f, got, want)
				}
			}
		}
	}
	if len(seen) != NumFormats {
		t.Errorf("%d formats, want %d", len(seen), NumFormats)
	}
	for _, f := range []Format{
		{}, {Rate: 12000, Channels: 2, Encoding: EncodingInt16LE}, {Rate: 192000, Channels: 1, Encoding: EncodingFloat32LE}, {Rate: 48000, Channels: 3, Encoding: EncodingInt16LE},
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
