//go:build !(amd64 || arm64) || steadyframe_scalar

package dsp

// vectorSets is empty in this build: other architectures, and amd64
// built with the steadyframe_scalar tag, run the scalar kernels only.
var vectorSets []*Kernels
