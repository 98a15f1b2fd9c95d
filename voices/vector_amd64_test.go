//go:build !steadyframe_scalar

package voices

import "testing"

// vectorLevels runs f once for each instruction set the vector kernels
// may use on this CPU: with AVX-512 where it has it, then with AVX2 alone.
func vectorLevels(t *testing.T, f func(t *testing.T)) {
	saved := hasAVX512
	defer func() { hasAVX512 = saved }()
	if saved {
		t.Run("avx512", f)
	}
	hasAVX512 = false
	t.Run("avx2", f)
}
