package spatial

import (
	"math"
	"math/rand/v2"
	"testing"
)

// specGain is the OpenAL 1.1 specification's pseudo-code for each
// distance model (section 3.4), transcribed as written, then clamped to
// the default AL_MIN_GAIN and AL_MAX_GAIN.
func specGain(m Model, distance, ref, maxd, rolloff float64) float64 {
	var gain float64
	switch m {
	case Inverse:
		gain = ref / (ref + rolloff*(distance-ref))
	case InverseClamped:
		distance = math.Max(distance, ref)
		distance = math.Min(distance, maxd)
		gain = ref / (ref + rolloff*(distance-ref))
	case Linear:
		distance = math.Min(distance, maxd)
		gain = 1 - rolloff*(distance-ref)/(maxd-ref)
	case LinearClamped:
		distance = math.Max(distance, ref)
		distance = math.Min(distance, maxd)
		gain = 1 - rolloff*(distance-ref)/(maxd-ref)
	case Exponent:
		gain = math.Pow(distance/ref, -rolloff)
	case ExponentClamped:
		distance = math.Max(distance, ref)
		distance = math.Min(distance, maxd)
		gain = math.Pow(distance/ref, -rolloff)
	case None:
		gain = 1
	}
	return math.Min(math.Max(gain, 0), 1)
}

// TestGainMatchesSpec: every model, at distances from inside the
// reference distance to past the maximum, with several rolloffs, agrees
// with the specification's pseudo-code.
func TestGainMatchesSpec(t *testing.T) {
	for m := InverseClamped; m <= None; m++ {
		for _, s := range []Distance{{1, 100, 1}, {2, 20, 0.5}, {0.5, 10, 1}, {3, 50, 0}, {1, 1000, 3}} {
			for d := 0.25; d < 200; d *= 1.17 {
				if (m == Inverse) && float64(s.Ref)+float64(s.Rolloff)*(d-float64(s.Ref)) <= 0 {
					continue // the spec's gain is negative or infinite here; ours is 1 (TestGainShapes)
				}
				got, want := Gain(m, d, s), specGain(m, d, float64(s.Ref), float64(s.Max), float64(s.Rolloff))
				if math.Abs(got-want) > 1e-12 {
					t.Errorf("%v %+v at %.3f: gain %.6f, spec %.6f", m, s, d, got, want)
				}
			}
		}
	}
}

// TestGainShapes: clamped models hold 1 inside Ref and stop falling past
// Max; the plain inverse model keeps falling past Max; linear reaches 0
// at Max with rolloff 1.
func TestGainShapes(t *testing.T) {
	s := Distance{Ref: 2, Max: 10, Rolloff: 1}
	if g := Gain(InverseClamped, 1, s); g != 1 {
		t.Errorf("inverse-clamped inside Ref: %v, want 1", g)
	}
	if a, b := Gain(InverseClamped, 10, s), Gain(InverseClamped, 50, s); a != b {
		t.Errorf("inverse-clamped past Max: %v then %v, want equal", a, b)
	}
	if a, b := Gain(Inverse, 10, s), Gain(Inverse, 50, s); !(b < a) {
		t.Errorf("inverse past Max: %v then %v, want falling", a, b)
	}
	if g := Gain(LinearClamped, 10, s); g != 0 {
		t.Errorf("linear at Max: %v, want 0", g)
	}
	if g := Gain(Inverse, 1, Distance{Ref: 2, Max: 10, Rolloff: 4}); g != 1 {
		t.Errorf("inverse with a non-positive denominator: %v, want 1", g)
	}
	if Model(7).Valid() || Model(7).String() != "Model(7)" || LinearClamped.String() != "linear-clamped" {
		t.Errorf("names: %v %v", Model(7), LinearClamped)
	}
}

// specCone is the specification's cone equation, with the angle between
// the source's direction and the source-to-listener vector.
func specCone(angle, inner, outer, outerGain float64) float64 {
	switch {
	case angle <= inner/2:
		return 1
	case angle >= outer/2:
		return outerGain
	}
	return 1 + (outerGain-1)*(angle-inner/2)/(outer/2-inner/2)
}

// TestConeMatchesSpec: a listener walked around a directional source
// hears the specification's cone gain at every angle.
func TestConeMatchesSpec(t *testing.T) {
	src := Vec3{1, 2, 3}
	c := Cone{Direction: Vec3{0, 0, -2}, Inner: 60, Outer: 200, OuterGain: 0.25}
	for a := 0.0; a <= 180; a += 2.5 {
		r := a * math.Pi / 180
		lis := Vec3{src.X + float32(5*math.Sin(r)), src.Y, src.Z - float32(5*math.Cos(r))}
		got, want := ConeGain(c, src, lis), specCone(a, 60, 200, 0.25)
		if math.Abs(got-want) > 1e-5 {
			t.Errorf("at %v°: cone gain %.6f, spec %.6f", a, got, want)
		}
	}
	if g := ConeGain(Cone{Inner: 10, Outer: 20}, src, Vec3{}); g != 1 {
		t.Errorf("no direction: %v, want 1", g)
	}
}

// TestPan: the default listener hears +x on the right; a listener
// turned to face +x hears -z... on its left, and +z on its right.
func TestPan(t *testing.T) {
	def := BasisOf(Listener{})
	if p := Pan(def, Vec3{5, 0, 0}, Vec3{}); math.Abs(p-1) > 1e-12 {
		t.Errorf("+x for the default listener: pan %v, want 1", p)
	}
	if p := Pan(def, Vec3{0, 0, -5}, Vec3{}); p != 0 {
		t.Errorf("ahead: pan %v, want 0", p)
	}
	turned := BasisOf(Listener{Forward: Vec3{1, 0, 0}, Up: Vec3{0, 1, 0}})
	if p := Pan(turned, Vec3{0, 0, 5}, Vec3{}); math.Abs(p-1) > 1e-12 {
		t.Errorf("+z for a listener facing +x: pan %v, want 1", p)
	}
	if p := Pan(turned, Vec3{3, 0, -3}, Vec3{}); math.Abs(p+math.Sqrt(0.5)) > 1e-9 {
		t.Errorf("ahead-left at 45° for a listener facing +x: pan %v, want %v", p, -math.Sqrt(0.5))
	}
	if b := BasisOf(Listener{Forward: Vec3{0, 1, 0}, Up: Vec3{0, 2, 0}}); b != def {
		t.Errorf("parallel forward and up: %+v, want the default %+v", b, def)
	}
}

// TestRatioMatchesSpec: random positions and velocities give the
// specification's doppler ratio, and the velocities are clamped.
func TestRatioMatchesSpec(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	v := func(s float64) Vec3 {
		return Vec3{float32(s * (rng.Float64()*2 - 1)), float32(s * (rng.Float64()*2 - 1)), float32(s * (rng.Float64()*2 - 1))}
	}
	d := Doppler{Factor: 1.5, SpeedOfSound: 343.3}
	for range 1000 {
		src, lis, sv, lv := v(50), v(50), v(100), v(100)
		sl := of(lis).sub(of(src))
		ss, df := float64(float32(343.3)), 1.5
		vls := math.Min(of(lv).dot(sl)/sl.len(), ss/df)
		vss := math.Min(of(sv).dot(sl)/sl.len(), ss/df)
		want := (ss - df*vls) / (ss - df*vss)
		if got := Ratio(d, src, sv, lis, lv); math.Abs(got-want) > 1e-9*want {
			t.Fatalf("ratio %.9f, spec %.9f", got, want)
		}
	}
	// A source toward the listener faster than sound is clamped to it.
	if r := Ratio(Doppler{1, 343.3}, Vec3{}, Vec3{0, 0, 1000}, Vec3{0, 0, 10}, Vec3{}); !math.IsInf(r, 1) {
		t.Errorf("a source at the speed of sound: %v, want +Inf for the caller to clamp", r)
	}
	// A listener leaving faster than sound is clamped to it: ratio 0.
	if r := Ratio(Doppler{1, 343.3}, Vec3{0, 0, 10}, Vec3{}, Vec3{}, Vec3{0, 0, -1000}); r != 0 {
		t.Errorf("a listener leaving past the speed of sound: %v, want 0 (clamped)", r)
	}
	if r := Ratio(Doppler{0, 343.3}, Vec3{}, Vec3{0, 0, 100}, Vec3{0, 0, 10}, Vec3{}); r != 1 {
		t.Errorf("factor 0: %v, want 1", r)
	}
}
