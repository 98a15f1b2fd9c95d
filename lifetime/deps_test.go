package lifetime

import (
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// TestDepsNoCgo keeps lifetime the device-free core the GL and audio
// packages plug into: its Fence seam is implemented by upload/ and
// descriptors/ (GL) and its Barrier is driven by voices/ (oto), never the
// other way round. It may import the standard library and pools only (its
// tests add the standard-library test helper internal/testenv), and
// nothing in the import graph may have cgo files, so the package builds
// and tests with CGO_ENABLED=0.
func TestDepsNoCgo(t *testing.T) {
	const self = "github.com/steadyframe/steadyframe/lifetime"
	allowed := map[string]bool{
		self: true, self + "_test": true, self + ".test": true,
		"github.com/steadyframe/steadyframe/pools":            true,
		"github.com/steadyframe/steadyframe/internal/testenv": true,
	}
	for _, d := range testenv.Deps(t, self, true, "CGO_ENABLED=0") {
		if !d.Standard && !allowed[d.Path] {
			t.Errorf("lifetime depends on %s; device packages implement lifetime's seams, lifetime imports none of them", d.Path)
		}
		if d.Cgo {
			t.Errorf("lifetime depends on %s, which has cgo files", d.Path)
		}
	}
}
