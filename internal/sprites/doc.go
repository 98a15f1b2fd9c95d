// Package sprites is the moving-sprite load the demo and the stress tool
// draw: a fixed number of sprites bouncing inside the window, stored as
// flat arrays that are allocated once and refilled every frame, with a
// per-step list of the sprites that hit a wall (the demo plays a sound for
// each). It writes its quads through a quads.Writer into upload memory.
//
// # Ownership
//
// A Sim belongs to the render goroutine; it is not safe for concurrent use.
//
// # Lifetime
//
// New allocates every array a Sim will use; Step and Write never allocate.
// The slice Events returns is valid until the next Step.
package sprites
