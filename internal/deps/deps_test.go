package deps

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

const module = "github.com/steadyframe/steadyframe"

// core lists the packages that must build and test without cgo
// (CGO_ENABLED=0) and the module packages each may import besides the
// standard library (and, by full path, the few outside packages allowed:
// voices/internal/dsp reads the CPU's features through
// golang.org/x/sys/cpu to pick its vector kernels). Device code (go-gl, GLFW, oto) plugs into their small
// interfaces from the packages beside them (upload/glbuf,
// descriptors/gltex, lifetime/glfence, voices/otodev, and glcaps, which
// the GL ones share), never the other way round.
var core = map[string][]string{
	"pools":                   nil,
	"lifetime/syncs":          nil,
	"lifetime/frame":          {"lifetime/syncs"},
	"lifetime/teardown":       nil,
	"lifetime/guard":          {"lifetime/frame", "lifetime/syncs"}, // frame.Histogram, for its cost
	"upload":                  {"lifetime/frame", "lifetime/syncs"},
	"descriptors":             {"pools", "lifetime/frame", "lifetime/syncs"},
	"voices":                  {"lifetime/syncs", "voices/internal/dsp", "voices/internal/spatial", "golang.org/x/sys/cpu"},
	"voices/internal/dsp":     {"golang.org/x/sys/cpu"},
	"voices/internal/spatial": nil,
	"voices/wav":              {"voices", "lifetime/syncs", "voices/internal/dsp", "voices/internal/spatial", "golang.org/x/sys/cpu"},
	"flatlog":                 nil,
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

// isInternal reports whether path is an internal package of the module.
func isInternal(path string) bool {
	rel := "/" + strings.TrimPrefix(path, module)
	return strings.HasPrefix(path, module+"/") && (strings.Contains(rel, "/internal/") || strings.HasSuffix(rel, "/internal"))
}

// TestPublicPackagesOwnTheirInternals: the go tool already stops every
// other module from importing the module's internal/ packages, and a
// user's module still builds against a public package that imports its
// own (Gio's gpu over gpu/internal, Ebitengine's audio over
// audio/internal/convert). So a public package may import the internal
// packages beneath it (voices over voices/internal/dsp) and no others:
// one owner each, and none of the module-wide test and scene helpers.
// What a user must never need, an internal type in a public API, is
// TestPublicAPIHidesInternal's.
func TestPublicPackagesOwnTheirInternals(t *testing.T) {
	owned := 0
	for _, f := range testenv.List(t, nil, 3, "-f", "{{.ImportPath}}|{{.Name}}|{{join .Imports \" \"}}", module+"/...") {
		path, name := f[0], f[1]
		if name == "main" || isInternal(path) {
			continue
		}
		for _, imp := range strings.Fields(f[2]) {
			if !isInternal(imp) {
				continue
			}
			if !strings.HasPrefix(imp, path+"/internal/") {
				t.Errorf("public package %s imports %s, an internal package that is not its own", path, imp)
				continue
			}
			owned++
		}
	}
	if owned == 0 {
		t.Fatalf("no public package imports its own internal package: the check is not looking at voices/internal/dsp")
	}
}

// TestPublicAPIHidesInternal: no exported name of a public package
// mentions a type of an internal package (in a signature, an exported
// field or method, a variable's type), so a user never needs to import
// one. It reads the compiler's export data of every public package that
// imports an internal one.
func TestPublicAPIHidesInternal(t *testing.T) {
	var public []string
	for _, f := range testenv.List(t, nil, 3, "-f", "{{.ImportPath}}|{{.Name}}|{{join .Imports \" \"}}", module+"/...") {
		if f[1] == "main" || isInternal(f[0]) {
			continue
		}
		if slices.ContainsFunc(strings.Fields(f[2]), isInternal) {
			public = append(public, f[0])
		}
	}
	if len(public) == 0 {
		t.Fatalf("no public package imports an internal one: the check is not looking at voices")
	}
	exports := map[string]string{}
	for _, f := range testenv.List(t, nil, 2, append([]string{"-export", "-deps", "-f", "{{.ImportPath}}|{{.Export}}"}, public...)...) {
		exports[f[0]] = f[1]
	}
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		file := exports[path]
		if file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	for _, path := range public {
		pkg, err := imp.Import(path)
		if err != nil {
			t.Fatalf("reading %s's export data: %v", path, err)
		}
		for _, leak := range internalInAPI(pkg, isInternal) {
			t.Errorf("public package %s exposes %s", path, leak)
		}
	}
}

// TestInternalInAPICatches holds the checker to what it must find: an
// internal type in each kind of exported position, and none behind an
// unexported name or an alias nobody exports.
func TestInternalInAPICatches(t *testing.T) {
	const src = `package pub
import "example.com/m/internal/x"
type Desc struct {
	Public int
	Leak   x.T
	hidden x.T
}
type alias = x.T
func F(a []alias) int { return 0 }
func G() map[string]*x.T { return nil }
var V func(chan x.T)
type S struct{}
func (S) M() (x.T, error) { return x.T{}, nil }
func (S) m() x.T { return x.T{} }
type I interface{ N(x.T) }
func ok(x.T) {}
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "pub.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	x := types.NewPackage("example.com/m/internal/x", "x")
	tn := types.NewTypeName(token.NoPos, x, "T", nil)
	types.NewNamed(tn, types.NewStruct(nil, nil), nil)
	x.Scope().Insert(tn)
	x.MarkComplete()
	conf := types.Config{Importer: importerFunc(func(string) (*types.Package, error) { return x, nil })}
	pkg, err := conf.Check("example.com/m/pub", fset, []*ast.File{file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := internalInAPI(pkg, func(p string) bool { return strings.Contains(p, "/internal/") })
	want := []string{"Desc.Leak", "F", "G", "I.N", "S.M", "V"}
	var names []string
	for _, g := range got {
		names = append(names, strings.SplitN(g, " ", 2)[0])
	}
	if !slices.Equal(names, want) {
		t.Errorf("found %q, want the names %v", got, want)
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// internalInAPI returns each exported name of pkg whose type mentions a
// named type from a package internal reports true for, as "Name (type)",
// sorted. It walks the exported functions, variables and constants,
// and of each exported type its exported fields and methods.
func internalInAPI(pkg *types.Package, internal func(path string) bool) []string {
	var leaks []string
	var mentions func(t types.Type, seen map[types.Type]bool) bool
	mentions = func(t types.Type, seen map[types.Type]bool) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Alias:
			return mentions(types.Unalias(t), seen)
		case *types.Named:
			if p := t.Obj().Pkg(); p != nil && internal(p.Path()) {
				return true
			}
			for i := range t.TypeArgs().Len() {
				if mentions(t.TypeArgs().At(i), seen) {
					return true
				}
			}
			return false // its own exported API is checked where it is declared
		case *types.Pointer:
			return mentions(t.Elem(), seen)
		case *types.Slice:
			return mentions(t.Elem(), seen)
		case *types.Array:
			return mentions(t.Elem(), seen)
		case *types.Map:
			return mentions(t.Key(), seen) || mentions(t.Elem(), seen)
		case *types.Chan:
			return mentions(t.Elem(), seen)
		case *types.Signature:
			return mentions(t.Params(), seen) || mentions(t.Results(), seen)
		case *types.Tuple:
			for i := range t.Len() {
				if mentions(t.At(i).Type(), seen) {
					return true
				}
			}
		case *types.Struct:
			for i := range t.NumFields() {
				if f := t.Field(i); (f.Exported() || f.Embedded()) && mentions(f.Type(), seen) {
					return true
				}
			}
		case *types.Interface:
			for i := range t.NumMethods() {
				if m := t.Method(i); m.Exported() && mentions(m.Type(), seen) {
					return true
				}
			}
		}
		return false
	}
	check := func(name string, t types.Type) {
		if mentions(t, map[types.Type]bool{}) {
			leaks = append(leaks, name+" ("+t.String()+")")
		}
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		tn, ok := obj.(*types.TypeName)
		if !ok {
			check(name, obj.Type())
			continue
		}
		if tn.IsAlias() {
			check(name, obj.Type())
			continue
		}
		named := obj.Type().(*types.Named)
		switch u := named.Underlying().(type) {
		case *types.Struct:
			for i := range u.NumFields() {
				if f := u.Field(i); f.Exported() || f.Embedded() {
					check(name+"."+f.Name(), f.Type())
				}
			}
		case *types.Interface:
			for i := range u.NumMethods() {
				if m := u.Method(i); m.Exported() {
					check(name+"."+m.Name(), m.Type())
				}
			}
		default:
			check(name, u)
		}
		for i := range named.NumMethods() {
			if m := named.Method(i); m.Exported() {
				check(name+"."+m.Name(), m.Type())
			}
		}
	}
	slices.Sort(leaks)
	return leaks
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
