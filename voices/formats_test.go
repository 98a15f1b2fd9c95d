package voices

import (
	"errors"
	"math"
	"testing"

	"github.com/steadyframe/steadyframe/internal/pcmcheck"
)

// TestDeclaredFormats makes an engine of two formats outside the defaults
// (24 kHz, the mp3 decoder's MPEG-2 rate, and a prime rate through the
// interpolated filter): Stats lists them in the declared order, a clip of
// another format is refused, and bad declarations are refused with the
// field named.
func TestDeclaredFormats(t *testing.T) {
	f24 := Format{Rate: 24000, Channels: 1, Encoding: EncodingInt16LE}
	fp := Format{Rate: 44101, Channels: 2, Encoding: EncodingFloat32LE}
	e, dev := offlineEngine(t, EngineDesc{Formats: []Format{f24, fp}, FormatCaps: map[Format]int{fp: 3}})
	s := e.Stats()
	if s.Formats[0].Format != f24 || s.Formats[1].Format != fp || s.Formats[1].Cap != 3 || s.Formats[2] != (FormatStats{}) {
		t.Fatalf("Stats.Formats starts %+v", s.Formats[:3])
	}
	b, err := e.NewBank("b", tone(fp, 44101, 1000, 0.5))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Clip(ClipDesc{Format: mono44}); !errors.Is(err, ErrFormat) {
		t.Fatalf("Clip of a format not pooled: %v, want ErrFormat", err)
	}
	if err := e.SetFormatGain(mono44, 0.5); !errors.Is(err, ErrFormat) {
		t.Fatalf("SetFormatGain of a format not pooled: %v, want ErrFormat", err)
	}
	c, err := b.Clip(ClipDesc{Format: fp})
	if err != nil {
		t.Fatal(err)
	}
	_, c24 := clipOf(t, e, "24k", f24, tone(f24, 24000, 440, 0.5), ClipDesc{})
	for _, cl := range []Clip{c, c24} {
		if _, err := e.Play(cl, PlayDesc{Loop: true}); err != nil {
			t.Fatal(err)
		}
	}
	l, _ := render(t, dev, 48000+9600)
	x := steady(l)
	// Each tone at its own frequency and level: the 1 kHz stereo one at
	// 0.5, the 440 Hz mono one at 0.5 × cos(π/4) on the left.
	for _, w := range []struct{ freq, amp float64 }{{1000, 0.5}, {440, 0.5 * math.Cos(math.Pi/4)}} {
		if ft := pcmcheck.FitTone(x, w.freq, 48000); math.Abs(pcmcheck.DB(ft.Amp/w.amp)) > 0.01 {
			t.Errorf("%v Hz at %.4f, want %.4f", w.freq, ft.Amp, w.amp)
		}
	}

	for _, c := range []struct {
		name string
		d    EngineDesc
		want error
	}{
		{"empty", EngineDesc{Formats: []Format{}}, ErrInvalid},
		{"twice", EngineDesc{Formats: []Format{f24, fp, f24}}, ErrInvalid},
		{"too many", EngineDesc{Formats: make([]Format, MaxFormats+1)}, ErrInvalid},
		{"bad rate", EngineDesc{Formats: []Format{{Rate: 7999, Channels: 1, Encoding: EncodingInt16LE}}}, ErrFormat},
		{"cap not pooled", EngineDesc{Formats: []Format{f24}, FormatCaps: map[Format]int{fp: 1}}, ErrFormat},
	} {
		if _, err := NewEngine(c.d); !errors.Is(err, c.want) {
			t.Errorf("%s: NewEngine = %v, want %v", c.name, err, c.want)
		}
	}
}

// TestDeclaredFormatsAllocs proves that Play and the mix of a rate
// outside the defaults allocate nothing: the engine built its filters
// when it was made.
func TestDeclaredFormatsAllocs(t *testing.T) {
	for _, f := range []Format{{Rate: 37800, Channels: 2, Encoding: EncodingInt16LE}, {Rate: 44101, Channels: 1, Encoding: EncodingFloat32LE}} {
		e, dev := offlineEngine(t, EngineDesc{Formats: []Format{f}, QueueSize: 4096})
		_, c := clipOf(t, e, "t", f, tone(f, f.Rate/10, 1000, 0.5), ClipDesc{})
		buf := make([]byte, 1024*8)
		wantNoAllocs(t, f.String()+": Play+Render", func() {
			if _, err := e.Play(c, PlayDesc{}); err != nil {
				t.Fatal(err)
			}
			_, _ = dev.Render(buf)
		})
		if l, _ := stereo(buf); rms(l) < 0.1 {
			t.Fatalf("%v: rms %.3f, want the tone", f, rms(l))
		}
	}
}
