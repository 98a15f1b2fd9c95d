package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The run-control tests drive the tool as a user would: a process started
// with flags, timed, sent signals, its exit status and report read back.

// TestTooFewFramesFails: a run that guards fewer than -min-frames frames
// has no verdict, whatever else it did: its own exit status, and the
// reason on stderr and in the report.
func TestTooFewFramesFails(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		why  string
	}{
		{"1ms", []string{"-duration", "1ms"}, "the guard never armed"},
		{"80 armed", []string{"-frames", "200"}, "80 armed frames checked, 300 required"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			res := runChild(t, 2*time.Minute, append([]string{"-headless", "-audio", "offline", "-report", dir}, c.args...)...)
			if res.code != exitTooFew {
				t.Fatalf("exit %d, want %d; stderr:\n%s", res.code, exitTooFew, tail(res.stderr, 10))
			}
			last := tail(res.stderr, 1)
			if !strings.Contains(last, "no verdict: guard: too few guarded frames") || !strings.Contains(last, c.why) {
				t.Errorf("last stderr line %q does not say why", last)
			}
			if r := readReport(t, dir); !strings.HasPrefix(r.Verdict, "FAIL: no verdict") || r.passed() {
				t.Errorf("report verdict %q", r.Verdict)
			}
		})
	}
}

// TestDurationHonouredAtLowFPS: at 0.05 frames a second the second frame
// is due 20 s after the first; -duration 1s must still end the run after
// about a second (it then has no verdict: two frames).
func TestDurationHonouredAtLowFPS(t *testing.T) {
	dir := t.TempDir()
	res := runChild(t, time.Minute, "-headless", "-audio", "offline", "-fps", "0.05", "-duration", "1s", "-report", dir)
	r := readReport(t, dir)
	if r.Wall < 0.9 || r.Wall > 1.5 {
		t.Errorf("the run loop took %.2f s with -duration 1s", r.Wall)
	}
	if res.took > 15*time.Second {
		t.Errorf("the process took %v", res.took)
	}
	if res.code != exitTooFew {
		t.Errorf("exit %d, want %d (two frames guard nothing)", res.code, exitTooFew)
	}
}

// TestAccountingBalances runs 64 workers for 4 seconds at full speed:
// every kind of request is issued, including texture churn, which the
// workers' phases spread over time (without them a 64-worker run shorter
// than 16 s has none), and the report accounts for each as issued =
// applied + merged + refused + dropped at exit. The test is about the
// accounting, and 64 busy workers under -race on two cores manage a few
// frames a second, so it asks the guard for a single frame.
func TestAccountingBalances(t *testing.T) {
	dir := t.TempDir()
	res := runChild(t, 3*time.Minute, "-headless", "-audio", "offline", "-workers", "64", "-duration", "4s",
		"-fps", "0", "-settle", "5", "-min-frames", "1", "-report", dir)
	r := readReport(t, dir)
	if res.code != exitPass {
		t.Fatalf("exit %d, verdict %q; stderr:\n%s", res.code, r.Verdict, tail(res.stderr, 20))
	}
	// At 4 churn events a second a level transition (15% of them) may
	// not come up in 4 s: require churn as a whole, and the rest by kind.
	checkAccounted(t, r, false)
	churn := 0
	for _, q := range r.Requests {
		switch q.Kind {
		case "font-rebake", "quality-swap", "level":
			churn += int(q.Issued)
		default:
			if q.Issued == 0 {
				t.Errorf("no %s request issued", q.Kind)
			}
		}
	}
	if churn < 10 {
		t.Errorf("%d churn requests in 4 s at 4 a second", churn)
	}
	if !regexp.MustCompile(`requests   upload +issued +\d+ = applied +\d+ \+ merged +\d+ \+ refused +\d+ \+ dropped at exit +\d+  ok`).MatchString(res.stdout) {
		t.Errorf("the text report lacks the upload accounting line:\n%s", tail(res.stdout, 45))
	}
}

// armed waits until the child's progress line shows frames past the
// guard's settle (60 in these tests).
func (c *child) armed() {
	c.t.Helper()
	frames := regexp.MustCompile(`frames=(\d+)`)
	c.waitFor("armed frames", time.Minute, func(stdout, _ string) bool {
		m := frames.FindAllStringSubmatch(stdout, -1)
		if len(m) == 0 {
			return false
		}
		n, _ := strconv.Atoi(m[len(m)-1][1])
		return n > 120
	})
}

// TestSignalWritesPartialReport sends SIGINT or SIGTERM to a running
// tool: it must stop, tear down in the logged order, write the partial
// report marked interrupted (text and JSON) and exit with its own status.
func TestSignalWritesPartialReport(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		name := signalName(sig)
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			c := startChild(t, nil, "-headless", "-audio", "offline", "-duration", "2m", "-settle", "60",
				"-progress-every", "50ms", "-report", dir)
			c.armed()
			if err := c.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			res := c.wait(time.Minute)
			if res.code != exitInterrupted {
				t.Fatalf("exit %d after %s, want %d; stderr:\n%s", res.code, name, exitInterrupted, tail(res.stderr, 20))
			}
			r := readReport(t, dir)
			if r.Interrupted != name || !strings.HasPrefix(r.Verdict, "INTERRUPTED by "+name) {
				t.Errorf("report: interrupted %q, verdict %q", r.Interrupted, r.Verdict)
			}
			if r.Guard.Violations != 0 || r.Guard.Armed == 0 {
				t.Errorf("the partial report has %d violating spans in %d guarded frames", r.Guard.Violations, r.Guard.Armed)
			}
			checkAccounted(t, r, false)
			want := []string{"voices-stopall", "sound-memory", "audio-device", "textures-free", "frames-drain",
				"descriptors-close", "upload-unmap", "frames-close"}
			var got []string
			for _, s := range r.Teardown {
				got = append(got, s.Name)
				if s.Err != "" {
					t.Errorf("teardown %s: %s", s.Name, s.Err)
				}
			}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("teardown %v, want %v", got, want)
			}
			logged := regexp.MustCompile(`stage=(\S+)`).FindAllStringSubmatch(res.stderr, -1)
			if len(logged) != len(want) || logged[0][1] != want[0] || logged[len(logged)-1][1] != want[len(want)-1] {
				t.Errorf("logged stages %v", logged)
			}
			if !strings.Contains(res.stdout, "INTERRUPTED by "+name+": a partial report") ||
				!strings.Contains(res.stdout, "verdict    INTERRUPTED by "+name) {
				t.Errorf("the text report is not marked interrupted:\n%s", tail(res.stdout, 40))
			}
			if !strings.Contains(tail(res.stderr, 1), "INTERRUPTED by "+name) {
				t.Errorf("last stderr line %q", tail(res.stderr, 1))
			}
		})
	}
}

// TestSecondSignalExitsAtOnce: a signal during the shutdown that a first
// one started ends the process at once, with its own status and without
// the report.
func TestSecondSignalExitsAtOnce(t *testing.T) {
	dir := t.TempDir()
	// The teardown takes milliseconds: slowed down, the second signal
	// falls inside it however loaded the machine is.
	t.Setenv(slowTeardownEnv, "5s")
	c := startChild(t, nil, "-headless", "-audio", "offline", "-duration", "2m", "-settle", "60",
		"-progress-every", "50ms", "-report", dir)
	c.armed()
	if err := c.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	c.waitFor("the interrupted line", time.Minute, func(_, stderr string) bool {
		return strings.Contains(stderr, "stress: interrupted")
	})
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	res := c.wait(30 * time.Second)
	if res.code != exitKilled {
		t.Fatalf("exit %d after a second signal, want %d; stderr:\n%s", res.code, exitKilled, tail(res.stderr, 20))
	}
	if !strings.Contains(res.stderr, "second signal (SIGTERM) during shutdown: exiting at once") {
		t.Errorf("stderr does not say why:\n%s", tail(res.stderr, 5))
	}
	if _, err := os.Stat(filepath.Join(dir, "report.json")); err == nil {
		t.Error("a report was written after the second signal: the shutdown finished first")
	}
}
