// Package scene is the scene that the stress tool (stress/) and the demo
// (cmd/demo/) share, so that neither command keeps a copy of the other's
// setup. It holds the upload arena layout both run on; the texture
// population and churn, the sound banks, the GL and audio bootstrap, the
// teardown graph and the flag checks the two commands still duplicate are
// to move here next.
//
// The layout is a renderer's choice, not the upload package's: upload
// keeps the mechanism (a Set of arenas over one buffer) and this package
// says how these two commands divide it.
//
// # Ownership
//
// Arenas returns a new slice each call, owned by the caller, which hands
// it to upload.NewSet on the render goroutine. The constants are plain
// values.
//
// # Lifetime
//
// upload.NewSet reads the layout once; the Set it makes, and the bytes it
// reserves (Reserved for three frames in flight), live until Set.Close.
package scene
