package voices

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// alGain is the OpenAL 1.1 specification's distance equation for model
// m (section 3.4.2 to 3.4.4, transcribed as written), clamped to the
// default AL_MIN_GAIN 0 and AL_MAX_GAIN 1. Where an inverse model's
// denominator is not positive (inside half the reference distance with a
// rolloff of 2) the spec's gain is negative or infinite: there, as
// OpenAL Soft does, the gain is 1.
func alGain(m DistanceModel, distance, ref, maxd, rolloff float64) float64 {
	gain := 1.0
	switch m {
	case DistanceInverseClamped:
		distance = math.Min(math.Max(distance, ref), maxd)
		fallthrough
	case DistanceInverse:
		if den := ref + rolloff*(distance-ref); den > 0 {
			gain = ref / den
		}
	case DistanceLinearClamped:
		distance = math.Max(distance, ref)
		fallthrough
	case DistanceLinear:
		distance = math.Min(distance, maxd)
		gain = 1 - rolloff*(distance-ref)/(maxd-ref)
	case DistanceExponentClamped:
		distance = math.Min(math.Max(distance, ref), maxd)
		fallthrough
	case DistanceExponent:
		gain = math.Pow(distance/ref, -rolloff)
	}
	return math.Min(math.Max(gain, 0), 1)
}

// alCone is the specification's cone equation (section 3.4.5) for a
// source at src facing dir and a listener at lis.
func alCone(src, dir, lis Vec3, inner, outer, outerGain float64) float64 {
	if dir == (Vec3{}) {
		return 1
	}
	tx, ty, tz := float64(lis.X-src.X), float64(lis.Y-src.Y), float64(lis.Z-src.Z)
	dx, dy, dz := float64(dir.X), float64(dir.Y), float64(dir.Z)
	c := (tx*dx + ty*dy + tz*dz) / math.Sqrt(tx*tx+ty*ty+tz*tz) / math.Sqrt(dx*dx+dy*dy+dz*dz)
	angle := math.Acos(math.Max(-1, math.Min(1, c))) * 180 / math.Pi
	switch {
	case angle <= inner/2:
		return 1
	case angle >= outer/2:
		return outerGain
	}
	return 1 + (outerGain-1)*(angle-inner/2)/(outer/2-inner/2)
}

func dist(a, b Vec3) float64 {
	x, y, z := float64(a.X-b.X), float64(a.Y-b.Y), float64(a.Z-b.Z)
	return math.Sqrt(x*x + y*y + z*z)
}

// levels renders two blocks and returns the left and right level of the
// last frame: a DC voice's gains once its ramp has ended.
func levels(t *testing.T, dev *Offline, block int) (float64, float64) {
	t.Helper()
	l, r := render(t, dev, 2*block)
	return float64(l[len(l)-1]), float64(r[len(r)-1])
}

// TestSpatialGainsMatchSpec: a DC voice moved to many positions, for
// every distance model with several distance settings (the engine's and
// the voice's own) and with a cone, mixes at the specification's gain
// within 1e-4: the measured gain is the length of the (left, right)
// level pair, which constant-power panning keeps at the gain.
func TestSpatialGainsMatchSpec(t *testing.T) {
	const dc, block = 0.5, 256
	rng := rand.New(rand.NewPCG(19, 2))
	rnd := func(s float64) float32 { return float32(s * (2*rng.Float64() - 1)) }
	lis := Listener{Position: Vec3{X: 1, Y: 2, Z: 3}, Forward: Vec3{X: 1, Z: -1}, Up: Vec3{Y: 1}}
	type setting struct{ ref, max, rolloff float32 }
	settings := []setting{{2, 25, 1}, {1, 100, 0.5}, {3, 12, 2}, {0.5, 40, 1.5}}
	cone := Cone{Direction: Vec3{X: 1, Y: 0.5, Z: 0}, Inner: 60, Outer: 220, OuterGain: 0.2}
	worst := 0.0
	for m := DistanceInverseClamped; m <= DistanceNone; m++ {
		for si, s := range settings {
			for _, perVoice := range []bool{false, true} {
				for _, withCone := range []bool{false, true} {
					ed := EngineDesc{Formats: []Format{mono48f}, BlockFrames: block, DistanceModel: m}
					sp := Spatial{}
					if perVoice {
						sp.RefDistance, sp.MaxDistance, sp.Rolloff = s.ref, s.max, s.rolloff
					} else {
						ed.RefDistance, ed.MaxDistance, ed.Rolloff = s.ref, s.max, s.rolloff
					}
					if withCone {
						sp.Cone = cone
					}
					e, dev := offlineEngine(t, ed)
					_, c := clipOf(t, e, "dc", mono48f, dcPCM(mono48f, 4800, dc), ClipDesc{})
					if err := e.SetListener(lis); err != nil {
						t.Fatal(err)
					}
					sp.Position = Vec3{X: 1, Y: 2, Z: 1}
					h, err := e.Play(c, PlayDesc{Loop: true, Spatial: &sp})
					if err != nil {
						t.Fatal(err)
					}
					for i := range 24 {
						// Distances from 0 to about 60, a few inside the
						// reference distance.
						scale := []float64{0.3, 2, 8, 35}[i%4]
						pos := Vec3{X: lis.Position.X + rnd(scale), Y: lis.Position.Y + rnd(scale), Z: lis.Position.Z + rnd(scale)}
						if err := e.SetPosition(h, pos, Vec3{}); err != nil {
							t.Fatal(err)
						}
						l, r := levels(t, dev, block)
						got := math.Hypot(l, r) / dc
						want := alGain(m, dist(pos, lis.Position), float64(s.ref), float64(s.max), float64(s.rolloff))
						if withCone {
							want *= alCone(pos, cone.Direction, lis.Position, 60, 220, 0.2)
						}
						worst = max(worst, math.Abs(got-want))
						if math.Abs(got-want) > 1e-4 {
							t.Errorf("%v setting %d perVoice %v cone %v at distance %.3f: gain %.6f, spec %.6f",
								m, si, perVoice, withCone, dist(pos, lis.Position), got, want)
						}
					}
				}
			}
		}
	}
	t.Logf("worst difference from the spec: %.2g", worst)
}

// TestSpatialPan: a source on the listener's right is louder on the
// right, for the default listener, one turned to face +x, and one upside
// down; straight ahead is centred; the pan is constant power.
func TestSpatialPan(t *testing.T) {
	const dc, block = 0.5, 256
	for _, c := range []struct {
		name        string
		lis         Listener
		right, left Vec3
	}{
		{"default", Listener{}, Vec3{X: 3}, Vec3{X: -3}},
		{"facing +x", Listener{Forward: Vec3{X: 1}, Up: Vec3{Y: 1}}, Vec3{Z: 3}, Vec3{Z: -3}},
		{"upside down", Listener{Forward: Vec3{Z: -1}, Up: Vec3{Y: -1}}, Vec3{X: -3}, Vec3{X: 3}},
		{"moved and turned", Listener{Position: Vec3{X: 10, Z: 10}, Forward: Vec3{X: -1}, Up: Vec3{Y: 1}}, Vec3{X: 10, Z: 7}, Vec3{X: 10, Z: 13}},
	} {
		e, dev := offlineEngine(t, EngineDesc{Formats: []Format{mono48f}, BlockFrames: block, DistanceModel: DistanceNone})
		_, clip := clipOf(t, e, "dc", mono48f, dcPCM(mono48f, 4800, dc), ClipDesc{})
		if err := e.SetListener(c.lis); err != nil {
			t.Fatal(err)
		}
		h, err := e.Play(clip, PlayDesc{Loop: true, Spatial: &Spatial{Position: c.right}})
		if err != nil {
			t.Fatal(err)
		}
		l, r := levels(t, dev, block)
		if !(r > 0.49 && l < 0.01) {
			t.Errorf("%s: a source on the right at %v plays left %.4f, right %.4f", c.name, c.right, l, r)
		}
		_ = e.SetPosition(h, c.left, Vec3{})
		l, r = levels(t, dev, block)
		if !(l > 0.49 && r < 0.01) {
			t.Errorf("%s: a source on the left at %v plays left %.4f, right %.4f", c.name, c.left, l, r)
		}
		ahead := Vec3{X: c.lis.Position.X + 2*c.lis.Forward.X, Y: c.lis.Position.Y, Z: c.lis.Position.Z + 2*c.lis.Forward.Z}
		if c.lis.Forward == (Vec3{}) {
			ahead = Vec3{Z: -2}
		}
		_ = e.SetPosition(h, ahead, Vec3{})
		l, r = levels(t, dev, block)
		if math.Abs(l-r) > 1e-6 || math.Abs(math.Hypot(l, r)-dc) > 1e-6 {
			t.Errorf("%s: a source ahead plays left %.6f, right %.6f, want equal at power %v", c.name, l, r, dc)
		}
	}
}

// TestSpatialDoppler: a 1 kHz tone from a source moving at a known
// velocity (its position moved every block to match) plays at OpenAL's
// doppler frequency within 0.5%, measured from the samples' zero
// crossings; a pitched voice's own pitch multiplies the shift, and
// SetPitch changes it.
func TestSpatialDoppler(t *testing.T) {
	const block, ss = 256, 343.3
	for _, c := range []struct {
		name           string
		factor         float32
		pitch          float32
		srcVel, lisVel Vec3
		want           float64 // the ratio by OpenAL's equation
	}{
		{"source approaching", 1, 0, Vec3{Z: 30}, Vec3{}, ss / (ss - 30)},
		{"source leaving", 1, 0, Vec3{Z: -40}, Vec3{}, ss / (ss + 40)},
		{"listener approaching, factor 2", 2, 0, Vec3{}, Vec3{Z: -10}, (ss + 2*10) / ss},
		{"both, pitch 1.5", 1, 1.5, Vec3{Z: 20}, Vec3{Z: 25}, 1.5 * (ss - 25) / (ss - 20)},
		// vss clamped to the speed of sound: an infinite ratio, played at
		// MaxPitch.
		{"source past the speed of sound", 1, 0, Vec3{Z: 400}, Vec3{}, MaxPitch},
	} {
		e, dev := offlineEngine(t, EngineDesc{Formats: []Format{mono48f}, BlockFrames: block,
			DopplerFactor: c.factor, DistanceModel: DistanceNone})
		_, clip := clipOf(t, e, "tone", mono48f, tone(mono48f, 48000, 1000, 0.5), ClipDesc{})
		src, lis := Vec3{Z: -1000}, Vec3{}
		if err := e.SetListener(Listener{Position: lis, Velocity: c.lisVel}); err != nil {
			t.Fatal(err)
		}
		h, err := e.Play(clip, PlayDesc{Loop: true, Pitch: c.pitch, Spatial: &Spatial{Position: src, Velocity: c.srcVel}})
		if err != nil {
			t.Fatal(err)
		}
		var x []float32
		dt := float32(block) / 48000
		for range 48000 / block {
			l, _ := render(t, dev, block)
			x = append(x, l...)
			src.Z += c.srcVel.Z * dt
			lis.Z += c.lisVel.Z * dt
			_ = e.SetPosition(h, src, c.srcVel)
			_ = e.SetListener(Listener{Position: lis, Velocity: c.lisVel})
		}
		hz := frequency(x[2400:], 48000)
		t.Logf("%s: %.3f Hz, theory %.3f Hz", c.name, hz, 1000*c.want)
		if math.Abs(hz/(1000*c.want)-1) > 0.005 {
			t.Errorf("%s: %.3f Hz, want %.3f within 0.5%%", c.name, hz, 1000*c.want)
		}
		if c.pitch != 0 {
			if err := e.SetPitch(h, 1); err != nil {
				t.Fatal(err)
			}
			render(t, dev, 2*block)
			l, _ := render(t, dev, 24000)
			want := 1000 * c.want / float64(c.pitch)
			if hz := frequency(l, 48000); math.Abs(hz/want-1) > 0.005 {
				t.Errorf("%s after SetPitch(1): %.3f Hz, want %.3f within 0.5%%", c.name, hz, want)
			}
		}
	}
}

// TestSpatialNoZipper: a source circling the listener while it comes
// closer, moved every block, leaves a smooth gain: each frame's step is
// the block's change spread over the block, not the change at once.
func TestSpatialNoZipper(t *testing.T) {
	const dc, block = 0.5, 256
	for _, f := range []Format{mono48f, {Rate: 44100, Channels: 1, Encoding: EncodingFloat32LE}} {
		e, dev := offlineEngine(t, EngineDesc{Formats: []Format{f}, BlockFrames: block, RefDistance: 0.5})
		_, clip := clipOf(t, e, "dc", f, dcPCM(f, 4410, dc), ClipDesc{})
		pos := func(i int) Vec3 {
			a, r := float64(i)*0.2, 4-float64(i)*0.018
			return Vec3{X: float32(r * math.Sin(a)), Z: float32(-r * math.Cos(a))}
		}
		h, err := e.Play(clip, PlayDesc{Loop: true, Spatial: &Spatial{Position: pos(0)}})
		if err != nil {
			t.Fatal(err)
		}
		render(t, dev, 8*block) // past the resampler's onset
		var l, r []float32
		for i := 1; i < 200; i++ {
			_ = e.SetPosition(h, pos(i), Vec3{})
			bl, br := render(t, dev, block)
			l, r = append(l, bl...), append(r, br...)
		}
		var blockStep, frameStep float64
		for _, x := range [][]float32{l, r} {
			for i := block; i < len(x); i++ {
				frameStep = max(frameStep, math.Abs(float64(x[i]-x[i-1])))
				if i%block == 0 {
					blockStep = max(blockStep, math.Abs(float64(x[i]-x[i-block])))
				}
			}
		}
		t.Logf("%v: worst step per frame %.3g, per block %.3g", f, frameStep, blockStep)
		if blockStep < 0.005 {
			t.Fatalf("%v: the gain hardly moved (%.3g a block): the test proves nothing", f, blockStep)
		}
		if frameStep > 1.5*blockStep/block+1e-6 {
			t.Errorf("%v: worst step per frame %.3g, want at most 1.5 × the block's %.3g / %d", f, frameStep, blockStep, block)
		}
	}
}

// TestSpatialAllocs: SetListener, SetPosition, SetDirection, Play with a
// Spatial (and doppler) and the mix of positioned voices allocate
// nothing.
func TestSpatialAllocs(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{QueueSize: 4096, DopplerFactor: 1})
	_, c := clipOf(t, e, "tone", mono44, tone(mono44, 4410, 440, 0.5), ClipDesc{})
	_, cl := clipOf(t, e, "loop", mono48f, tone(mono48f, 4800, 440, 0.1), ClipDesc{})
	hs := make([]Handle, 8)
	for i := range hs {
		h, err := e.Play(cl, PlayDesc{Loop: true, Spatial: &Spatial{Position: Vec3{X: float32(i)}, Velocity: Vec3{Z: 3}}})
		if err != nil {
			t.Fatal(err)
		}
		hs[i] = h
	}
	buf := make([]byte, 1024*8)
	sp := Spatial{Position: Vec3{X: 2, Z: -3}, Cone: Cone{Direction: Vec3{X: -1}, Inner: 90, Outer: 180, OuterGain: 0.3}}
	x := float32(0)
	wantNoAllocs(t, "SetListener+Play with Spatial+SetPosition+SetDirection+mix", func() {
		x += 0.1
		_ = e.SetListener(Listener{Position: Vec3{X: x}, Forward: Vec3{Z: -1}, Up: Vec3{Y: 1}, Velocity: Vec3{X: 1}})
		h, err := e.Play(c, PlayDesc{Spatial: &sp})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hs {
			_ = e.SetPosition(h, Vec3{X: x, Z: -2}, Vec3{X: 1})
		}
		_ = e.SetDirection(hs[0], Vec3{X: x, Z: 1})
		_ = e.Stop(h)
		_, _ = dev.Render(buf)
	})
}

// TestSpatialErrors: bad 3D settings are refused with ErrInvalid naming
// them, and SetPosition of an unpositioned voice with ErrNotSpatial.
func TestSpatialErrors(t *testing.T) {
	for _, d := range []EngineDesc{
		{DistanceModel: DistanceNone + 1}, {RefDistance: -1}, {RefDistance: 5, MaxDistance: 2},
		{Rolloff: float32(math.NaN())}, {DopplerFactor: -1}, {SpeedOfSound: -3},
	} {
		d.Device = NewOffline(OfflineDesc{})
		if e, err := NewEngine(d); !errors.Is(err, ErrInvalid) {
			if e != nil {
				_ = e.Close()
			}
			t.Errorf("NewEngine(%+v): %v, want ErrInvalid", d, err)
		}
	}
	e, _ := offlineEngine(t, EngineDesc{MaxDistance: 10})
	_, c := clipOf(t, e, "tone", mono48f, tone(mono48f, 4800, 440, 0.1), ClipDesc{})
	nan := float32(math.NaN())
	for _, s := range []Spatial{
		{Position: Vec3{X: nan}}, {Velocity: Vec3{Y: float32(math.Inf(1))}},
		{Cone: Cone{Direction: Vec3{X: 1}, Inner: 90, Outer: 60}}, {Cone: Cone{Direction: Vec3{X: 1}, Outer: 400}},
		{Cone: Cone{Direction: Vec3{X: 1}, OuterGain: 2}}, {RefDistance: 20}, {Rolloff: -1},
	} {
		if _, err := e.Play(c, PlayDesc{Spatial: &s}); !errors.Is(err, ErrInvalid) {
			t.Errorf("Play with %+v: %v, want ErrInvalid", s, err)
		}
	}
	for _, l := range []Listener{{Forward: Vec3{Z: -1}}, {Forward: Vec3{Y: 1}, Up: Vec3{Y: 2}}, {Position: Vec3{X: nan}}} {
		if err := e.SetListener(l); !errors.Is(err, ErrInvalid) {
			t.Errorf("SetListener(%+v): %v, want ErrInvalid", l, err)
		}
	}
	h, err := e.Play(c, PlayDesc{Loop: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetPosition(h, Vec3{}, Vec3{}); err != ErrNotSpatial {
		t.Errorf("SetPosition of an unpositioned voice: %v, want ErrNotSpatial", err)
	}
	if err := e.SetPosition(0, Vec3{}, Vec3{}); err != ErrStaleHandle {
		t.Errorf("SetPosition of the zero Handle: %v, want ErrStaleHandle", err)
	}
	if err := e.SetPosition(h, Vec3{Z: nan}, Vec3{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("SetPosition to NaN: %v, want ErrInvalid", err)
	}
}

// TestSpatialDirection: SetDirection turns a cone: a listener ahead of
// the source hears it at full gain, then at the outer gain once the
// source faces away. A voice played without a cone stays
// omnidirectional.
func TestSpatialDirection(t *testing.T) {
	const dc, block = 0.5, 256
	e, dev := offlineEngine(t, EngineDesc{Formats: []Format{mono48f}, BlockFrames: block, DistanceModel: DistanceNone})
	_, clip := clipOf(t, e, "dc", mono48f, dcPCM(mono48f, 4800, dc), ClipDesc{})
	src := Vec3{Z: -5} // ahead of the default listener
	h, err := e.Play(clip, PlayDesc{Loop: true, Spatial: &Spatial{Position: src,
		Cone: Cone{Direction: Vec3{Z: 1}, Inner: 90, Outer: 180, OuterGain: 0.25}}})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := e.Play(clip, PlayDesc{Loop: true, Volume: 0.001, Spatial: &Spatial{Position: src}})
	if err != nil {
		t.Fatal(err)
	}
	gain := func() float64 { l, r := levels(t, dev, block); return math.Hypot(l, r) / dc }
	if g := gain(); math.Abs(g-1.001) > 1e-4 {
		t.Errorf("facing the listener: gain %.5f, want 1.001", g)
	}
	if err := e.SetDirection(h, Vec3{Z: -1}); err != nil {
		t.Fatal(err)
	}
	if err := e.SetDirection(plain, Vec3{Z: -1}); err != nil {
		t.Fatal(err)
	}
	if g := gain(); math.Abs(g-0.251) > 1e-4 {
		t.Errorf("facing away: gain %.5f, want 0.25 + 0.001 from the voice without a cone", g)
	}
	if err := e.SetDirection(h, Vec3{X: float32(math.NaN())}); !errors.Is(err, ErrInvalid) {
		t.Errorf("SetDirection to NaN: %v, want ErrInvalid", err)
	}
}

// TestSpatialLayouts: the 3D gain reaches every path a voice may take:
// a stereo clip (panned by balance), a resampled clip on its rate's
// shared filter, a mono device, and a Play placed by StartLatency.
func TestSpatialLayouts(t *testing.T) {
	const dc, block = 0.5, 256
	stereo48 := Format{Rate: 48000, Channels: 2, Encoding: EncodingFloat32LE}
	mono44f := Format{Rate: 44100, Channels: 1, Encoding: EncodingFloat32LE}
	monoDev := Format{Rate: 48000, Channels: 1, Encoding: EncodingFloat32LE}
	src := Vec3{X: 3, Z: -4} // distance 5, pan 0.6
	att := alGain(DistanceInverseClamped, 5, 1, math.Inf(1), 1)
	a := (0.6 + 1) * math.Pi / 4
	for _, c := range []struct {
		name         string
		clip, device Format
		latency      bool
		wantL, wantR float64
	}{
		{"stereo clip", stereo48, Format{}, false, att * 0.4, att},
		{"resampled clip", mono44f, Format{}, false, att * math.Cos(a), att * math.Sin(a)},
		{"mono device", mono48f, monoDev, false, att, att},
		{"StartLatency", mono48f, Format{}, true, att * math.Cos(a), att * math.Sin(a)},
	} {
		d := EngineDesc{Formats: []Format{c.clip}, BlockFrames: block, Format: c.device}
		if c.latency {
			d.StartLatency = 3 * time.Millisecond
		}
		e, dev := offlineEngine(t, d)
		_, clip := clipOf(t, e, "dc", c.clip, dcPCM(c.clip, 4410, dc), ClipDesc{})
		if _, err := e.Play(clip, PlayDesc{Loop: true, Spatial: &Spatial{Position: src}}); err != nil {
			t.Fatal(err)
		}
		var l, r float64
		if c.device == monoDev {
			b := make([]byte, 8*block*4)
			if _, err := dev.Render(b); err != nil {
				t.Fatal(err)
			}
			l = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[len(b)-4:])))
			r = l
		} else {
			render(t, dev, 6*block) // past the resampler's onset and the latency
			l, r = levels(t, dev, block)
		}
		if math.Abs(l/dc-c.wantL) > 1e-4 || math.Abs(r/dc-c.wantR) > 1e-4 {
			t.Errorf("%s: gains %.6f, %.6f, want %.6f, %.6f", c.name, l/dc, r/dc, c.wantL, c.wantR)
		}
	}
}
