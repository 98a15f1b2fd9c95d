package spatial

import "math"

// Doppler holds the doppler settings, as OpenAL's: Factor is
// AL_DOPPLER_FACTOR (0 turns doppler off) and SpeedOfSound is
// AL_SPEED_OF_SOUND, in the game's units per second. A plain value.
type Doppler struct {
	Factor, SpeedOfSound float32
}

// Ratio returns the doppler pitch ratio f'/f by OpenAL 1.1's equation,
// for a source at src moving at srcVel and a listener at lis moving at
// lisVel. Let SL be the unit vector from source to listener, and vls and
// vss the listener's and source's velocities along it. Each is clamped
// to at most SpeedOfSound/Factor. The ratio is (SS - DF×vls) / (SS -
// DF×vss). It is 1 when Factor is 0 or the two positions coincide, and
// +Inf where the source reaches the speed of sound toward the
// listener: the caller clamps the ratio to the pitches it can play.
func Ratio(d Doppler, src, srcVel, lis, lisVel Vec3) float64 {
	df, ss := float64(d.Factor), float64(d.SpeedOfSound)
	if df == 0 {
		return 1
	}
	sl := of(lis).sub(of(src))
	l := sl.len()
	if l == 0 {
		return 1
	}
	sl = sl.scale(1 / l)
	vls := min(of(lisVel).dot(sl), ss/df)
	vss := min(of(srcVel).dot(sl), ss/df)
	num, den := ss-float64(df*vls), ss-float64(df*vss)
	if den <= 0 {
		if num <= 0 {
			return 1
		}
		return math.Inf(1)
	}
	return num / den
}
