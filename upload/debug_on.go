//go:build steadyframe_debug

package upload

// isDebug turns on debug mode for every Set: build with
// -tags steadyframe_debug to scribble recycled regions and log the frame
// serial of each allocation.
const isDebug = true
