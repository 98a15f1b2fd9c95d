//go:build !steadyframe_scalar

package voices

import "testing"

// vectorLevels runs f once for each vector kernel set this CPU runs:
// the AVX-512 one where it has AVX-512F, then the AVX2 one (nil without
// AVX2: f skips).
func vectorLevels(t *testing.T, f func(t *testing.T, vec *kernelSet)) {
	if avx512Kernels != nil {
		t.Run("avx512", func(t *testing.T) { f(t, avx512Kernels) })
	}
	t.Run("avx2", func(t *testing.T) { f(t, avx2Kernels) })
}
