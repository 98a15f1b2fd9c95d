//go:build linux

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// signalEnv makes the child send itself a signal ("SIGINT 5ms") that long
// after run has put its signal handling in place: the earliest moment a
// program can handle one.
func TestEarlySignalTearsDown(t *testing.T) {
	audio := "offline"
	if os.Getenv("ALSA_CONFIG_PATH") != "" {
		audio = "oto"
	}
	ms := time.Millisecond
	for _, m := range []struct {
		name   string
		args   []string
		sigs   []string
		delays []time.Duration
	}{
		{"headless", []string{"-headless", "-audio", "offline"}, []string{"SIGINT", "SIGTERM"}, []time.Duration{0, ms, 5 * ms, 15 * ms, 50 * ms, 200 * ms}},
		{"gl", []string{"-audio", audio}, []string{"SIGINT", "SIGTERM"}, []time.Duration{0, 20 * ms, 100 * ms, 300 * ms, 1500 * ms}},
	} {
		for i, after := range m.delays {
			sig := m.sigs[i%len(m.sigs)]
			t.Run(m.name+"/"+sig+"@"+after.String(), func(t *testing.T) {
				if m.name == "gl" {
					if _, err := exec.LookPath("Xvfb"); err != nil && os.Getenv("DISPLAY") == "" {
						testenv.SkipOrFail(t, "no DISPLAY and no Xvfb: the GL run needs X")
					}
				}
				t.Setenv(signalEnv, sig+" "+after.String())
				dir := t.TempDir()
				res := runChild(t, time.Minute, append(m.args, "-duration", "2m", "-report", dir)...)
				if res.code != exitInterrupted {
					t.Fatalf("exit %d after %s at %v, want %d; stderr:\n%s", res.code, sig, after, exitInterrupted, tail(res.stderr, 20))
				}
				r := readJSONReport(t, dir) // a run stopped before its first frame has no plot line
				if svg, err := os.ReadFile(filepath.Join(dir, "occupancy.svg")); err != nil || !strings.HasPrefix(string(svg), "<svg") {
					t.Errorf("occupancy.svg: %v %.100s", err, svg)
				}
				if r.Interrupted != sig || !strings.HasPrefix(r.Verdict, "INTERRUPTED by "+sig) {
					t.Errorf("report: interrupted %q, verdict %q", r.Interrupted, r.Verdict)
				}
				var got []string
				for _, s := range r.Teardown {
					got = append(got, s.Name)
				}
				if strings.Join(got[:min(len(got), len(allStages))], ",") != strings.Join(allStages, ",") {
					t.Errorf("teardown %v, want %v first (then the GL context's, with GL)", got, allStages)
				}
				if !strings.Contains(tail(res.stderr, 1), "INTERRUPTED by "+sig) {
					t.Errorf("last stderr line %q", tail(res.stderr, 1))
				}
				t.Logf("interrupted after %d frames, exit in %v", r.Frames, res.took)
			})
		}
	}
}

func TestClosedStdoutKeepsRunning(t *testing.T) {
	dir := t.TempDir()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	c := startChild(t, pw, "-headless", "-audio", "offline", "-duration", "3s", "-settle", "30", "-min-frames", "60",
		"-progress-every", "20ms", "-report", dir)
	pw.Close()
	first, err := bufio.NewReader(pr).ReadString('\n')
	pr.Close() // head -1 exits
	if err != nil {
		t.Fatalf("no first line on stdout: %v", err)
	}
	res := c.wait(time.Minute)
	if res.code != exitReport {
		t.Fatalf("exit %d with stdout closed after %q, want %d; stderr:\n%s", res.code, first, exitReport, tail(res.stderr, 20))
	}
	r := readReport(t, dir)
	if !strings.HasPrefix(r.Verdict, "PASS") || r.Wall < 2.5 {
		t.Errorf("report: verdict %q after %.2f s; want the whole 3 s run to pass", r.Verdict, r.Wall)
	}
	last := tail(res.stderr, 1)
	if !strings.Contains(last, "report not written in full: stdout: broken pipe") || !strings.Contains(last, "the run: PASS") {
		t.Errorf("last stderr line %q does not say why", last)
	}
}

func TestReadOnlyReportDirFailsAtStart(t *testing.T) {
	dir := t.TempDir()
	if os.Geteuid() == 0 {
		if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_RDONLY, "size=64k"); err != nil {
			t.Skipf("running as root, and a read-only tmpfs cannot be mounted (%v): root writes any directory", err)
		}
		t.Cleanup(func() { _ = syscall.Unmount(dir, 0) })
	} else if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	res := runChild(t, time.Minute, "-headless", "-audio", "offline", "-duration", "30s", "-report", dir)
	if res.code != exitReportDir {
		t.Fatalf("exit %d, want %d; stderr:\n%s", res.code, exitReportDir, tail(res.stderr, 10))
	}
	if strings.Contains(res.stderr, "stress: starting") || res.took > 20*time.Second {
		t.Errorf("the run started (took %v) before the directory was found unwritable", res.took)
	}
	if last := tail(res.stderr, 1); !strings.Contains(last, "-report directory not writable") {
		t.Errorf("last stderr line %q does not say why", last)
	}
}

func TestFullDiskLeavesNoPartialReport(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("making a full filesystem needs root, to mount a small tmpfs")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=1m"); err != nil {
		t.Skipf("a tmpfs cannot be mounted: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, 0) })
	// Leave 16 KiB: the probe and report.json (about 5 KiB) fit, the
	// plot (over 30 KiB even for this short run) does not.
	if err := os.WriteFile(filepath.Join(dir, "filler"), make([]byte, 1<<20-16<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	old := []byte("<svg>the previous run's plot</svg>\n")
	if err := os.WriteFile(filepath.Join(dir, "occupancy.svg"), old, 0o644); err != nil {
		t.Fatal(err)
	}
	res := runChild(t, time.Minute, "-headless", "-audio", "offline", "-frames", "400", "-settle", "30", "-min-frames", "300",
		"-fps", "0", "-report", dir)
	if res.code != exitReport {
		t.Fatalf("exit %d, want %d; stderr:\n%s", res.code, exitReport, tail(res.stderr, 10))
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "occupancy.svg")); string(got) != string(old) {
		t.Errorf("occupancy.svg is %d bytes, want the old %d untouched", len(got), len(old))
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != "filler,occupancy.svg,report.json" {
		t.Errorf("directory holds %v, want filler, the old plot and the new report.json only", names)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "report.json"))
	if !strings.HasSuffix(string(b), "}\n") {
		t.Errorf("report.json is not whole: %d bytes", len(b))
	}
	last := tail(res.stderr, 1)
	if !strings.Contains(last, "report not written") || !strings.Contains(last, "occupancy.svg") || !strings.Contains(last, "no space left") {
		t.Errorf("last stderr line %q does not say why", last)
	}
}
