package spatial

import "math"

// Vec3 is a point or direction in the listener's world, in the game's
// units (OpenAL's right-handed axes: x right, y up, z toward the
// viewer). A plain value.
type Vec3 struct{ X, Y, Z float32 }

// vec is Vec3 in float64, for the arithmetic.
//
// Every product is wrapped in float64() where a sum follows, so no
// architecture fuses it into a multiply-add: the bits match on every CPU.
type vec struct{ x, y, z float64 }

func of(v Vec3) vec { return vec{float64(v.X), float64(v.Y), float64(v.Z)} }

func (a vec) sub(b vec) vec     { return vec{a.x - b.x, a.y - b.y, a.z - b.z} }
func (a vec) dot(b vec) float64 { return float64(a.x*b.x) + float64(a.y*b.y) + float64(a.z*b.z) }
func (a vec) len() float64      { return math.Sqrt(a.dot(a)) }
func (a vec) scale(s float64) vec {
	return vec{a.x * s, a.y * s, a.z * s}
}

func (a vec) cross(b vec) vec {
	return vec{float64(a.y*b.z) - float64(a.z*b.y), float64(a.z*b.x) - float64(a.x*b.z), float64(a.x*b.y) - float64(a.y*b.x)}
}

// unit returns a scaled to length 1, or the zero vector if a is zero.
func (a vec) unit() vec {
	if l := a.len(); l > 0 {
		return a.scale(1 / l)
	}
	return vec{}
}

// Finite reports whether every component of v is a finite number.
func (v Vec3) Finite() bool {
	return finite(v.X) && finite(v.Y) && finite(v.Z)
}

// IsZero reports whether v is the zero vector.
func (v Vec3) IsZero() bool { return v == Vec3{} }

func finite(f float32) bool {
	return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0)
}
