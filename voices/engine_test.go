package voices

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"
)

var (
	mono44 = Format{Rate: 44100, Channels: 1, Encoding: EncodingInt16LE}
	st48f  = Format{Rate: 48000, Channels: 2, Encoding: EncodingFloat32LE}
)

func TestBadInput(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{})
	pcm := tone(mono44, 4410, 440, 0.5)
	bank, err := e.NewBank("sfx", pcm)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		d    ClipDesc
		want error
	}{
		{"odd byte length", ClipDesc{Format: mono44, Length: 3}, ErrPCM},
		{"unsupported rate", ClipDesc{Format: Format{Rate: 12000, Channels: 1, Encoding: EncodingInt16LE}}, ErrFormat},
		{"unsupported channels", ClipDesc{Format: Format{Rate: 48000, Channels: 6, Encoding: EncodingInt16LE}}, ErrFormat},
		{"unsupported encoding", ClipDesc{Format: Format{Rate: 48000, Channels: 1, Encoding: Encoding(9)}}, ErrFormat},
		{"zero format", ClipDesc{}, ErrFormat},
		{"odd float length", ClipDesc{Format: Format{Rate: 48000, Channels: 2, Encoding: EncodingFloat32LE}, Length: 12}, ErrPCM},
		{"empty clip", ClipDesc{Format: mono44, Offset: len(pcm)}, ErrPCM},
		{"past the end", ClipDesc{Format: mono44, Offset: 2, Length: len(pcm)}, ErrPCM},
		{"negative offset", ClipDesc{Format: mono44, Offset: -2}, ErrPCM},
		{"loop outside", ClipDesc{Format: mono44, LoopEnd: 5000}, ErrPCM},
		{"empty loop", ClipDesc{Format: mono44, LoopStart: 10, LoopEnd: 10}, ErrPCM},
	} {
		_, err := bank.Clip(c.d)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), `"sfx"`) {
			t.Errorf("%s: %v, want %v naming the bank", c.name, err, c.want)
		}
	}
	if _, err := e.NewBank("empty", nil); !errors.Is(err, ErrPCM) {
		t.Errorf("empty bank: %v", err)
	}
	if _, err := e.Play(Clip{}, PlayDesc{}); !errors.Is(err, ErrPCM) {
		t.Errorf("zero clip: %v", err)
	}
	clip, err := bank.Clip(ClipDesc{Format: mono44})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []PlayDesc{{Volume: -1}, {Volume: float32(math.NaN())}, {Volume: 5}, {Pan: 2}, {Pan: float32(math.NaN())}} {
		if _, err := e.Play(clip, d); !errors.Is(err, ErrInvalid) {
			t.Errorf("Play(%+v): %v, want ErrInvalid", d, err)
		}
	}
	for _, h := range []Handle{0, makeHandle(0, 7), makeHandle(1<<30, 0)} {
		if err := e.Stop(h); !errors.Is(err, ErrStaleHandle) {
			t.Errorf("Stop(%v): %v, want ErrStaleHandle", h, err)
		}
	}
	// Nothing refused above may play: the output stays silent and no
	// voice or cap was taken.
	if l, r := render(t, dev, 1024); peak(l) != 0 || peak(r) != 0 {
		t.Fatalf("bad input reached the output (peak %v)", math.Max(peak(l), peak(r)))
	}
	if s := e.Stats(); s.Active != 0 || s.Counted != 0 || s.Blocks == 0 {
		t.Fatalf("after bad input: active %d counted %d blocks %d", s.Active, s.Counted, s.Blocks)
	}
	h, err := e.Play(clip, PlayDesc{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetVolume(h, 9); !errors.Is(err, ErrInvalid) {
		t.Errorf("SetVolume 9: %v", err)
	}
	if err := e.SetPan(h, -3); !errors.Is(err, ErrInvalid) {
		t.Errorf("SetPan -3: %v", err)
	}
	if err := e.SetFormatGain(Format{}, 1); !errors.Is(err, ErrFormat) {
		t.Errorf("SetFormatGain of a bad format: %v", err)
	}
	render(t, dev, 48000) // the 0.1 s clip ends
	if e.Playing(h) {
		t.Fatal("voice still playing after its clip ended")
	}
	for name, call := range map[string]func() error{
		"Stop": func() error { return e.Stop(h) }, "SetVolume": func() error { return e.SetVolume(h, 1) },
		"SetPan": func() error { return e.SetPan(h, 0) },
	} {
		// The error is the bare sentinel, so that refusing allocates
		// nothing (TestRefusalAllocs); the call is named in LastRefusal.
		err := call()
		if r := e.Stats().LastRefusal; err != ErrStaleHandle || r.Call != name || r.Err != ErrStaleHandle {
			t.Errorf("%s on an ended voice: %v (last refusal %v), want ErrStaleHandle naming the call", name, err, r)
		}
	}
	other, _ := offlineEngine(t, EngineDesc{})
	if _, err := other.Play(clip, PlayDesc{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("Play on another engine: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Play(clip, PlayDesc{}); !errors.Is(err, ErrClosed) {
		t.Errorf("Play after Close: %v", err)
	}
	if _, err := e.NewBank("late", pcm); !errors.Is(err, ErrClosed) {
		t.Errorf("NewBank after Close: %v", err)
	}
	if err := e.SetMasterGain(1); !errors.Is(err, ErrClosed) {
		t.Errorf("SetMasterGain after Close: %v", err)
	}
}

func TestEngineDescErrors(t *testing.T) {
	for _, d := range []EngineDesc{
		{MaxVoices: -1}, {BlockFrames: 8}, {FadeFrames: 512, BlockFrames: 256}, {Policy: 7}, {CloseTimeout: -time.Second},
		{Format: Format{Rate: 1, Channels: 2, Encoding: EncodingFloat32LE}},
		{FormatCaps: map[Format]int{mono44: 99}}, {FormatCaps: map[Format]int{{}: 1}},
	} {
		d.Device = NewOffline(OfflineDesc{})
		if _, err := NewEngine(d); err == nil {
			t.Errorf("NewEngine(%+v) succeeded", d)
		}
	}
}

// TestEngineDefaults checks the zero EngineDesc: a 48 kHz float32 stereo
// device, 32 voices in all, every format capped only by the total, and
// refusal as the policy.
func TestEngineDefaults(t *testing.T) {
	e, _ := offlineEngine(t, EngineDesc{})
	if e.Format() != DefaultDeviceFormat || DefaultDeviceFormat != (Format{Rate: 48000, Channels: 2, Encoding: EncodingFloat32LE}) {
		t.Fatalf("device format %v, want 48000Hz/2ch/f32le", e.Format())
	}
	s := e.Stats()
	if s.MaxVoices != 32 {
		t.Fatalf("MaxVoices %d, want 32", s.MaxVoices)
	}
	n := len(DefaultFormats())
	for _, fs := range s.Formats[:n] {
		if fs.Cap != 32 {
			t.Fatalf("%v capped at %d, want 32 (the total)", fs.Format, fs.Cap)
		}
	}
	for _, fs := range s.Formats[n:] {
		if fs != (FormatStats{}) {
			t.Fatalf("Stats.Formats past the engine's formats holds %+v, want zero", fs)
		}
	}
	_, c := clipOf(t, e, "t", mono44, tone(mono44, 441, 440, 0.1), ClipDesc{})
	for i := 0; i < 32; i++ {
		if _, err := e.Play(c, PlayDesc{}); err != nil {
			t.Fatalf("voice %d of 32: %v", i+1, err)
		}
	}
	if _, err := e.Play(c, PlayDesc{}); !errors.Is(err, ErrNoVoice) {
		t.Fatalf("voice 33: %v, want ErrNoVoice", err)
	}
}

// TestRefusePolicy fills the caps and checks ErrNoVoice, its count, the
// per-format cap, and that ending a voice frees its place.
func TestRefusePolicy(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: 4, FormatCaps: map[Format]int{mono44: 2}})
	_, a := clipOf(t, e, "a", mono44, tone(mono44, 441, 440, 0.1), ClipDesc{})
	_, b := clipOf(t, e, "b", st48f, tone(st48f, 480, 440, 0.1), ClipDesc{})
	for i := 0; i < 2; i++ {
		if _, err := e.Play(a, PlayDesc{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Play(a, PlayDesc{}); !errors.Is(err, ErrNoVoice) {
		t.Fatalf("third mono voice: %v, want ErrNoVoice (format cap 2)", err)
	}
	for i := 0; i < 2; i++ {
		if _, err := e.Play(b, PlayDesc{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Play(b, PlayDesc{}); !errors.Is(err, ErrNoVoice) {
		t.Fatalf("fifth voice: %v, want ErrNoVoice (total cap 4)", err)
	}
	s := e.Stats()
	if s.Refusals != 2 || s.Counted != 4 || s.Formats[mono44.index()].Active != 2 || s.Formats[mono44.index()].Cap != 2 {
		t.Fatalf("stats %+v", s)
	}
	render(t, dev, 1024) // the 10 ms clips end
	if s := e.Stats(); s.Active != 0 || s.Counted != 0 || s.Peak != 4 {
		t.Fatalf("after the clips ended: active %d counted %d peak %d", s.Active, s.Counted, s.Peak)
	}
	if _, err := e.Play(a, PlayDesc{}); err != nil {
		t.Fatalf("Play after voices freed: %v", err)
	}
}

// TestStealPolicy checks steal order (lowest priority, then oldest), that
// protected and higher-priority voices are never stolen, and that a steal
// with no victim is refused and its handle goes stale.
func TestStealPolicy(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: 3, Policy: PolicySteal})
	_, c := clipOf(t, e, "loop", mono44, tone(mono44, 4410, 440, 0.1), ClipDesc{})
	play := func(d PlayDesc) Handle {
		t.Helper()
		d.Loop = true
		h, err := e.Play(c, d)
		if err != nil {
			t.Fatal(err)
		}
		render(t, dev, 256)
		return h
	}
	music := play(PlayDesc{Priority: -5, Protected: true})
	oldLow := play(PlayDesc{Priority: 1})
	newLow := play(PlayDesc{Priority: 1})
	hi := play(PlayDesc{Priority: 2}) // steals oldLow: lowest unprotected, then oldest
	render(t, dev, 512)
	if e.Playing(oldLow) || !e.Playing(newLow) || !e.Playing(music) || !e.Playing(hi) {
		t.Fatalf("after first steal: oldLow %v newLow %v music %v hi %v", e.Playing(oldLow), e.Playing(newLow), e.Playing(music), e.Playing(hi))
	}
	low := play(PlayDesc{Priority: 0}) // nothing of priority ≤ 0 but the protected music: refused
	if e.Playing(low) {
		t.Fatal("a priority-0 voice stole from higher priorities or from protected music")
	}
	s := e.Stats()
	if s.Steals != 1 || s.Refusals != 1 || s.Counted != 3 {
		t.Fatalf("steals %d refusals %d counted %d, want 1 1 3", s.Steals, s.Refusals, s.Counted)
	}
}

// TestFadeNoClick stops a loud, full-scale tone and checks the output
// fades over FadeFrames instead of stepping to zero.
func TestFadeNoClick(t *testing.T) {
	f := Format{Rate: 48000, Channels: 1, Encoding: EncodingFloat32LE}
	// A square wave would hide the fade; a DC level shows every step.
	pcm := make([]byte, 48000*4)
	fill(f, pcm, 0.7)
	e, dev := offlineEngine(t, EngineDesc{FadeFrames: 128})
	_, c := clipOf(t, e, "dc", f, pcm, ClipDesc{})
	h, _ := e.Play(c, PlayDesc{Pan: -1})
	render(t, dev, 1000) // ends mid-block: the Stop lands at the next block
	if err := e.Stop(h); err != nil {
		t.Fatal(err)
	}
	l, _ := render(t, dev, 1024)
	// Full level 0.7 fading to 0 over 128 frames: steps of 0.7/128.
	if got, lim := maxStep(l), 0.7/128*1.01; got > lim {
		t.Fatalf("step %.5f during the fade, want at most %.5f", got, lim)
	}
	if l[len(l)-1] != 0 || e.Playing(h) {
		t.Fatal("voice not silent and ended after its fade")
	}
}

// TestVolumePanSmoothing checks that SetVolume and SetPan ramp over a
// block and reach their targets.
func TestVolumePanSmoothing(t *testing.T) {
	f := Format{Rate: 48000, Channels: 1, Encoding: EncodingFloat32LE}
	pcm := make([]byte, 48000*4)
	fill(f, pcm, 0.5)
	e, dev := offlineEngine(t, EngineDesc{BlockFrames: 256})
	_, c := clipOf(t, e, "dc", f, pcm, ClipDesc{})
	h, _ := e.Play(c, PlayDesc{Volume: 1, Pan: -1})
	render(t, dev, 256)
	_ = e.SetVolume(h, 0.25)
	_ = e.SetPan(h, 1)
	l, r := render(t, dev, 512)
	if got, lim := math.Max(maxStep(l), maxStep(r)), 0.5/256*1.01; got > lim {
		t.Fatalf("step %.5f, want at most %.5f (a ramp over one block)", got, lim)
	}
	if math.Abs(float64(l[511])) > 1e-6 || math.Abs(float64(r[511])-0.125) > 1e-6 {
		t.Fatalf("after the ramp: l %v r %v, want 0 and 0.125", l[511], r[511])
	}
}

// TestGains checks master and per-format gain and that a loud mix never
// leaves (-1, 1).
func TestGains(t *testing.T) {
	f := Format{Rate: 48000, Channels: 2, Encoding: EncodingFloat32LE}
	pcm := make([]byte, 4800*8)
	fill(f, pcm, 0.4)
	e, dev := offlineEngine(t, EngineDesc{})
	_, c := clipOf(t, e, "dc", f, pcm, ClipDesc{})
	_, _ = e.Play(c, PlayDesc{})
	_ = e.SetMasterGain(0.5)
	_ = e.SetFormatGain(f, 0.5)
	l, _ := render(t, dev, 1024)
	if got := l[1000]; math.Abs(float64(got)-0.1) > 1e-6 {
		t.Fatalf("0.4 × master 0.5 × format 0.5 = %v, want 0.1", got)
	}
	_ = e.SetMasterGain(4)
	_ = e.SetFormatGain(f, 4)
	for i := 0; i < 8; i++ {
		_, _ = e.Play(c, PlayDesc{Volume: 4})
	}
	l, r := render(t, dev, 2048)
	if p := math.Max(peak(l), peak(r)); p > 1 || p < 0.99 {
		t.Fatalf("a mix of 400× full scale peaks at %v, want at most 1 (the limiter)", p)
	}
}

// TestLoopPoints plays a clip whose loop region holds a different value
// from its intro and checks the intro plays once, then the loop repeats.
func TestLoopPoints(t *testing.T) {
	f := Format{Rate: 48000, Channels: 1, Encoding: EncodingFloat32LE}
	pcm := make([]byte, 300*4)
	fill(f, pcm[:100*4], 0.25)
	fill(f, pcm[100*4:], -0.25)
	e, dev := offlineEngine(t, EngineDesc{})
	_, c := clipOf(t, e, "intro+loop", f, pcm, ClipDesc{LoopStart: 100, LoopEnd: 200})
	h, _ := e.Play(c, PlayDesc{Loop: true, Pan: -1})
	l, _ := render(t, dev, 4096)
	d := e.limDelay() // the limiter's look-ahead: silence first
	for i, v := range l {
		want := float32(-0.25)
		if i < d {
			want = 0
		} else if i < d+100 {
			want = 0.25
		}
		if v != want {
			t.Fatalf("frame %d = %v, want %v", i, v, want)
		}
	}
	if !e.Playing(h) {
		t.Fatal("looping voice ended")
	}
}

// TestDeterministic runs the same commands at the same block positions on
// two engines and requires bit-identical output.
func TestDeterministic(t *testing.T) {
	run := func() []byte {
		e, dev := offlineEngine(t, EngineDesc{MaxVoices: 6, Policy: PolicySteal})
		var clips []Clip
		for i, f := range allFormats() {
			_, c := clipOf(t, e, f.String(), f, tone(f, f.Rate/4, 110*float64(i+1), 0.3), ClipDesc{})
			clips = append(clips, c)
		}
		out := make([]byte, 0, 64*1024*8)
		buf := make([]byte, 1024*8)
		var hs []Handle
		for step := 0; step < 64; step++ {
			c := clips[(step*7)%len(clips)]
			h, err := e.Play(c, PlayDesc{Pan: float32(step%5)/2 - 1, Volume: float32(step%3 + 1), Priority: int16(step % 4), Loop: step%3 == 0})
			if err == nil {
				hs = append(hs, h)
			}
			if step%4 == 1 && len(hs) > 0 {
				_ = e.Stop(hs[step%len(hs)])
				_ = e.SetPan(hs[(step+1)%len(hs)], 0.3)
			}
			if _, err := dev.Render(buf); err != nil {
				t.Fatal(err)
			}
			out = append(out, buf...)
		}
		return out
	}
	a, b := run(), run()
	if len(a) != len(b) {
		t.Fatal("lengths differ")
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("byte %d differs: the mix is not deterministic", i)
		}
	}
	if peak(func() []float32 { l, _ := stereo(a); return l }()) == 0 {
		t.Fatal("the run rendered silence")
	}
}

// TestDeviceFallback gives the engine a device that cannot start: it must
// fall back to the offline device and keep the error.
func TestDeviceFallback(t *testing.T) {
	var logged bytes.Buffer
	broken := &brokenDevice{}
	e, err := NewEngine(EngineDesc{Device: broken, Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if l := logged.String(); !strings.Contains(l, "level=WARN") || !strings.Contains(l, errNoCard.Error()) {
		t.Fatalf("the fallback was not logged as a warning naming the device's error: %q", l)
	}
	if !errors.Is(e.Err(), errNoCard) {
		t.Fatalf("Err() = %v, want the device's error", e.Err())
	}
	if e.Stats().Device.Name != "offline" {
		t.Fatalf("device %q, want the offline fallback", e.Stats().Device.Name)
	}
	if broken.closes != 1 {
		t.Fatalf("the failed device was closed %d times, want once (the mixer must have one reader)", broken.closes)
	}
}

var errNoCard = errors.New("no sound card")

// brokenDevice fails to start, like a machine with no sound card.
type brokenDevice struct{ closes int }

func (*brokenDevice) Start(Format, io.Reader) error { return errNoCard }
func (*brokenDevice) Stats() DeviceStats            { return DeviceStats{Name: "broken"} }
func (*brokenDevice) Err() error                    { return nil }
func (d *brokenDevice) Close() error                { d.closes++; return nil }

func TestNewClip(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{})
	c, err := e.NewClip("one", tone(st48f, 480, 440, 0.5), st48f)
	if err != nil {
		t.Fatal(err)
	}
	if c.Frames() != 480 || c.Format() != st48f || c.Bank().Name() != "one" {
		t.Fatalf("clip %d frames %v bank %q", c.Frames(), c.Format(), c.Bank().Name())
	}
	if _, err := e.NewClip("odd", make([]byte, 7), st48f); !errors.Is(err, ErrPCM) {
		t.Fatalf("odd length: %v", err)
	}
	if (Clip{}).Bank() != nil || (Clip{}).Frames() != 0 || (Clip{}).Format() != (Format{}) {
		t.Fatal("zero Clip accessors")
	}
	h, _ := e.Play(c, PlayDesc{})
	render(t, dev, 1024)
	if e.Playing(h) {
		t.Fatal("10 ms clip still playing after 21 ms")
	}
	// The manual device is not pulled: Release takes its stalled path.
	if err := c.Bank().Release(20 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
}

// TestStatsFields checks that every counter Stats reports moves with the
// work it counts, so a counter that is never updated cannot hide.
func TestStatsFields(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: 2, QueueSize: 8})
	_, a := clipOf(t, e, "a", mono44, tone(mono44, 4410, 440, 0.2), ClipDesc{})
	_, b := clipOf(t, e, "b", st48f, tone(st48f, 4800, 440, 0.2), ClipDesc{})
	ha, _ := e.Play(a, PlayDesc{Loop: true})
	if _, err := e.Play(b, PlayDesc{Loop: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Play(b, PlayDesc{}); !errors.Is(err, ErrNoVoice) {
		t.Fatalf("third voice with MaxVoices 2: %v", err)
	}
	time.Sleep(time.Millisecond) // a Play-to-mix delay no clock can miss
	render(t, dev, 4*DefaultBlockFrames)
	s := e.Stats()
	fa, fb := s.Formats[mono44.index()], s.Formats[st48f.index()]
	switch {
	case s.Active != 2 || s.Peak != 2 || s.Counted != 2 || s.MaxVoices != 2:
		t.Errorf("active %d peak %d counted %d max %d, want 2 2 2 2", s.Active, s.Peak, s.Counted, s.MaxVoices)
	case fa.Format != mono44 || fa.Active != 1 || fa.Peak != 1 || fb.Active != 1 || fb.Cap != 2:
		t.Errorf("per-format stats %+v %+v", fa, fb)
	case s.Refusals != 1 || s.Steals != 0 || s.QueueFull != 0 || s.Skipped != 0:
		t.Errorf("refusals %d steals %d queue-full %d skipped %d, want 1 0 0 0", s.Refusals, s.Steals, s.QueueFull, s.Skipped)
	case s.Blocks != 4 || s.Barrier.Passes != 4 || s.Device.Reads != 1 || s.Device.Name != "offline":
		t.Errorf("blocks %d barrier passes %d device %+v, want 4 blocks in 4 passes from 1 read", s.Blocks, s.Barrier.Passes, s.Device)
	case s.MixLast <= 0 || s.MixMax < s.MixLast || s.MixTotal < s.MixMax:
		t.Errorf("mix times last %v max %v total %v", s.MixLast, s.MixMax, s.MixTotal)
	case s.PlayToMixLast < time.Millisecond || s.PlayToMixMax < s.PlayToMixLast:
		t.Errorf("Play-to-mix last %v max %v", s.PlayToMixLast, s.PlayToMixMax)
	}
	if err := e.SetVolume(ha, 0.5); err != nil {
		t.Fatal(err)
	}
	// Nothing renders now: the queue of 8 fills.
	full := 0
	for i := 0; i < 10; i++ {
		if errors.Is(e.SetPan(ha, 0), ErrQueueFull) {
			full++
		}
	}
	if err := e.StopAll(20 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	s = e.Stats()
	if full != 3 || s.QueueFull != 3 {
		t.Errorf("queue full %d times, counted %d; want 3", full, s.QueueFull)
	}
	if s.Active != 0 || s.Counted != 0 || s.StopAllLast <= 0 || s.StopAllMax < s.StopAllLast || s.StopAlls != 1 || s.StopAllFallbacks != 1 {
		t.Errorf("after StopAll on the stalled device: active %d counted %d StopAll %v/%v StopAlls %d fallbacks %d",
			s.Active, s.Counted, s.StopAllLast, s.StopAllMax, s.StopAlls, s.StopAllFallbacks)
	}
	if s.Formats[mono44.index()].Peak != 1 || s.Peak != 2 {
		t.Errorf("peaks must survive StopAll: format %d total %d", s.Formats[mono44.index()].Peak, s.Peak)
	}
}
