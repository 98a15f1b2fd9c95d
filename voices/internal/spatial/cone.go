package spatial

import "math"

// Cone is a directional source's cone, as OpenAL's source attributes:
// Direction is AL_DIRECTION, Inner and Outer are AL_CONE_INNER_ANGLE and
// AL_CONE_OUTER_ANGLE (whole angles in degrees, 0 to 360), and OuterGain
// is AL_CONE_OUTER_GAIN (0 to 1). A zero Direction makes the source
// omnidirectional. A plain value.
type Cone struct {
	Direction    Vec3
	Inner, Outer float32
	OuterGain    float32
}

// ConeGain returns the cone's gain for a listener at lis and a source
// at src: 1 inside half the inner angle of the direction, OuterGain
// outside half the outer angle, and linear in the angle between.
func ConeGain(c Cone, src, lis Vec3) float64 {
	if c.Direction.IsZero() {
		return 1
	}
	toLis := of(lis).sub(of(src))
	l := toLis.len()
	if l == 0 {
		return 1 // the listener is at the source: inside any cone
	}
	cos := of(c.Direction).unit().dot(toLis.scale(1 / l))
	angle := math.Acos(min(max(cos, -1), 1)) * 180 / math.Pi
	in, out := float64(float64(c.Inner)/2), float64(float64(c.Outer)/2)
	switch {
	case angle <= in:
		return 1
	case angle >= out:
		return float64(c.OuterGain)
	}
	return 1 + float64((float64(c.OuterGain)-1)*(angle-in)/(out-in))
}
