package lifetime

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDepsNoCgo keeps lifetime the device-free core the GL and audio
// packages plug into: its Fence seam is implemented by upload/ and
// descriptors/ (GL) and its Barrier is driven by voices/ (oto), never the
// other way round. It and its tests may import the standard library and
// pools only, and nothing in the import graph may have cgo files, so the
// package builds and tests with CGO_ENABLED=0.
func TestDepsNoCgo(t *testing.T) {
	const self = "github.com/steadyframe/steadyframe/lifetime"
	allowed := map[string]bool{
		self: true, self + "_test": true, self + ".test": true,
		"github.com/steadyframe/steadyframe/pools": true,
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	cmd := exec.Command(goCmd, "list", "-deps", "-test", "-f", "{{.ImportPath}}|{{.Standard}}|{{len .CgoFiles}}", self)
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
		// Test variants print as "pkg [pkg.test]".
		path, _, _ := strings.Cut(f[0], " ")
		seen = seen || path == self
		if f[1] != "true" && !allowed[path] {
			t.Errorf("lifetime depends on %s; device packages implement lifetime's seams, lifetime imports none of them", path)
		}
		if f[2] != "0" {
			t.Errorf("lifetime depends on %s, which has cgo files", path)
		}
	}
	if !seen {
		t.Fatalf("go list output does not list lifetime itself: the check is not looking at it\n%s", out)
	}
}
