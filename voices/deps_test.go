package voices

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCoreDeps keeps the core free of cgo: the mixer, queue, converters
// and banks must build and test without oto, GL or any cgo package. Only
// voices/otodev may import oto.
func TestCoreDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{len .CgoFiles}}", "github.com/steadyframe/steadyframe/voices").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, cgo, _ := strings.Cut(line, " ")
		for _, banned := range []string{"github.com/ebitengine/oto", "github.com/go-gl/", "github.com/ebitengine/purego"} {
			if strings.HasPrefix(path, banned) {
				t.Errorf("voices imports %s; cgo and device packages belong in voices/otodev", path)
			}
		}
		// runtime/cgo and the standard library's own cgo (net, os/user)
		// are not ours; a module package with cgo files is.
		if cgo != "0" && strings.HasPrefix(path, "github.com/") {
			t.Errorf("voices depends on %s, which has cgo files", path)
		}
	}
	if !strings.Contains(string(out), "github.com/steadyframe/steadyframe/lifetime") {
		t.Error("go list output does not list lifetime: the check is not looking at voices")
	}
}
