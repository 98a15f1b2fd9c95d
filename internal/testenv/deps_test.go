package testenv

import "testing"

// Deps must see the package itself and its standard-library imports, and
// mark the standard library as such: the dependency tests of pools,
// lifetime, upload, descriptors and voices rest on it.
func TestDepsListsSelfAndStandardLibrary(t *testing.T) {
	deps := Deps(t, "github.com/steadyframe/steadyframe/internal/testenv", true)
	found := map[string]Dep{}
	for _, d := range deps {
		found[d.Path] = d
	}
	if d, ok := found["os/exec"]; !ok || !d.Standard {
		t.Errorf("os/exec missing or not standard: %+v", d)
	}
	if d, ok := found["github.com/steadyframe/steadyframe/internal/testenv"]; !ok || d.Standard {
		t.Errorf("testenv itself missing or marked standard: %+v", d)
	}
}
