//go:build !steadyframe_scalar

package dsp

import (
	"reflect"
	"testing"
)

// TestNEONSetIsVector checks that the NEON set hooks its own loops in,
// so that the vector-against-scalar tests compare NEON with the scalar
// code and not the scalar code with itself.
func TestNEONSetIsVector(t *testing.T) {
	pc := func(f any) uintptr { return reflect.ValueOf(f).Pointer() }
	for k := range Kind(4) {
		if pc(neonKernels.mix[k]) == pc(scalarKernels.mix[k]) {
			t.Errorf("%v: the NEON set's unity mixer is the scalar one", k)
		}
		if pc(neonKernels.linear[k]) == pc(scalarKernels.linear[k]) {
			t.Errorf("%v: the NEON set's linear resampler is the scalar one", k)
		}
	}
	for _, c := range []struct {
		name      string
		neon, ref any
	}{
		{"convert", neonKernels.convert, convertScalar},
		{"split", neonKernels.split, convertScalar},
		{"filter", neonKernels.filter, filterScalar},
		{"pitch", neonKernels.pitch, filterStepsScalar},
	} {
		if pc(c.neon) == pc(c.ref) {
			t.Errorf("the NEON set's %s is the scalar one", c.name)
		}
	}
	if BestKernels() != neonKernels {
		t.Errorf("BestKernels is %q, want the NEON set", BestKernels().Name())
	}
}
