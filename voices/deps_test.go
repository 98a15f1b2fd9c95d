package voices

import (
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// TestCoreDeps keeps the core free of cgo: the mixer, queue, converters
// and banks must build and test without oto, GL or any cgo package. Only
// voices/otodev may import oto.
func TestCoreDeps(t *testing.T) {
	sawLifetime := false
	for _, d := range testenv.Deps(t, "github.com/steadyframe/steadyframe/voices", false) {
		sawLifetime = sawLifetime || d.Path == "github.com/steadyframe/steadyframe/lifetime"
		for _, banned := range []string{"github.com/ebitengine/oto", "github.com/go-gl/", "github.com/ebitengine/purego"} {
			if strings.HasPrefix(d.Path, banned) {
				t.Errorf("voices imports %s; cgo and device packages belong in voices/otodev", d.Path)
			}
		}
		// runtime/cgo and the standard library's own cgo (net, os/user)
		// are not ours; a module package with cgo files is.
		if d.Cgo && strings.HasPrefix(d.Path, "github.com/") {
			t.Errorf("voices depends on %s, which has cgo files", d.Path)
		}
	}
	if !sawLifetime {
		t.Error("go list output does not list lifetime: the check is not looking at voices")
	}
}
