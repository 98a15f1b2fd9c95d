package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

func readReport(t *testing.T, dir string) report {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("report.json: %v", err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "occupancy.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(svg), "<svg") || !strings.Contains(string(svg), "<polyline") {
		t.Errorf("occupancy.svg holds no plot:\n%.300s", svg)
	}
	return r
}

// checkPassed asserts a run that must pass: exit 0, a PASS verdict, every
// steady frame checked and none allocating, and the workload really ran.
func checkPassed(t *testing.T, res childResult, r report, frames int) {
	t.Helper()
	if res.code != exitPass {
		t.Fatalf("exit %d, want 0; stderr:\n%s\nstdout:\n%s", res.code, tail(res.stderr, 30), tail(res.stdout, 40))
	}
	if !strings.HasPrefix(r.Verdict, "PASS") || r.Guard.Violations != 0 || r.Guard.SteadyAllocs != 0 {
		t.Errorf("verdict %q, %d violating frames, %d steady allocations", r.Verdict, r.Guard.Violations, r.Guard.SteadyAllocs)
	}
	if r.Frames != uint64(frames) || r.Guard.Armed != uint64(frames-r.Config.Settle) {
		t.Errorf("%d frames, %d armed; want %d and %d", r.Frames, r.Guard.Armed, frames, frames-r.Config.Settle)
	}
	if r.GC.Steady > uint32(r.Guard.Tolerated) {
		t.Errorf("%d GC cycles in the steady window, more than the %d tolerated frames whose site reads force one", r.GC.Steady, r.Guard.Tolerated)
	}
	if r.Descriptors.Live != 239 || r.Descriptors.Capacity != 1024 {
		t.Errorf("descriptors live %d of %d, want 239 of 1024", r.Descriptors.Live, r.Descriptors.Capacity)
	}
	if r.Churn.FontRebakes+r.Churn.QualitySwaps+r.Churn.Levels == 0 {
		t.Error("no texture churn happened")
	}
	for _, a := range r.Upload {
		if a.Allocs == 0 || a.Failures != 0 {
			t.Errorf("arena %s: %d allocs, %d failures", a.Name, a.Allocs, a.Failures)
		}
	}
	if r.Voices.Played == 0 {
		t.Error("no sound was played")
	}
	checkAccounted(t, r, true)
	if r.Objects.Created == 0 || r.Objects.Live == 0 {
		t.Errorf("objects: %d created, %d live at end", r.Objects.Created, r.Objects.Live)
	}
	want := []string{"voices-stopall", "sound-memory", "audio-device", "textures-free", "frames-drain", "descriptors-close", "upload-unmap", "frames-close"}
	var got []string
	for _, s := range r.Teardown {
		got = append(got, s.Name)
		if s.Err != "" {
			t.Errorf("teardown stage %s: %s", s.Name, s.Err)
		}
	}
	if strings.Join(got[:min(len(got), len(want))], ",") != strings.Join(want, ",") {
		t.Errorf("teardown order %v, want %v first", got, want)
	}
	if !strings.Contains(res.stderr, "descriptor occupancy (capacity 1024)") {
		t.Error("no descriptor occupancy line on stderr")
	}
}

// checkAccounted asserts that the report accounts for every kind of
// request, each balanced, and, with all, that the run issued some of each.
func checkAccounted(t *testing.T, r report, all bool) {
	t.Helper()
	if len(r.Requests) != int(kindCount-reqUpload) {
		t.Fatalf("%d request kinds in the report, want %d: %+v", len(r.Requests), kindCount-reqUpload, r.Requests)
	}
	for _, q := range r.Requests {
		sum := q.Applied + q.Merged + q.Refused + q.DroppedAtExit
		if !q.Balanced || sum != q.Issued {
			t.Errorf("%s: issued %d, accounted %d (%+v)", q.Kind, q.Issued, sum, q)
		}
		if all && q.Issued == 0 {
			t.Errorf("%s: no request issued", q.Kind)
		}
	}
}

func TestHeadlessRunPasses(t *testing.T) {
	dir := t.TempDir()
	const frames = 450
	res := runChild(t, 3*time.Minute, "-headless", "-audio", "offline", "-frames", "450", "-churn-rate", "20",
		"-occupancy-every", "250ms", "-report", dir)
	checkPassed(t, res, readReport(t, dir), frames)
}

func TestSelftestFailsNamingSite(t *testing.T) {
	res := runChild(t, 3*time.Minute, "-headless", "-audio", "offline", "-frames", "200", "-selftest")
	if res.code != exitViolation {
		t.Fatalf("-selftest exited %d, want %d; stderr:\n%s", res.code, exitViolation, tail(res.stderr, 30))
	}
	last := tail(res.stderr, 1)
	if !strings.Contains(last, selftestName) || !strings.Contains(last, "steady-state allocation") {
		t.Errorf("last stderr line does not name the injected site %s:\n%s", selftestName, last)
	}
	if !strings.Contains(res.stderr, "selftest: the guard caught the allocation injected in frame 151") {
		t.Errorf("no selftest confirmation; stderr:\n%s", tail(res.stderr, 10))
	}
	if !strings.Contains(res.stdout, "."+selftestName+" (selftest.go:") {
		t.Errorf("report does not list the site; stdout:\n%s", tail(res.stdout, 40))
	}
}

// TestGLRunPasses is the gate with real OpenGL: it needs a display, or
// Xvfb for the tool to start, and uses oto when ALSA has been pointed at a
// file.
func TestGLRunPasses(t *testing.T) {
	if _, err := exec.LookPath("Xvfb"); err != nil && os.Getenv("DISPLAY") == "" {
		testenv.SkipOrFail(t, "no DISPLAY and no Xvfb: the GL stress run needs X")
	}
	audio := "offline"
	if os.Getenv("ALSA_CONFIG_PATH") != "" {
		audio = "oto"
	}
	dir := t.TempDir()
	const frames = 420
	res := runChild(t, 5*time.Minute, "-audio", audio, "-frames", "420", "-settle", "100", "-sprites", "200",
		"-churn-rate", "30", "-report", dir)
	r := readReport(t, dir)
	if !strings.HasPrefix(r.Backend, "opengl") {
		t.Errorf("backend %q, want OpenGL", r.Backend)
	}
	checkPassed(t, res, r, frames)
}

// TestJSONLog checks that -log json makes every stderr line a JSON object
// and that the occupancy lines carry their fields.
func TestJSONLog(t *testing.T) {
	res := runChild(t, 2*time.Minute, "-headless", "-audio", "offline", "-frames", "200", "-min-frames", "50", "-log", "json", "-occupancy-every", "100ms")
	if res.code != exitPass {
		t.Fatalf("exit %d; stderr:\n%s", res.code, tail(res.stderr, 20))
	}
	occupancy := 0
	for _, line := range strings.Split(strings.TrimSpace(res.stderr), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not JSON: %q (%v)", line, err)
		}
		if m["msg"] == "descriptor occupancy (capacity 1024)" {
			occupancy++
			if m["live"] != 239.0 || m["pct"] == nil || m["high_water"] == nil {
				t.Errorf("occupancy line %v", m)
			}
		}
	}
	if occupancy == 0 {
		t.Error("no occupancy line")
	}
}
