package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// CrossRunEnv, when set (to where it runs: "wine"), says the test binary
// was cross-built and runs on another system without the go command.
// scripts/ci-platforms.sh runs the windows ones so under Wine. Go then
// skips its test, which ran on the build host too.
const CrossRunEnv = "STEADYFRAME_CROSS_RUN"

// Go runs the go command that runs the tests (go test puts it first on
// PATH) with args. The environment gets the extra KEY=value pairs in env.
// Go returns the combined output and exit error. It fails the test only
// when there is no go command. It is the one go runner of the module's tests:
// the dependency checks, and the checks that read the compiler's output
// (inlining, type errors).
func Go(t testing.TB, env []string, args ...string) ([]byte, error) {
	t.Helper()
	if os.Getenv(CrossRunEnv) != "" {
		t.Skipf("%s=%s: a cross-built test binary, run without the go command; this check ran on the build host",
			CrossRunEnv, os.Getenv(CrossRunEnv))
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	cmd := exec.Command(goCmd, args...)
	cmd.Env = append(cmd.Environ(), env...)
	return cmd.CombinedOutput()
}

// List runs go list with args, whose -f template prints n fields a line
// separated by "|" (the last may hold more), in the environment given as
// extra KEY=value pairs, and returns each line's fields. It fails the test
// when go list fails or prints a line of another shape.
func List(t testing.TB, env []string, n int, args ...string) [][]string {
	t.Helper()
	out, err := Go(t, env, append([]string{"list"}, args...)...)
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	var rows [][]string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.SplitN(line, "|", n)
		if len(f) != n {
			t.Fatalf("go list printed %q", line)
		}
		rows = append(rows, f)
	}
	return rows
}

// Dep is one package in the import graph that Deps lists.
type Dep struct {
	Path     string // import path; a test variant's " [pkg.test]" suffix is cut
	Standard bool   // part of the standard library
	Cgo      bool   // has cgo files in this build
}

// Deps lists pkg and everything it imports, with `go list -deps`. With
// tests true it adds -test, so the package's tests count too. The
// environment gets the extra KEY=value pairs in env, such as CGO_ENABLED=0
// for a check that the package builds without cgo. It fails the test when go list
// fails or when the listing does not include pkg itself, so a dependency
// check cannot pass by looking at nothing.
func Deps(t testing.TB, pkg string, tests bool, env ...string) []Dep {
	t.Helper()
	args := []string{"-deps", "-f", "{{.ImportPath}}|{{.Standard}}|{{len .CgoFiles}}"}
	if tests {
		args = append(args, "-test")
	}
	var deps []Dep
	seen := false
	for _, f := range List(t, env, 3, append(args, pkg)...) {
		path, _, _ := strings.Cut(f[0], " ")
		seen = seen || path == pkg
		deps = append(deps, Dep{Path: path, Standard: f[1] == "true", Cgo: f[2] != "0"})
	}
	if !seen {
		t.Fatalf("go list does not list %s itself: the check is not looking at it\n%v", pkg, deps)
	}
	return deps
}
