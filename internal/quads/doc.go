// Package quads writes textured, tinted screen-space quads into per-frame
// upload memory. It groups them into draw runs by texture. It is the
// sprite batch the demo and the stress tool share; quads/quadgl draws what
// it writes with OpenGL. This package holds no GL, so its layout and
// batching are tested without a display.
//
// # Ownership
//
// A Writer belongs to the render goroutine that owns the upload arena its
// memory comes from. It is not safe for concurrent use.
//
// # Lifetime
//
// Reset hands a Writer one frame's arena view. The view is the arena's and
// valid only until that frame ends. So the Writer must be Reset every
// frame and its Runs drawn in the same frame. NewWriter allocates the
// Writer's own run list once, and it is reused.
package quads
