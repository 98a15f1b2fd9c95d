// Package font is a tiny embedded 3×5 bitmap font and the paged atlas the
// demo and the stress tool bake from it. Each page becomes one texture
// (one descriptor slot). So a rebake at a new scale frees and recycles as
// many slots as there are pages. That is the churn the descriptor heap has
// to survive on a window resize.
//
// # Ownership
//
// An Atlas is an immutable layout after NewAtlas, and any goroutines may
// share it. BakePage and Layout write only into caller-owned buffers.
//
// # Lifetime
//
// An Atlas holds no resources. The pages a caller bakes and uploads are
// the caller's. A rebake is NewAtlas at the new scale plus a fresh upload.
package font
