package deps

import (
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

const module = "github.com/steadyframe/steadyframe"

// core lists the packages that must build and test without cgo
// (CGO_ENABLED=0) and the module packages each may import besides the
// standard library (and, by full path, the few outside packages allowed:
// voices reads the CPU's features through golang.org/x/sys/cpu to pick
// its vector kernels). Device code (go-gl, GLFW, oto) plugs into their small
// interfaces from the packages beside them (upload/glbuf,
// descriptors/gltex, lifetime/glfence, voices/otodev, and glcaps, which
// the GL ones share), never the other way round.
var core = map[string][]string{
	"pools":             nil,
	"lifetime/syncs":    nil,
	"lifetime/frame":    {"lifetime/syncs"},
	"lifetime/teardown": nil,
	"lifetime/guard":    {"lifetime/frame", "lifetime/syncs"}, // frame.Histogram, for its cost
	"upload":            {"lifetime/frame", "lifetime/syncs"},
	"descriptors":       {"pools", "lifetime/frame", "lifetime/syncs"},
	"voices":            {"lifetime/syncs", "golang.org/x/sys/cpu"},
	"voices/wav":        {"voices", "lifetime/syncs", "golang.org/x/sys/cpu"},
	"flatlog":           nil,
}

// TestCoreCompilesWithoutCgo type-checks every core package and its
// tests with CGO_ENABLED=0 (go vet compiles what it checks against), so
// "builds and tests without cgo" is a build, not only a listing of
// imports.
func TestCoreCompilesWithoutCgo(t *testing.T) {
	args := []string{"vet"}
	for pkg := range core {
		args = append(args, module+"/"+pkg)
	}
	if out, err := testenv.Go(t, []string{"CGO_ENABLED=0"}, args...); err != nil {
		t.Fatalf("CGO_ENABLED=0 go vet of the core packages: %v\n%s", err, out)
	}
}

func TestCoreBuildsWithoutCgo(t *testing.T) {
	for pkg, allowed := range core {
		ok := map[string]bool{module + "/" + pkg: true}
		for _, a := range allowed {
			if strings.Contains(strings.Split(a, "/")[0], ".") {
				ok[a] = true // a package outside the module, by full path
			} else {
				ok[module+"/"+a] = true
			}
		}
		for _, d := range testenv.Deps(t, module+"/"+pkg, false, "CGO_ENABLED=0") {
			if !d.Standard && !ok[d.Path] {
				t.Errorf("%s depends on %s; allowed besides the standard library: %v", pkg, d.Path, allowed)
			}
		}
		// Its tests may use the other core packages and the test helpers,
		// but must still build without cgo.
		for _, d := range testenv.Deps(t, module+"/"+pkg, true, "CGO_ENABLED=0") {
			if d.Cgo {
				t.Errorf("%s or its tests depend on %s, which has cgo files", pkg, d.Path)
			}
		}
	}
}

// pkg is one package of the module: its name and its transitive non-test
// imports.
type pkg struct {
	name string
	deps []string
}

// listAll returns every package of the module by import path.
func listAll(t *testing.T) map[string]pkg {
	t.Helper()
	pkgs := map[string]pkg{}
	for _, f := range testenv.List(t, nil, 3, "-f", "{{.ImportPath}}|{{.Name}}|{{join .Deps \" \"}}", module+"/...") {
		pkgs[f[0]] = pkg{f[1], strings.Fields(f[2])}
	}
	if _, ok := pkgs[module+"/pools"]; !ok {
		t.Fatalf("go list did not list pools: the check is not looking at the module\n%v", pkgs)
	}
	return pkgs
}

// TestPublicPackagesAvoidInternal: a user's module cannot import the
// module's internal/ packages, so no public package may need one.
func TestPublicPackagesAvoidInternal(t *testing.T) {
	for path, p := range listAll(t) {
		if p.name == "main" || strings.Contains(path, "/internal/") || strings.HasSuffix(path, "/internal") {
			continue
		}
		for _, d := range p.deps {
			if strings.HasPrefix(d, module+"/") && strings.Contains(strings.TrimPrefix(d, module), "/internal/") {
				t.Errorf("public package %s depends on %s, which a user's module cannot import", path, d)
			}
		}
	}
}

// TestBinariesLeanDeps: no command links package testing (test helpers
// live in _test.go files), and none links net/http or crypto/tls, which
// nothing in a frame loop needs.
func TestBinariesLeanDeps(t *testing.T) {
	seen := 0
	for path, p := range listAll(t) {
		if p.name != "main" {
			continue
		}
		seen++
		for _, d := range p.deps {
			switch d {
			case "testing", "net/http", "crypto/tls":
				t.Errorf("command %s links %s", path, d)
			}
		}
	}
	if seen < 2 {
		t.Fatalf("found %d commands, want stress and cmd/demo at least", seen)
	}
}

// TestDecodersStayInTheirPackages: a game that plays no MP3 or FLAC files
// carries no decoder. Only voices/mp3 links go-mp3 and only voices/flac
// links mewkiz/flac (commands that load such files may link them too).
func TestDecodersStayInTheirPackages(t *testing.T) {
	owners := map[string]string{
		"github.com/hajimehoshi/go-mp3": module + "/voices/mp3",
		"github.com/mewkiz/flac":        module + "/voices/flac",
	}
	linked := map[string]bool{}
	for path, p := range listAll(t) {
		for _, d := range p.deps {
			for dec, owner := range owners {
				if d != dec && !strings.HasPrefix(d, dec+"/") {
					continue
				}
				if path == owner {
					linked[dec] = true
				} else if p.name != "main" && !strings.HasPrefix(path, owner+"/") {
					t.Errorf("%s links the decoder %s; only %s may", path, d, owner)
				}
			}
		}
	}
	for dec, owner := range owners {
		if !linked[dec] {
			t.Errorf("%s does not list %s: the check is not looking at the decoder", owner, dec)
		}
	}
}
