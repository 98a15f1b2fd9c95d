package wav

import (
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// TestDeps keeps the parser as light as the core: it builds on the
// standard library and the library's own public packages only, so a game
// that reads WAV files pulls in no decoder module and nothing under
// internal/ (which a user's module could not import).
func TestDeps(t *testing.T) {
	const self = "github.com/steadyframe/steadyframe/voices/wav"
	for _, d := range testenv.Deps(t, self, false) {
		switch {
		case d.Standard:
		case strings.HasPrefix(d.Path, "github.com/steadyframe/steadyframe/internal/"):
			t.Errorf("%s imports %s, which users cannot reach", self, d.Path)
		case !strings.HasPrefix(d.Path, "github.com/steadyframe/steadyframe/"):
			t.Errorf("%s depends on module package %s", self, d.Path)
		}
	}
}
