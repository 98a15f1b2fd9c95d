package scene

import (
	"math"
	"sync/atomic"

	"github.com/steadyframe/steadyframe/voices"
)

// pitchEvery is how many of the sfx bus's plays there are per pitched
// one (see the package doc's Pitch paragraph for why 4).
const pitchEvery = 4

// pitchOctaves is the spread of the random pitches: 2^±1, an octave
// either side of the recorded one.
const pitchOctaves = 1

// pitcher picks the random pitch of a fraction of the sfx plays. Safe
// from any goroutine: its state is one atomic counter, hashed.
type pitcher struct {
	seq atomic.Uint64
}

// next returns the pitch for a play on the sfx bus (0, unpitched, for
// three plays in four) and the pitch a second SetPitch glides it to
// (0 for none, half the pitched plays).
func (p *pitcher) next() (pitch, glide float32) {
	h := mix64(p.seq.Add(1))
	if h%pitchEvery != 0 {
		return 0, 0
	}
	pitch = octaves(h)
	if h>>7&1 != 0 {
		glide = octaves(mix64(h))
	}
	return pitch, glide
}

// octaves maps the top 24 bits of r onto 2^[-pitchOctaves, pitchOctaves].
func octaves(r uint64) float32 {
	u := float64(r>>40) / float64(1<<24)
	return float32(math.Exp2((2*u - 1) * pitchOctaves))
}

// mix64 is splitmix64's finaliser: every bit of x moves every bit of
// the result, so consecutive counts give unrelated pitches.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// playPitched plays clip on bus with the next random pitch, gliding
// half the pitched voices to a second pitch over the mixer's next block
// (SetPitch). A SetPitch refusal (a full queue, a voice already stolen)
// leaves the voice at its first pitch and is no play's refusal, so it is
// dropped.
// It returns the voice's handle and first pitch for the tests.
func (a *Audio) playPitched(clip voices.Clip, d voices.PlayDesc) (voices.Handle, float32, error) {
	pitch, glide := a.pitch.next()
	d.Pitch = pitch
	h, err := a.Engine.Play(clip, d)
	if err == nil && glide != 0 {
		_ = a.Engine.SetPitch(h, glide)
	}
	return h, pitch, err
}
