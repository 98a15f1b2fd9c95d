package voices

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
	"time"
)

var mono48f = Format{Rate: 48000, Channels: 1, Encoding: EncodingFloat32LE}

// centre is a centred mono voice's gain on each side of a stereo device.
var centre = float32(math.Cos(math.Pi / 4))

// rampPCM returns frames frames of mono float32 whose frame i holds
// (i+1)/65536: every frame tells where in the clip it came from.
func rampPCM(frames int) []byte {
	b := make([]byte, 4*frames)
	for i := range frames {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(i+1)/65536))
	}
	return b
}

func dcPCM(f Format, frames int, v float64) []byte {
	b := make([]byte, frames*f.FrameBytes())
	fill(f, b, v)
	return b
}

// frameOf reads which ramp frame an output sample at gain g came from.
func frameOf(s, g float32) int { return int(math.Round(float64(s/g*65536))) - 1 }

func TestPauseResumesAtExactSample(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{})
	_, c := clipOf(t, e, "ramp", mono48f, rampPCM(20000), ClipDesc{})
	h, err := e.Play(c, PlayDesc{})
	if err != nil {
		t.Fatal(err)
	}
	renderMix(t, e, dev, 1024)
	if err := e.Pause(h); err != nil {
		t.Fatal(err)
	}
	l, _ := renderMix(t, e, dev, 1024)
	fade := DefaultFadeFrames
	for i, s := range l[fade:] {
		if s != 0 {
			t.Fatalf("paused voice sounds %d frames after its fade: %v", i, s)
		}
	}
	p, ok := e.Position(h)
	if !ok || p != 1024+int64(fade) {
		t.Fatalf("position of the paused voice %d %v, want %d", p, ok, 1024+fade)
	}
	renderMix(t, e, dev, 4096)
	if q, _ := e.Position(h); q != p || !e.Playing(h) {
		t.Fatalf("a paused voice moved from %d to %d (playing %v)", p, q, e.Playing(h))
	}
	if s := e.Stats(); s.Active != 1 {
		t.Fatalf("paused voice left the mix: active %d", s.Active)
	}
	if err := e.Resume(h); err != nil {
		t.Fatal(err)
	}
	l, _ = renderMix(t, e, dev, 1024)
	for j, s := range l {
		want := float32(p+int64(j)+1) / 65536 * centre
		if j >= fade && s != want {
			t.Fatalf("frame %d after Resume is %v, want ramp frame %d (%v): found frame %d", j, s, p+int64(j), want, frameOf(s, centre))
		}
		if g := float32(j+1) / float32(fade); j < fade && math.Abs(float64(s-want*g)) > 1e-6 {
			t.Fatalf("fade-in frame %d is %v, want %v", j, s, want*g)
		}
	}
}

func TestScheduledStartAndOffset(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{})
	_, c := clipOf(t, e, "ramp", mono48f, rampPCM(20000), ClipDesc{})
	renderMix(t, e, dev, 1024)
	if now := e.Clock(); now != 1024 {
		t.Fatalf("clock %d after rendering 1024 frames, want 1024", now)
	}
	for _, d := range []int64{1, 255, 256 + 77, 3000, -5000} {
		at := e.Clock() + d
		h, err := e.Play(c, PlayDesc{At: max(at, 0), Offset: 500})
		if err != nil {
			t.Fatal(err)
		}
		l, _ := renderMix(t, e, dev, 4096)
		first := -1
		for i, s := range l {
			if s != 0 {
				first = i
				break
			}
		}
		base := e.Clock() - 4096 // the clock frame of l[0]
		if d < 0 {
			at = base // a time already rendered: the next block
		}
		if got := base + int64(first); got != at {
			t.Errorf("voice scheduled at %d started at %d: %d frames off", at, got, got-at)
		}
		if f := frameOf(l[first], centre); f != 500 {
			t.Errorf("voice with Offset 500 started at clip frame %d", f)
		}
		if err := e.Stop(h); err != nil {
			t.Fatal(err)
		}
		renderMix(t, e, dev, 512)
	}
}

// dB is 20·log10 of a ratio.
func dB(x float64) float64 { return 20 * math.Log10(x) }

func TestFadeFollowsItsCurve(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{Events: 16})
	_, c := clipOf(t, e, "dc", mono48f, dcPCM(mono48f, 4800, 0.5), ClipDesc{})
	const fadeIn = 4800 // 100 ms
	h, err := e.Play(c, PlayDesc{Loop: true, FadeIn: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	l, _ := renderMix(t, e, dev, 8192)
	check := func(what string, l []float32, want func(j int) float64) {
		t.Helper()
		worst := 0.0
		for j, s := range l {
			w := want(j)
			if w < 0.5e-3 { // below -60 dB of the signal
				continue
			}
			worst = max(worst, math.Abs(dB(float64(s)/w)))
		}
		if worst > 0.1 {
			t.Errorf("%s strays %.3f dB from its curve (want <= 0.1)", what, worst)
		}
		t.Logf("%s: at most %.4f dB off its curve", what, worst)
	}
	amp := 0.5 * float64(centre)
	check("fade-in", l, func(j int) float64 { return amp * min(float64(j+1)/fadeIn, 1) })
	// Fade to a quarter over 70 ms (3360 frames, not a block multiple),
	// then stop.
	if err := e.Fade(h, 0.25, 70*time.Millisecond, AfterStop); err != nil {
		t.Fatal(err)
	}
	l, _ = renderMix(t, e, dev, 8192)
	check("fade to 0.25", l[:3360], func(j int) float64 { return amp * (1 - 0.75*float64(j+1)/3360) })
	if e.Playing(h) {
		t.Error("voice still playing after its fade with AfterStop")
	}
	if ev, ok := e.PollEvent(); !ok || ev.Kind != EventStopped || ev.Handle != h {
		t.Errorf("event after the fade %+v %v, want stopped %v", ev, ok, h)
	}
	for j, s := range l[3360+DefaultFadeFrames:] {
		if s != 0 {
			t.Fatalf("stopped voice sounds at %d: %v", j, s)
		}
	}
}

func TestBusFadeMutePause(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{Buses: []BusDesc{{Name: "world"}, {Name: "sfx", Parent: "world"}, {Name: "ui"}}})
	world, _ := e.Bus("world")
	sfx, _ := e.Bus("sfx")
	ui, _ := e.Bus("ui")
	if _, ok := e.Bus("nope"); ok {
		t.Fatal("unknown bus found")
	}
	_, c := clipOf(t, e, "dc", mono48f, dcPCM(mono48f, 4800, 0.25), ClipDesc{})
	_, r := clipOf(t, e, "ramp", mono48f, rampPCM(40000), ClipDesc{})
	// sfx: left only; ui: right only.
	if _, err := e.Play(c, PlayDesc{Loop: true, Bus: sfx, Pan: -1}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Play(c, PlayDesc{Loop: true, Bus: ui, Pan: 1}); err != nil {
		t.Fatal(err)
	}
	l, rr := renderMix(t, e, dev, 512)
	if l[511] != 0.25 || math.Abs(float64(rr[511]-0.25)) > 1e-6 {
		t.Fatalf("buses at unity: %v %v, want 0.25", l[511], rr[511])
	}
	// A fade of the parent bus reaches its child's voices, on its line.
	if err := e.FadeBus(world, 0.5, 60*time.Millisecond, AfterNone); err != nil {
		t.Fatal(err)
	}
	l, rr = renderMix(t, e, dev, 4096)
	for j := range 2880 {
		want := 0.25 * (1 - 0.5*float64(j+1)/2880)
		if math.Abs(dB(float64(l[j])/want)) > 0.1 {
			t.Fatalf("bus fade frame %d: %v, want %v", j, l[j], want)
		}
	}
	if l[4095] != 0.125 || math.Abs(float64(rr[4095]-0.25)) > 1e-6 {
		t.Fatalf("after the world fade: sfx %v ui %v, want 0.125 0.25", l[4095], rr[4095])
	}
	s := e.Stats()
	if s.NumBuses != 4 || s.Buses[sfx].Name != "sfx" || s.Buses[sfx].Voices != 1 || math.Abs(float64(s.Buses[world].Level-0.125)) > 1e-6 || s.Buses[world].Gain != 0.5 {
		t.Errorf("bus stats %+v", s.Buses[:s.NumBuses])
	}
	// Mute ui: silent after one block; its voice plays on.
	if err := e.MuteBus(ui, true); err != nil {
		t.Fatal(err)
	}
	_, rr = renderMix(t, e, dev, 512)
	if rr[255] != 0 || rr[511] != 0 || rr[0] == 0 {
		t.Fatalf("muted bus: %v %v %v, want a ramp to 0 within the block", rr[0], rr[255], rr[511])
	}
	if !e.Stats().Buses[ui].Muted {
		t.Error("Stats does not show the mute")
	}
	// Pause world (and with it sfx): a ramp voice on sfx resumes exactly.
	if err := e.MuteBus(ui, false); err != nil {
		t.Fatal(err)
	}
	if err := e.StopBus(sfx, 0); err != nil {
		t.Fatal(err)
	}
	h, err := e.Play(r, PlayDesc{Bus: sfx, Pan: -1}) // queued after the stop: not stopped
	if err != nil {
		t.Fatal(err)
	}
	renderMix(t, e, dev, 512)
	if !e.Playing(h) {
		t.Fatal("a voice played after StopBus was stopped")
	}
	if err := e.SetBusGain(world, 1); err != nil {
		t.Fatal(err)
	}
	renderMix(t, e, dev, 512)
	if err := e.PauseBus(world); err != nil {
		t.Fatal(err)
	}
	l, rr = renderMix(t, e, dev, 1024)
	// (ui's voice, panned right, leaks cos(π/2)·0.25 = 1.5e-17 left.)
	if l[255] > 1e-9 || l[1023] > 1e-9 || rr[1023] == 0 {
		t.Fatalf("paused world: sfx %v %v, ui %v", l[255], l[1023], rr[1023])
	}
	p, _ := e.Position(h)
	renderMix(t, e, dev, 2048)
	if q, _ := e.Position(h); q != p || p != 1024+256 {
		t.Fatalf("paused bus's voice at %d then %d, want 1280 both times", p, q)
	}
	if err := e.ResumeBus(world); err != nil {
		t.Fatal(err)
	}
	l, _ = renderMix(t, e, dev, 512)
	for j := 256; j < 512; j++ {
		if want := float32(p+int64(j)+1) / 65536; math.Abs(float64(l[j]-want)) > 1e-9 {
			t.Fatalf("frame %d after ResumeBus: %v, want ramp frame %d; got frame %d", j, l[j], p+int64(j), frameOf(l[j], 1))
		}
	}
	if err := e.PauseBus(Master); err != nil {
		t.Fatal(err)
	}
	renderMix(t, e, dev, 256)
	l, rr = renderMix(t, e, dev, 256)
	if peak(l) > 1e-9 || peak(rr) != 0 || !e.Stats().Buses[Master].Paused {
		t.Fatal("paused master bus still sounds")
	}
}

func TestDuckReachesDepthWithinAttack(t *testing.T) {
	const attack, release = 2400, 9600 // 50 and 200 ms
	e, dev := offlineEngine(t, EngineDesc{Buses: []BusDesc{
		{Name: "music", Duck: DuckDesc{By: "dialog", Depth: 12, Attack: 50 * time.Millisecond, Release: 200 * time.Millisecond}},
		{Name: "dialog"},
	}})
	music, _ := e.Bus("music")
	dialog, _ := e.Bus("dialog")
	_, dc := clipOf(t, e, "dc", mono48f, dcPCM(mono48f, 4800, 0.25), ClipDesc{})
	_, line := clipOf(t, e, "line", mono48f, dcPCM(mono48f, 12800, 0.25), ClipDesc{})
	if _, err := e.Play(dc, PlayDesc{Loop: true, Bus: music, Pan: -1}); err != nil {
		t.Fatal(err)
	}
	renderMix(t, e, dev, 1024)
	if _, err := e.Play(line, PlayDesc{Bus: dialog, Pan: 1}); err != nil {
		t.Fatal(err)
	}
	l, _ := renderMix(t, e, dev, 12800)
	depth := 0.25 * math.Pow(10, -12.0/20)
	if got := dB(float64(l[attack-1]) / depth); math.Abs(got) > 0.1 {
		t.Errorf("duck at the end of its attack is %.3f dB from its depth", got)
	}
	if got := dB(float64(l[attack/2-1]) / 0.25); math.Abs(got+6) > 0.1 {
		t.Errorf("duck halfway through its attack at %.3f dB, want -6 (linear in dB)", got)
	}
	if l[12799] != float32(depth) && math.Abs(dB(float64(l[12799])/depth)) > 0.01 {
		t.Errorf("duck held at %v, want %v", l[12799], depth)
	}
	// The line has ended: the music comes back within its release (and
	// the block that sees the silence).
	l, _ = renderMix(t, e, dev, release+512)
	if got := dB(float64(l[release+256]) / 0.25); math.Abs(got) > 0.1 {
		t.Errorf("music %.3f dB after the release, want 0", got)
	}
}

func TestBusCapAndEvents(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: 3, Policy: PolicySteal, Events: 64,
		Buses: []BusDesc{{Name: "ui", MaxVoices: 2}}})
	ui, _ := e.Bus("ui")
	_, short := clipOf(t, e, "short", mono48f, dcPCM(mono48f, 300, 0.1), ClipDesc{})
	_, long := clipOf(t, e, "long", mono48f, dcPCM(mono48f, 48000, 0.1), ClipDesc{})
	want := map[Handle]EventKind{}
	play := func(c Clip, d PlayDesc) Handle {
		t.Helper()
		h, err := e.Play(c, d)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	want[play(short, PlayDesc{Bus: ui})] = EventEnded
	want[play(long, PlayDesc{Bus: ui})] = EventStopped
	if _, err := e.Play(long, PlayDesc{Bus: ui}); err != ErrNoVoice {
		t.Fatalf("third voice on a bus capped at 2: %v", err)
	}
	if r := e.Stats().LastRefusal; r.Reason != reasons[reasonBusCap].text {
		t.Errorf("refusal %v", r)
	}
	renderMix(t, e, dev, 1024) // short ends
	h := play(long, PlayDesc{Bus: ui})
	if err := e.Stop(h); err != nil {
		t.Fatal(err)
	}
	want[h] = EventStopped
	stolen := play(long, PlayDesc{Priority: -1})
	want[stolen] = EventStolen
	renderMix(t, e, dev, 256)
	want[play(long, PlayDesc{})] = EventStopped
	want[play(long, PlayDesc{})] = EventStopped // steals the priority -1 voice
	renderMix(t, e, dev, 1024)
	if err := e.StopBus(Master, 0); err != nil {
		t.Fatal(err)
	}
	renderMix(t, e, dev, 1024)
	got := map[Handle]EventKind{}
	refused := 0
	for {
		ev, ok := e.PollEvent()
		if !ok {
			break
		}
		if ev.Handle == 0 {
			if ev.Kind != EventRefused || ev.Clip != long {
				t.Errorf("handle-less event %+v", ev)
			}
			refused++
			continue
		}
		if _, dup := got[ev.Handle]; dup {
			t.Errorf("%v reported twice", ev.Handle)
		}
		got[ev.Handle] = ev.Kind
	}
	if refused != 1 {
		t.Errorf("%d refusal events, want 1", refused)
	}
	for h, k := range want {
		if got[h] != k {
			t.Errorf("voice %v: event %v, want %v", h, got[h], k)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d events for %d voices", len(got), len(want))
	}
	s := e.Stats()
	if s.Refusals != 1 || s.Buses[ui].Voices != 0 || s.EventsDropped != 0 {
		t.Errorf("refusals %d, ui voices %d, dropped %d", s.Refusals, s.Buses[ui].Voices, s.EventsDropped)
	}
}

func TestBusDescErrors(t *testing.T) {
	for _, bs := range [][]BusDesc{
		{{Name: ""}},
		{{Name: "master"}},
		{{Name: "a"}, {Name: "a"}},
		{{Name: "a", Parent: "b"}, {Name: "b"}},
		{{Name: "a", MaxVoices: -1}},
		{{Name: "a", Duck: DuckDesc{By: "a", Depth: 6, Attack: 1, Release: 1}}},
		{{Name: "a", Duck: DuckDesc{By: "master", Depth: 0, Attack: 1, Release: 1}}},
		{{Name: "a", Duck: DuckDesc{By: "master", Depth: 6}}},
		make([]BusDesc, MaxBuses),
	} {
		if _, err := NewEngine(EngineDesc{Device: NewOffline(OfflineDesc{}), Buses: bs}); !errors.Is(err, ErrInvalid) {
			t.Errorf("buses %+v: %v, want ErrInvalid", bs, err)
		}
	}
	e, _ := offlineEngine(t, EngineDesc{})
	_, c := clipOf(t, e, "dc", mono48f, dcPCM(mono48f, 100, 0.1), ClipDesc{})
	for _, d := range []PlayDesc{{Bus: 1}, {Offset: 100}, {Offset: -1}, {FadeIn: -1}, {At: -1}} {
		if _, err := e.Play(c, d); !errors.Is(err, ErrInvalid) {
			t.Errorf("Play %+v: %v, want ErrInvalid", d, err)
		}
	}
	if err := e.PauseBus(3); !errors.Is(err, ErrInvalid) {
		t.Errorf("PauseBus of an undeclared bus: %v", err)
	}
}
