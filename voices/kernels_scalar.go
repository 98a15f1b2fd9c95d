//go:build !amd64 || steadyframe_scalar

package voices

// vectorKernels is nil in this build: other architectures, and amd64
// built with the steadyframe_scalar tag, run the scalar kernels only.
var vectorKernels *kernelSet

// bestKernels returns the fastest kernels this build has for this CPU.
func bestKernels() *kernelSet { return &scalarKernels }
