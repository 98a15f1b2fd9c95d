package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/voices"
)

// breakEnv names the scenario whose expectation a child run checks
// deliberately wrong (scenarioBreak).
const breakEnv = "STEADYFRAME_STRESS_BREAK"

func init() { scenarioBreak = os.Getenv(breakEnv) }

// checkScenarios asserts a -scenario run that must pass: exit 0, every
// phase planned for names run and passed, with its verdict line printed.
func checkScenarios(t *testing.T, res childResult, r report, names []string) {
	t.Helper()
	if res.code != exitPass {
		t.Fatalf("exit %d, want 0; stderr:\n%s\nstdout:\n%s", res.code, tail(res.stderr, 20), tail(res.stdout, 30))
	}
	var got []string
	for _, s := range r.Scenarios {
		got = append(got, s.Name)
		if !s.Passed || !strings.HasPrefix(s.Verdict, "PASS") {
			t.Errorf("phase %d %s: %s", s.Phase, s.Name, s.Verdict)
		}
		if !strings.Contains(res.stdout, "verdict "+s.Name+" PASS: ") {
			t.Errorf("no verdict line for %s on stdout", s.Name)
		}
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("phases %v, want %v", got, names)
	}
	if r.Guard.SteadyAllocs != 0 || r.Guard.Violations != 0 || r.Guard.Armed < uint64(r.Config.MinFrames) {
		t.Errorf("guard: %d allocations in %d violating spans over %d armed frames", r.Guard.SteadyAllocs, r.Guard.Violations, r.Guard.Armed)
	}
	checkAccounted(t, r, false)
}

// allPhases is the plan of -scenario all.
var allPhases = []string{"steady", "leak", "steady", "voice-storm", "steady", "upload-flood", "steady", "churn-storm", "steady"}

// TestScenariosHeadless runs every scenario in turn on the CPU backends
// and the offline audio device, and checks what each one says happened.
func TestScenariosHeadless(t *testing.T) {
	dir := t.TempDir()
	res := runChild(t, 4*time.Minute, "-headless", "-audio", "offline", "-scenario", "all", "-occupancy-every", "250ms", "-report", dir)
	r := readReport(t, dir)
	checkScenarios(t, res, r, allPhases)
	byName := map[string]scenarioSection{}
	for _, s := range r.Scenarios {
		byName[s.Name] = s
	}
	if s := byName["leak"]; s.Warnings != 3 || s.HeapRefused == 0 || !strings.Contains(s.Verdict, "live 1024, peak 1024") {
		t.Errorf("leak: %d warnings, %d refusals: %s", s.Warnings, s.HeapRefused, s.Verdict)
	}
	if s := byName["voice-storm"]; s.Steals == 0 || s.VoiceRefused == 0 {
		t.Errorf("voice-storm: %d steals, %d refusals", s.Steals, s.VoiceRefused)
	}
	if s := byName["upload-flood"]; s.ArenaRefused == 0 {
		t.Errorf("upload-flood: no arena refused")
	}
	// The heap's own warnings reach the occupancy log as they fire.
	for _, want := range []string{`crossed 75% occupancy`, `crossed 90% occupancy`, "stress: scenario phase begins"} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
	if r.Voices.Peak != r.Voices.Capacity {
		t.Errorf("voices peaked at %d of %d", r.Voices.Peak, r.Voices.Capacity)
	}
}

// TestScenarioBrokenExpectationFails checks each scenario's own verdict can
// fail: with one expectation checked wrong on purpose, the run exits 1
// naming the scenario.
func TestScenarioBrokenExpectationFails(t *testing.T) {
	for _, name := range scenarioNames {
		t.Run(name, func(t *testing.T) {
			t.Setenv(breakEnv, name)
			res := runChild(t, 3*time.Minute, "-headless", "-audio", "offline", "-scenario", name)
			if res.code != exitViolation {
				t.Fatalf("exit %d, want %d; stderr:\n%s", res.code, exitViolation, tail(res.stderr, 10))
			}
			if last := tail(res.stderr, 1); !strings.Contains(last, "stress: FAIL: stress: scenario "+name) {
				t.Errorf("last stderr line does not name the scenario:\n%s", last)
			}
			if !strings.Contains(res.stdout, "verdict "+name+" FAIL: ") {
				t.Errorf("no failing verdict line for %s:\n%s", name, tail(res.stdout, 12))
			}
		})
	}
}

// TestScenariosGL runs every scenario on real OpenGL (Xvfb when there is
// no display) with oto when ALSA points at a file: the upload flood then
// reads every accepted byte back from the GPU buffer.
func TestScenariosGL(t *testing.T) {
	if _, err := exec.LookPath("Xvfb"); err != nil && os.Getenv("DISPLAY") == "" {
		testenv.SkipOrFail(t, "no DISPLAY and no Xvfb: the GL stress run needs X")
	}
	audio := "offline"
	if os.Getenv("ALSA_CONFIG_PATH") != "" {
		audio = "oto"
	}
	dir := t.TempDir()
	res := runChild(t, 6*time.Minute, "-audio", audio, "-scenario", "all", "-sprites", "200", "-report", dir)
	r := readReport(t, dir)
	if !strings.HasPrefix(r.Backend, "opengl") {
		t.Errorf("backend %q, want OpenGL", r.Backend)
	}
	checkScenarios(t, res, r, allPhases)
	for _, s := range r.Scenarios {
		if s.Name == "upload-flood" && !strings.Contains(s.Verdict, "read back from the GPU buffer, 0 wrong") {
			t.Errorf("upload-flood did not read the GPU buffer back: %s", s.Verdict)
		}
	}
}

// TestScenarioDocMatchesCode keeps docs/stress-scenarios.md's numbers in
// step with the constants the scenarios run on.
func TestScenarioDocMatchesCode(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "stress-scenarios.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(string(b)), " ")
	for _, want := range []string{
		fmt.Sprintf("steady phase (%d frames)", steadyFrames),
		fmt.Sprintf("every %d frames it creates %d more textures", leakEvery, scene.LevelTextures),
		fmt.Sprintf("after %d more loads of refusals", leakRoundsExhausted),
		fmt.Sprintf("issues %d plays in the same tick (%d with 4 workers)", stormPlays, 4*stormPlays),
		fmt.Sprintf("%d at priority %d, then one at priority %d", probes, probePrio, probeLowPrio),
		fmt.Sprintf("(`scene.Virtual`, %d)", scene.Virtual),
		fmt.Sprintf("%d times the cap, less %d (%d each with 4 workers, %d plays in all)", stormOver, voices.DefaultMaxVoices,
			(stormOver*scene.Virtual-voices.DefaultMaxVoices)/4, 4*(stormPlays+(stormOver*scene.Virtual-voices.DefaultMaxVoices)/4)),
		fmt.Sprintf("The %d are the cap less two: %d under virtual voices", probes, scene.Virtual-2),
		fmt.Sprintf("For %d frames the render goroutine fills", floodFrames),
		"a sixteenth of its region",
		fmt.Sprintf("For %d frames a font rebake", churnFrames),
		fmt.Sprintf("one frame's churn (%d)", scene.LoadedSlots-1),
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/stress-scenarios.md does not say %q", want)
		}
	}
	if floodChunks != 16 {
		t.Errorf("floodChunks is %d; the doc says a sixteenth", floodChunks)
	}
}

// TestJudgeUnfinishedPhases: a phase the run never reached, or cut short,
// fails the run; one cut short by a signal marks it interrupted instead.
func TestJudgeUnfinishedPhases(t *testing.T) {
	plan, err := parseScenario("leak")
	if err != nil {
		t.Fatal(err)
	}
	d := newDirector(plan, nil)
	d.phases[0].begun, d.phases[0].done, d.phases[0].frames = true, true, steadyFrames
	d.phases[1].begun = true // the leak, cut short
	d.phases[1].c0 = counters{voiceRefusals: 54, heapRefused: 3, steals: 2}
	rep := &report{Frames: 500}
	errs := d.judge(rep)
	if s := rep.Scenarios[len(rep.Scenarios)-1]; s.VoiceRefused != 0 || s.HeapRefused != 0 || s.Steals != 0 {
		t.Errorf("cut-short phase counts %d voice and %d heap refusals, %d steals; want 0 (not a wrapped subtraction)",
			s.VoiceRefused, s.HeapRefused, s.Steals)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "scenario leak (phase 2): did not complete") {
		t.Errorf("errors %v, want the leak's, unfinished", errs)
	}
	if len(rep.Scenarios) != 2 || !rep.Scenarios[0].Passed || rep.Scenarios[1].Passed {
		t.Errorf("sections %+v", rep.Scenarios)
	}

	d = newDirector(plan, nil)
	d.phases[0].begun, d.phases[0].done, d.phases[0].frames = true, true, steadyFrames
	d.phases[1].begun = true
	rep = &report{Frames: 500, Interrupted: "SIGINT"}
	if errs := d.judge(rep); len(errs) != 0 {
		t.Errorf("interrupted: errors %v, want none", errs)
	}
	if v := rep.Scenarios[1].Verdict; !strings.HasPrefix(v, "INTERRUPTED by SIGINT") {
		t.Errorf("interrupted leak: verdict %q", v)
	}

	d = newDirector(plan, nil)
	rep = &report{Frames: 130}
	if errs := d.judge(rep); len(errs) != 1 || !strings.Contains(errs[0].Error(), "never ran") {
		t.Errorf("a run too short: errors %v, want phases that never ran", errs)
	}
}

// TestParseScenario: each name runs after a steady phase; all runs every
// one with a steady phase between.
func TestParseScenario(t *testing.T) {
	for s, want := range map[string][]string{
		"":            nil,
		"steady":      {"steady"},
		"voice-storm": {"steady", "voice-storm"},
		"all":         allPhases,
	} {
		plan, err := parseScenario(s)
		var got []string
		for _, sc := range plan {
			got = append(got, sc.name())
		}
		if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%q: %v (%v), want %v", s, got, err, want)
		}
	}
	if _, err := parseScenario("storm"); err == nil {
		t.Error("an unknown scenario parsed")
	}
}
