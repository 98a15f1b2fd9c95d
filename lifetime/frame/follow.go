package frame

import "fmt"

// Follower is a per-frame manager (a descriptor heap, an upload set) that
// a Clock drives. The clock calls it at every frame boundary, on the
// clock's owner goroutine. So the manager never takes a frame serial from
// its user. A renderer opens and closes a frame in one place
// (Clock.BeginFrame and Clock.EndFrame).
//
// Register a follower with Clock.Follow. Managers keep their Follower in
// an unexported field, so the methods are not part of their own API: no
// caller can hand them a wrong serial.
//
// The methods run inside the clock's call and must not call the clock's
// BeginFrame, EndFrame, Drain, Follow, Unfollow or Close (they return
// ErrReentrant), nor rely on Poll (it returns Completed unchanged). They
// must not block on the device: the clock has already waited where a
// wait was due.
type Follower interface {
	// Retired reports that every frame at or below completed has
	// completed on the device: memory and objects those frames referenced
	// may be released. The clock calls it whenever it has proved
	// completion (in BeginFrame after its fence wait and before
	// FrameBegun, in Poll and in Drain), with the clock's Completed,
	// which never decreases; the same value may come more than once.
	Retired(completed uint64)
	// FrameBegun reports that frame serial is open: work recorded from now
	// on belongs to it. Retired for this BeginFrame has already run.
	FrameBegun(serial uint64)
	// FrameEnded reports that frame serial is closing. It runs before the
	// frame's fence is signalled, so whatever the follower writes for the
	// frame here is covered by that fence.
	FrameEnded(serial uint64)
}

// Follow adds f to the clock's followers, which the clock calls in the
// order they were added. A follower added while a frame is open hears
// that frame's FrameEnded, not its FrameBegun; it can read Current and
// Last to start in step. Follow allocates only when the follower list
// grows, so add followers at start-up. It returns ErrInvalidConfig for a
// nil or repeated follower, ErrReentrant from inside a follower call, and
// ErrClosed after Close.
func (c *Clock) Follow(f Follower) error {
	switch {
	case c.closed:
		return fmt.Errorf("%w: Follow", ErrClosed)
	case c.notifying:
		return fmt.Errorf("%w: Follow", ErrReentrant)
	case f == nil:
		return fmt.Errorf("%w: nil Follower", ErrInvalidConfig)
	case c.following(f) >= 0:
		return fmt.Errorf("%w: Follow of a follower already following the clock", ErrInvalidConfig)
	}
	c.followers = append(c.followers, f)
	return nil
}

// Unfollow removes f, keeping the others in order; it does not allocate.
// A manager calls it from its Close, which is what lets Clock.Close
// succeed afterwards. It returns ErrInvalidConfig when f is not following
// the clock and ErrReentrant from inside a follower call.
func (c *Clock) Unfollow(f Follower) error {
	if c.notifying {
		return fmt.Errorf("%w: Unfollow", ErrReentrant)
	}
	i := c.following(f)
	if i < 0 {
		return fmt.Errorf("%w: Unfollow of a follower not following the clock", ErrInvalidConfig)
	}
	copy(c.followers[i:], c.followers[i+1:])
	c.followers[len(c.followers)-1] = nil
	c.followers = c.followers[:len(c.followers)-1]
	return nil
}

// Followers returns the number of followers.
func (c *Clock) Followers() int { return len(c.followers) }

func (c *Clock) following(f Follower) int {
	for i, g := range c.followers {
		if g == f {
			return i
		}
	}
	return -1
}

// notify runs call on every follower with the notifying flag set, so a
// follower that calls back into the clock gets ErrReentrant instead of
// changing the state the loop is walking. call is a method expression
// (Follower.Retired, Follower.FrameBegun, Follower.FrameEnded), a static
// function, so passing it allocates nothing. A follower that panics
// leaves the flag set: the clock then refuses every state change, which
// is the honest state for a renderer whose frame bookkeeping broke
// midway.
func (c *Clock) notify(call func(Follower, uint64), serial uint64) {
	if len(c.followers) == 0 {
		return
	}
	c.notifying = true
	for _, f := range c.followers {
		call(f, serial)
	}
	c.notifying = false
}
