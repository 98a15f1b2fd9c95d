// Package sprites is the moving-sprite load the demo and the stress tool
// draw: a fixed number of sprites bouncing inside the window. They are
// stored as flat arrays that are allocated once and refilled every frame.
// Each step lists the sprites that hit a wall (the demo plays a sound for
// each). The package writes its quads through a quads.Writer into upload
// memory.
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
