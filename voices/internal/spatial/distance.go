package spatial

import "math"

// Model is an OpenAL 1.1 distance model. The zero value is
// InverseClamped, OpenAL's default.
type Model uint8

const (
	InverseClamped Model = iota
	Inverse
	LinearClamped
	Linear
	ExponentClamped
	Exponent
	// None attenuates nothing: the gain is 1 at every distance.
	None
)

var modelNames = [...]string{
	InverseClamped: "inverse-clamped", Inverse: "inverse",
	LinearClamped: "linear-clamped", Linear: "linear",
	ExponentClamped: "exponent-clamped", Exponent: "exponent", None: "none",
}

// String returns the model's name, "inverse-clamped" for example.
func (m Model) String() string {
	if int(m) < len(modelNames) {
		return modelNames[m]
	}
	return "Model(" + itoa(int(m)) + ")"
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// Valid reports whether m is one of the models above.
func (m Model) Valid() bool { return m <= None }

// Distance holds a source's distance settings, as OpenAL's source
// attributes: Ref is AL_REFERENCE_DISTANCE, Max AL_MAX_DISTANCE and
// Rolloff AL_ROLLOFF_FACTOR. A plain value.
type Distance struct {
	Ref, Max, Rolloff float32
}

// Gain returns the attenuation of model m at distance d, clamped to
// [0, 1] as OpenAL's default AL_MIN_GAIN and AL_MAX_GAIN clamp it. The
// clamped models first clamp d to [Ref, Max]; the plain linear model
// clamps it to Max only, as the specification does. Where an inverse
// model's denominator is not positive (a distance below Ref with a
// rolloff above 1), and where an exponent model has d or Ref at zero,
// the gain is 1.
func Gain(m Model, d float64, s Distance) float64 {
	ref, maxd, roll := float64(s.Ref), float64(s.Max), float64(s.Rolloff)
	switch m {
	case InverseClamped, LinearClamped, ExponentClamped:
		d = min(max(d, ref), maxd)
	case Linear:
		d = min(d, maxd)
	}
	g := 1.0
	switch m {
	case InverseClamped, Inverse:
		if den := ref + float64(roll*(d-ref)); den > 0 {
			g = ref / den
		}
	case LinearClamped, Linear:
		if maxd > ref {
			g = 1 - float64(roll*(d-ref)/(maxd-ref))
		}
	case ExponentClamped, Exponent:
		if d > 0 && ref > 0 {
			g = math.Pow(d/ref, -roll)
		}
	}
	return min(max(g, 0), 1)
}
