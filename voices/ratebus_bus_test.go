package voices

import (
	"testing"
)

// TestRateBusFollowsItsEngineBus: sinc voices resampled on a shared rate
// bus still mix into their own engine bus, so that bus's mute and pause
// reach them, and a voice on another bus of the same source rate plays on.
func TestRateBusFollowsItsEngineBus(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{Resampler: ResamplerSinc, Buses: []BusDesc{{Name: "sfx"}, {Name: "ui"}}})
	sfx, _ := e.Bus("sfx")
	ui, _ := e.Bus("ui")
	f := Format{Rate: 44100, Channels: 1, Encoding: EncodingFloat32LE}
	_, c := clipOf(t, e, "dc", f, dcPCM(f, 4410, 0.25), ClipDesc{})
	if _, err := e.Play(c, PlayDesc{Loop: true, Bus: sfx, Pan: -1}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Play(c, PlayDesc{Loop: true, Bus: ui, Pan: 1}); err != nil {
		t.Fatal(err)
	}
	l, r := renderMix(t, e, dev, 4096)
	if peak(l[2048:]) < 0.1 || peak(r[2048:]) < 0.1 {
		t.Fatalf("both buses should sound: sfx %v ui %v", peak(l[2048:]), peak(r[2048:]))
	}
	if err := e.MuteBus(sfx, true); err != nil {
		t.Fatal(err)
	}
	l, r = renderMix(t, e, dev, 4096)
	if peak(l[1024:]) > 1e-6 || peak(r[1024:]) < 0.1 {
		t.Fatalf("muted sfx: sfx %v (want silence), ui %v (want sound)", peak(l[1024:]), peak(r[1024:]))
	}
	if err := e.MuteBus(sfx, false); err != nil {
		t.Fatal(err)
	}
	if err := e.PauseBus(ui); err != nil {
		t.Fatal(err)
	}
	l, r = renderMix(t, e, dev, 4096)
	if peak(l[1024:]) < 0.1 || peak(r[1024:]) > 1e-6 {
		t.Fatalf("paused ui: sfx %v (want sound), ui %v (want silence)", peak(l[1024:]), peak(r[1024:]))
	}
	if s := e.Stats(); s.Buses[sfx].Level < 0.1 {
		t.Errorf("sfx's level %v does not show its resampled voice", s.Buses[sfx].Level)
	}
}
