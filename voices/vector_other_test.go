//go:build !amd64 || steadyframe_scalar

package voices

import "testing"

// vectorLevels runs f once: this build has no vector kernels to vary.
func vectorLevels(t *testing.T, f func(t *testing.T, vec *kernelSet)) {
	t.Run("none", func(t *testing.T) { f(t, nil) })
}
