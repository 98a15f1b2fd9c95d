package voices

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// The rate buses' timed fades (ratebus_fade.go), measured from the mix
// of a DC clip of 0.5 on the offline device: what a voice at the device
// rate does in TestFadeFollowsItsCurve, delayed by the filter's
// look-ahead where the voice was already playing.

// busFadeRates are the source rates of the tests, on a 48 kHz device.
var busFadeRates = []int{22050, 44100}

// busFadeDelay is the delay of a fade on a playing rate-bus voice, in
// device frames: the filter's look-ahead, the taps-half-1 source frames
// a window reads past its position (24 for the upsampling filter).
func busFadeDelay(e *Engine, rate int) float64 {
	for _, b := range e.mix.buses {
		if b.src == rate {
			return float64(b.taps-b.half-1) * float64(e.Format().Rate) / float64(rate)
		}
	}
	panic(fmt.Sprintf("no rate bus for %d Hz", rate))
}

// dcVoice plays a looping mono float32 DC clip of 0.5 at rate on a fresh
// offline engine, with fade-in fadeIn, after lead device frames of
// another voice of its rate (silent, for the bus's phase; none if lead
// is 0), and returns the engine, its device and the voice.
func dcVoice(t *testing.T, rate, lead int, fadeIn time.Duration) (*Engine, *Offline, Handle) {
	t.Helper()
	f := Format{Rate: rate, Channels: 1, Encoding: EncodingFloat32LE}
	fs := DefaultFormats()
	if !slices.Contains(fs, f) {
		fs = append(fs, f)
	}
	e, dev := offlineEngine(t, EngineDesc{Events: 16, Formats: fs})
	if lead > 0 {
		_, bed := clipOf(t, e, "bed", f, make([]byte, 4*1000), ClipDesc{})
		if _, err := e.Play(bed, PlayDesc{Loop: true}); err != nil {
			t.Fatal(err)
		}
		renderMix(t, e, dev, lead)
	}
	_, c := clipOf(t, e, "dc", f, dcPCM(f, rate/10, 0.5), ClipDesc{})
	h, err := e.Play(c, PlayDesc{Loop: true, FadeIn: fadeIn})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := h.slot(); e.mix.voices[s].bus == nil {
		t.Fatalf("a %d Hz voice is not on a rate bus", rate)
	}
	return e, dev, h
}

// checkCurve fails if l strays more than 0.1 dB from want at any frame
// where want is above -60 dB of the signal, as TestFadeFollowsItsCurve
// checks a device-rate voice.
func checkCurve(t *testing.T, what string, l []float32, want func(j int) float64) {
	t.Helper()
	worst, at := 0.0, 0
	for j, s := range l {
		w := want(j)
		if w < 0.5e-3 {
			continue
		}
		if d := math.Abs(dB(float64(s) / w)); d > worst {
			worst, at = d, j
		}
	}
	if worst > 0.1 {
		t.Errorf("%s strays %.3f dB from its curve at frame %d (want <= 0.1)", what, worst, at)
	}
	t.Logf("%s: at most %.4f dB off its curve (frame %d)", what, worst, at)
}

// lineEnd fits a straight line to l[lo:hi] (least squares) and returns
// the frame, as a real number, at which it reaches level: where a linear
// fade through those frames ends. The filter smooths a fade's corners
// symmetrically, so frames away from them lie on the line.
func lineEnd(l []float32, lo, hi int, level float64) float64 {
	var n, sx, sy, sxx, sxy float64
	for j := lo; j < hi; j++ {
		x, y := float64(j), float64(l[j])
		n, sx, sy, sxx, sxy = n+1, sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	slope := (n*sxy - sx*sy) / (n*sxx - sx*sx)
	return (level - (sy-slope*sx)/n) / slope
}

// TestRateBusFadeFollowsItsCurve is TestFadeFollowsItsCurve for voices
// on a rate bus: a 22050 Hz and a 44100 Hz voice on a 48 kHz engine fade
// in over 100 ms from their first frame, then fade to a quarter over 70
// ms and stop. Both fades follow their curves within 0.1 dB frame by
// frame, the second delayed by the filter's look-ahead (52.2 and 26.1
// frames); each ends within 0.05 frames of the frame asked for plus that
// delay, and the stop's fade-out reaches silence within one source frame
// of where a device-rate voice's does, plus the delay.
func TestRateBusFadeFollowsItsCurve(t *testing.T) {
	for _, rate := range busFadeRates {
		t.Run(fmt.Sprint(rate), func(t *testing.T) {
			const fadeIn, fade = 4800, 3360 // 100 and 70 ms
			e, dev, h := dcVoice(t, rate, 0, 100*time.Millisecond)
			amp := 0.5 * float64(centre)
			l, _ := renderMix(t, e, dev, 8192)
			checkCurve(t, "fade-in", l, func(j int) float64 { return amp * min(float64(j+1)/fadeIn, 1) })
			end := lineEnd(l, 1000, 3800, amp)
			if math.Abs(end-(fadeIn-1)) > 0.05 {
				t.Errorf("fade-in ends at frame %.3f, want %d (the voice starts on an idle bus's block)", end, fadeIn-1)
			}
			t.Logf("fade-in ends at %.3f", end)
			if err := e.Fade(h, 0.25, 70*time.Millisecond, AfterStop); err != nil {
				t.Fatal(err)
			}
			d := busFadeDelay(e, rate)
			l, _ = renderMix(t, e, dev, 8192)
			want := func(j int) float64 { return amp * (1 - 0.75*min(max(float64(j+1)-d, 0)/fade, 1)) }
			checkCurve(t, "fade to 0.25", l[:fade+int(d)], want)
			end = lineEnd(l, 500, 2800, 0.25*amp)
			if math.Abs(end-(fade-1+d)) > 0.05 {
				t.Errorf("fade ends at frame %.3f, want %.3f: %d and the look-ahead's %.3f", end, fade-1+d, fade-1, d)
			}
			// The stop's fade-out starts inside the source frame the fade
			// ends in and lasts the voice's fade, the engine's 128 frames
			// in whole source frames (58 from 22050 Hz, 117 from 44100).
			s, _ := h.slot()
			src := 48000 / float64(rate) // device frames a source frame
			stop := float64(e.mix.voices[s].fade)
			lo := int(end) + 30
			silent := lineEnd(l, lo, lo+int(stop*src)-60, 0)
			if w := fade - 1 + d; silent < w+(stop-1)*src-0.05 || silent > w+stop*src+0.05 {
				t.Errorf("the stop's fade reaches 0 at frame %.3f, want %.3f to %.3f", silent, w+(stop-1)*src, w+stop*src)
			}
			t.Logf("delay %.3f frames; fade ends at %.3f (%.3f late), stop silent at %.3f (%.3f after; a device-rate voice: %d)", d, end, end-(fade-1), silent, silent-end, DefaultFadeFrames)
			if !(silent > 0 && int(silent+d)+2 < len(l)) {
				t.Fatalf("the stop's fade-out is not in the render (%.3f)", silent)
			}
			if e.Playing(h) {
				t.Error("voice still playing after its fade with AfterStop")
			}
			if ev, ok := e.PollEvent(); !ok || ev.Kind != EventStopped || ev.Handle != h {
				t.Errorf("event after the fade %+v %v, want stopped %v", ev, ok, h)
			}
			for j, s := range l[int(silent)+int(d)+2:] {
				if math.Abs(float64(s)) > 1e-6 {
					t.Fatalf("stopped voice sounds at frame %d: %v", int(silent)+int(d)+2+j, s)
				}
			}
		})
	}
}

// TestRateBusFadeDelayConstant fades a playing rate-bus voice at several
// bus phases (its bus played for 1 to 7 blocks before it): the fade ends
// at the same frame after its block, the asked one plus the look-ahead,
// within 0.05 frames every time. Besides 22050 and 44100 Hz it plays
// 44101 Hz (a dsp.Interp bus) and 96000 Hz (downsampling, 96 taps).
func TestRateBusFadeDelayConstant(t *testing.T) {
	for _, rate := range []int{22050, 44100, 44101, 96000} {
		for lead := 256; lead <= 7*256; lead += 2 * 256 {
			t.Run(fmt.Sprint(rate, "/", lead), func(t *testing.T) {
				const fade = 2400 // 50 ms
				e, dev, h := dcVoice(t, rate, lead, 0)
				amp := 0.5 * float64(centre)
				renderMix(t, e, dev, 2048)
				if err := e.Fade(h, 0.5, 50*time.Millisecond, AfterNone); err != nil {
					t.Fatal(err)
				}
				d := busFadeDelay(e, rate)
				l, _ := renderMix(t, e, dev, 4096)
				checkCurve(t, "fade to 0.5", l, func(j int) float64 { return amp * (1 - 0.5*min(max(float64(j+1)-d, 0)/fade, 1)) })
				end := lineEnd(l, 300, 2100, 0.5*amp)
				if math.Abs(end-(fade-1+d)) > 0.05 {
					t.Errorf("fade ends at frame %.3f, want %.3f", end, fade-1+d)
				}
				t.Logf("fade ends at %.3f, want %.3f", end, fade-1+d)
			})
		}
	}
}

// TestRateBusPauseAfterFade fades a rate-bus voice to a quarter with
// AfterPause: its gate then closes over the engine's fade (128 frames),
// reaching 0 where a device-rate voice's does plus the look-ahead, within
// 0.05 frames. The paused voice stays silent and in place, at the source
// frame the bus had summed up to, and Resume brings it back.
func TestRateBusPauseAfterFade(t *testing.T) {
	for _, rate := range busFadeRates {
		t.Run(fmt.Sprint(rate), func(t *testing.T) {
			const fade = 3360 // 70 ms
			e, dev, h := dcVoice(t, rate, 0, 0)
			amp := 0.5 * float64(centre)
			renderMix(t, e, dev, 1024)
			if err := e.Fade(h, 0.25, 70*time.Millisecond, AfterPause); err != nil {
				t.Fatal(err)
			}
			d := busFadeDelay(e, rate)
			l, _ := renderMix(t, e, dev, 8192)
			want := func(j int) float64 {
				x := float64(j+1) - d
				if x <= fade {
					return amp * (1 - 0.75*max(x, 0)/fade)
				}
				return 0.25 * amp * max(1-(x-fade)/DefaultFadeFrames, 0)
			}
			checkCurve(t, "fade to 0.25, then pause", l[:fade+DefaultFadeFrames], want)
			end := lineEnd(l, 500, 2800, 0.25*amp)
			shut := lineEnd(l, int(end)+30, int(end)+DefaultFadeFrames-30, 0)
			if w := fade - 1 + d; math.Abs(end-w) > 0.05 {
				t.Errorf("fade ends at frame %.3f, want %.3f", end, w)
			}
			if w := fade - 1 + DefaultFadeFrames + d; math.Abs(shut-w) > 0.05 {
				t.Errorf("the pause's gate shuts at frame %.3f, want %.3f", shut, w)
			}
			t.Logf("fade ends at %.3f, gate shuts at %.3f (delay %.3f)", end, shut, d)
			if !(shut > 0 && int(shut+d)+2 < len(l)) {
				t.Fatalf("the pause's gate does not shut in the render (%.3f)", shut)
			}
			for j, s := range l[int(shut)+int(d)+2:] {
				if math.Abs(float64(s)) > 1e-6 {
					t.Fatalf("paused voice sounds at frame %d: %v", int(shut)+int(d)+2+j, s)
				}
			}
			// The voice stays where its gate shut: at the source frame x
			// the output plays at the device frame it shut. The position
			// counts the frames summed, those up to x: x to x+1.
			p, ok := e.Position(h)
			x := (1024 + shut) * float64(rate) / 48000
			if off := float64(p) - x; !ok || off < -0.01 || off > 1.01 {
				t.Errorf("paused at source frame %d (%v), want %.2f to %.2f", p, ok, x, x+1)
			}
			t.Logf("paused at source frame %d (x = %.2f)", p, x)
			renderMix(t, e, dev, 2048)
			if q, _ := e.Position(h); q != p || !e.Playing(h) {
				t.Fatalf("a paused voice moved from %d to %d (playing %v)", p, q, e.Playing(h))
			}
			if err := e.Resume(h); err != nil {
				t.Fatal(err)
			}
			l, _ = renderMix(t, e, dev, 2048)
			if got := float64(l[2047]); math.Abs(dB(got/(0.25*amp))) > 0.01 {
				t.Errorf("resumed voice at %v, want %v", got, 0.25*amp)
			}
		})
	}
}

// TestRateBusFadeDocNumbers keeps the docs' figures for the delay in
// step with the filter: the README's look-ahead in source frames and
// milliseconds, and docs/mixer.md's in device frames.
func TestRateBusFadeDocNumbers(t *testing.T) {
	e, _ := offlineEngine(t, EngineDesc{})
	var n int
	for _, b := range e.mix.buses {
		if b.src == 22050 {
			n = b.fadeDelay()
		}
	}
	docs := map[string][]string{
		"../README.md": {fmt.Sprintf("a constant %d source frames (%.1f ms at 22.05 kHz;", n, float64(n)*1000/22050)},
		"../docs/mixer.md": {
			fmt.Sprintf("starts %d source frames after the block's first output position", n),
			fmt.Sprintf("%.1f device frames from 22050 Hz, %.1f from 44100 Hz", busFadeDelay(e, 22050), busFadeDelay(e, 44100)),
		},
	}
	for doc, want := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(b)), " ")
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s does not say %q", doc, w)
			}
		}
	}
}

// TestRateBusFadeAcrossVirtual fades a 22050 Hz voice out over 400 ms
// with AfterStop while a louder voice makes it virtual for about half of
// the fade, then stops. The fade counts device frames while the voice is
// virtual and source ticks while it is real, so it ends on time: the
// stop's event comes within two blocks of the frame asked for, the fade's
// end plus the look-ahead and the stop's fade-out.
func TestRateBusFadeAcrossVirtual(t *testing.T) {
	const block = 256
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: 1, Virtual: 8, BlockFrames: block, Events: 64})
	f := Format{Rate: 22050, Channels: 1, Encoding: EncodingFloat32LE}
	_, dc := clipOf(t, e, "dc", f, dcPCM(f, 2205, 0.25), ClipDesc{})
	_, loud := clipOf(t, e, "loud", mono48f, dcPCM(mono48f, 4800, 0.25), ClipDesc{})
	h, err := e.Play(dc, PlayDesc{Loop: true})
	if err != nil {
		t.Fatal(err)
	}
	frame := 0
	step := func(blocks int) (stopped int) {
		t.Helper()
		stopped = -1
		for range blocks {
			render(t, dev, block)
			frame += block
			for ev, ok := e.PollEvent(); ok; ev, ok = e.PollEvent() {
				if ev.Handle == h && ev.Kind == EventStopped {
					stopped = frame
				}
			}
		}
		return stopped
	}
	step(4)
	if err := e.Fade(h, 0, 400*time.Millisecond, AfterStop); err != nil {
		t.Fatal(err)
	}
	start := frame
	step(8)
	a, err := e.Play(loud, PlayDesc{Loop: true, Volume: 2})
	if err != nil {
		t.Fatal(err)
	}
	step(4)
	if m := e.modeOf(h); m != virtOff {
		t.Fatalf("the fading voice's mode is %d beside a louder one, want virtual", m)
	}
	step(30) // about 160 ms virtual
	if err := e.Stop(a); err != nil {
		t.Fatal(err)
	}
	step(3)
	if m := e.modeOf(h); m != virtReal {
		t.Fatalf("the fading voice's mode is %d alone, want real", m)
	}
	stopped := -1
	for i := 0; i < 60 && stopped < 0; i++ {
		stopped = step(1)
	}
	s, _ := h.slot()
	want := start + 19200 + int(busFadeDelay(e, 22050)) + e.mix.voices[s].fade*48000/22050
	if stopped < 0 || stopped < want-2*block || stopped > want+2*block {
		t.Fatalf("the fade's stop was reported in the block ending at frame %d, want %d within 2 blocks", stopped, want)
	}
	t.Logf("stop reported by frame %d; asked %d", stopped, want)
}
