package flac

import (
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// decoderModule is the module this package wraps and no other may link.
const decoderModule = "github.com/mewkiz/"

// TestDeps keeps the decoder where it belongs: this package links it and
// nothing under the library's internal/ (which a user's module could not
// import), while the voices core and voices/wav stay free of it, so a
// game that plays no flac files does not carry its decoder.
func TestDeps(t *testing.T) {
	const self = "github.com/steadyframe/steadyframe/voices/flac"
	linked := false
	for _, d := range testenv.Deps(t, self, false) {
		linked = linked || strings.HasPrefix(d.Path, decoderModule)
		if strings.HasPrefix(d.Path, "github.com/steadyframe/steadyframe/internal/") {
			t.Errorf("%s imports %s, which users cannot reach", self, d.Path)
		}
	}
	if !linked {
		t.Errorf("%s does not list %s: the check is not looking at the decoder", self, decoderModule)
	}
	for _, pkg := range []string{"github.com/steadyframe/steadyframe/voices", "github.com/steadyframe/steadyframe/voices/wav"} {
		for _, d := range testenv.Deps(t, pkg, false) {
			if strings.HasPrefix(d.Path, decoderModule) {
				t.Errorf("%s depends on %s; only %s may", pkg, d.Path, self)
			}
		}
	}
}
