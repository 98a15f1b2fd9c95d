package verifytest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// skipOrFail skips on a user's machine without a display, and fails in CI
// (CI=true), where the example must run: the rule of the library's
// internal/testenv, which a separate module cannot import.
func skipOrFail(t *testing.T, reason string) {
	t.Helper()
	if ci := os.Getenv("CI"); ci == "true" || ci == "1" {
		t.Fatalf("CI=true: the example cannot skip: %s", reason)
	}
	t.Skip(reason)
}

// binDir holds the example binary, built once for every test that runs
// it; TestMain removes it.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "renderer-verifytest")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

var built struct {
	once sync.Once
	out  []byte
	err  error
}

// build builds the example on the first call and returns its path.
func build(t *testing.T) string {
	t.Helper()
	if os.Getenv("DISPLAY") == "" {
		skipOrFail(t, "no X display (set DISPLAY, e.g. to an Xvfb server)")
	}
	bin := filepath.Join(binDir, "renderer")
	built.once.Do(func() { built.out, built.err = exec.Command("go", "build", "-o", bin, "..").CombinedOutput() })
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return bin
}

// runExample runs the built example with args, audio going to ALSA's null
// device when ALSA is installed (oto then runs for real; without it the
// engine falls back to its offline device), and returns its standard
// output, standard error and exit error.
func runExample(t *testing.T, bin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	env := append(os.Environ(), "LIBGL_ALWAYS_SOFTWARE=1")
	const alsaConf = "/usr/share/alsa/alsa.conf"
	if _, err := os.Stat(alsaConf); err == nil {
		conf := filepath.Join(t.TempDir(), "asound.conf")
		body := `pcm.!default { type file slave.pcm "null" file "/dev/null" format "raw" }` + "\n"
		if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		env = append(env, "ALSA_CONFIG_PATH="+alsaConf+":"+conf)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// number returns the integer captured by re's first group in s, failing t
// when re does not match.
func number(t *testing.T, re, s string) int {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("output does not match %q:\n%s", re, s)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestRendererVerifies runs 120 frames with -verify: every live texture
// read back must equal what was uploaded, the run must exit 0, and the
// report must show the parts of the integration at work.
func TestRendererVerifies(t *testing.T) {
	bin := build(t)
	out, errOut, err := runExample(t, bin, "-frames", "120", "-verify", "-hidden")
	t.Logf("stdout:\n%s", out)
	if err != nil {
		t.Fatalf("the example failed: %v\nstderr:\n%s", err, errOut)
	}
	if n := number(t, `(?m)^verify: (\d+) textures, 0 mismatches$`, out); n < 1 {
		t.Errorf("verify checked %d textures", n)
	}
	if number(t, `(?m)^renderer: (\d+) frames`, out) != 120 {
		t.Error("the example did not run 120 frames")
	}
	// Churn: textures freed in a frame are deleted once it completes, and
	// every upload went through the staging arena.
	if number(t, `(\d+) deleted`, out) < 1 || number(t, `(\d+) direct`, out) != 0 || number(t, `(\d+) staged`, out) < 8 {
		t.Error("textures were not churned, or not all staged")
	}
	// Level buffers come back through frame.Deferred and are reused.
	if loaded, bufs := number(t, `levels: (\d+) loaded`, out), number(t, `into (\d+) buffers`, out); bufs >= loaded {
		t.Errorf("%d levels in %d buffers: none was recycled through the Deferred", loaded, bufs)
	}
	if number(t, `tone played (\d+) times`, out) != 3 {
		t.Error("the tone was not played three times")
	}
	if !strings.Contains(errOut, `msg="teardown: done" stages=11 failed=0`) {
		t.Errorf("the teardown did not run all 11 stages cleanly:\n%s", errOut)
	}
}

// TestRendererSteadyFramesAllocateNothing runs 480 frames under the
// allocation guard (-guard): 120 to settle, then 360 checked, which must
// pass the guard's verdict (at least 300 checked frames, no violating
// span) with nothing allowed but oto's own goroutine and the runtime's
// listed exemptions. An integration guide that allocated every frame
// (go-gl/glfw's GetFramebufferSize did, called once a frame) would teach
// every renderer built from it to do the same.
func TestRendererSteadyFramesAllocateNothing(t *testing.T) {
	bin := build(t)
	out, errOut, err := runExample(t, bin, "-frames", "480", "-guard", "-hidden")
	t.Logf("stdout:\n%s", out)
	if err != nil {
		t.Fatalf("the example failed: %v\nstderr:\n%s", err, errOut)
	}
	if n := number(t, `(?m)^guard: (\d+) frames checked, 0 violating spans`, out); n < 300 {
		t.Errorf("the guard checked %d frames, want at least 300", n)
	}
}

// TestVerifyCatchesAMismatch proves -verify can fail: with one expected
// byte changed it must report one mismatch and exit 1.
func TestVerifyCatchesAMismatch(t *testing.T) {
	bin := build(t)
	out, errOut, err := runExample(t, bin, "-frames", "3", "-verify", "-hidden", "-corrupt")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("with -corrupt the example returned %v, want exit status 1\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	if number(t, `(?m)^verify: \d+ textures, (\d+) mismatches$`, out) != 1 {
		t.Errorf("want exactly one mismatch reported:\n%s", out)
	}
}

// TestNoInternalPackages checks that the example reaches the library only
// through its public packages: a user's module cannot import internal/.
// A public package of the library may import its own internal packages
// (voices over voices/internal/dsp), as the go tool allows.
func TestNoInternalPackages(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}", "..").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const lib = "github.com/steadyframe/steadyframe/"
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		d, imports, _ := strings.Cut(line, "|")
		if internalImport(lib, d, strings.Fields(imports)) {
			t.Errorf("%s imports an internal package of the library: %s", d, imports)
		}
		seen[d] = true
	}
	for _, p := range []string{"descriptors/gltex", "upload/glbuf", "lifetime/glfence", "lifetime/teardown", "voices/otodev"} {
		if !seen[lib+p] {
			t.Errorf("go list -deps does not list %s%s: the check is not looking at the example", lib, p)
		}
	}
}

// internalImport reports whether package pkg imports an internal package
// of the library lib that is not its own: any, for the example's
// packages; for a public package of the library, one outside its own
// internal/ tree. The library's internal packages may import each other.
func internalImport(lib, pkg string, imports []string) bool {
	isInternal := func(p string) bool {
		return strings.HasPrefix(p, lib) && strings.Contains("/"+strings.TrimPrefix(p, lib), "/internal/")
	}
	if isInternal(pkg) {
		return false
	}
	for _, imp := range imports {
		if isInternal(imp) && !(strings.HasPrefix(pkg, lib) && strings.HasPrefix(imp, pkg+"/internal/")) {
			return true
		}
	}
	return false
}
