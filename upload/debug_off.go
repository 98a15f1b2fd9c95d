//go:build !steadyframe_debug

package upload

// isDebug is false in normal builds; SetDesc.Debug turns debug mode on for
// one Set, and -tags steadyframe_debug for all of them.
const isDebug = false
