package pools

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDepsStandardLibraryOnly keeps pools the foundation everything else
// stands on: it and its tests import the standard library only, and
// nothing in its import graph has cgo files, so it builds and tests with
// CGO_ENABLED=0 on any platform Go supports, with no GL, GLFW or oto.
func TestDepsStandardLibraryOnly(t *testing.T) {
	checkDeps(t, "github.com/steadyframe/steadyframe/pools")
}

// checkDeps fails the test when pkg, or its tests, depend on a package
// outside the standard library other than pkg itself, or on a package
// with cgo files. It lists with CGO_ENABLED=0, the build it protects.
func checkDeps(t *testing.T, pkg string) {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	cmd := exec.Command(goCmd, "list", "-deps", "-test", "-f", "{{.ImportPath}}|{{.Standard}}|{{len .CgoFiles}}", pkg)
	cmd.Env = append(cmd.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	seen := false
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 3 {
			t.Fatalf("go list printed %q", line)
		}
		path, std, cgo := f[0], f[1] == "true", f[2]
		// The test variants print as "pkg [pkg.test]", "pkg_test [...]"
		// and "pkg.test".
		base, _, _ := strings.Cut(path, " ")
		own := base == pkg || base == pkg+"_test" || base == pkg+".test"
		seen = seen || path == pkg
		if !std && !own {
			t.Errorf("%s depends on %s; it must stay standard-library only", pkg, path)
		}
		if cgo != "0" {
			t.Errorf("%s depends on %s, which has cgo files", pkg, path)
		}
	}
	if !seen {
		t.Fatalf("go list output does not list %s itself: the check is not looking at it\n%s", pkg, out)
	}
}
