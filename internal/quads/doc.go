// Package quads writes textured, tinted screen-space quads into
// per-frame upload memory and groups them into draw runs by texture. It is
// the sprite batch the demo and the stress tool share; quads/quadgl draws
// what it writes with OpenGL. This package holds no GL, so its layout and
// batching are tested without a display.
//
// # Ownership
//
// A Writer belongs to the render goroutine that owns the upload arena its
// memory comes from; it is not safe for concurrent use.
//
// # Lifetime
//
// Reset hands a Writer one frame's arena view; the view is the arena's and
// valid only until that frame ends, so the Writer must be Reset every frame
// and its Runs drawn in the same frame. The Writer's own run list is
// allocated once by NewWriter and reused.
package quads
