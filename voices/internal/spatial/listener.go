package spatial

// Listener is the ears: a position, an orientation (OpenAL's "at" and
// "up" vectors) and a velocity for doppler. The zero Forward and Up
// mean OpenAL's default orientation, facing -z with +y up. A plain
// value.
type Listener struct {
	Position, Forward, Up, Velocity Vec3
}

// Basis is a listener's orientation made orthonormal: right, up and
// forward unit vectors. A plain value.
type Basis struct{ right, up, fwd vec }

// BasisOf returns l's basis. Forward wins over Up: up is made
// perpendicular to it. A listener that is not Oriented gets the default
// orientation.
func BasisOf(l Listener) Basis {
	f, u := of(l.Forward).unit(), of(l.Up).unit()
	r := f.cross(u)
	if !l.Oriented() || l.Forward.IsZero() {
		f, u = vec{0, 0, -1}, vec{0, 1, 0}
		r = f.cross(u)
	}
	r = r.unit()
	return Basis{right: r, up: r.cross(f), fwd: f}
}

// Pan returns the stereo pan, -1 (left) to 1 (right), of a source at src
// for a listener at lis with basis b: the sine of the source's azimuth,
// the right-hand component of its unit direction. A source behind the
// listener pans as its mirror image in front; one at the listener's
// position, or straight above or below, is centred.
func Pan(b Basis, src, lis Vec3) float64 {
	d := of(src).sub(of(lis))
	l := d.len()
	if l == 0 {
		return 0
	}
	return min(max(d.dot(b.right)/l, -1), 1)
}

// Dist returns the distance from lis to src.
func Dist(src, lis Vec3) float64 { return of(src).sub(of(lis)).len() }

// Oriented reports whether l's Forward and Up give an orientation: both
// zero (the default), or neither zero nor parallel to the other.
func (l Listener) Oriented() bool {
	if l.Forward.IsZero() && l.Up.IsZero() {
		return true
	}
	if l.Forward.IsZero() || l.Up.IsZero() {
		return false
	}
	return of(l.Forward).unit().cross(of(l.Up).unit()).len() >= 1e-6
}
