package main

import (
	"bufio"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// signalEnv makes the child send itself a signal ("SIGINT 5ms") that long
// after run has put its signal handling in place: the earliest moment a
// program can handle one.
const signalEnv = "STEADYFRAME_STRESS_SIGNAL"

// slowTeardownEnv, set in a child's environment, makes its teardown
// sleep that long first: the window a second signal must fall in.
const slowTeardownEnv = "STEADYFRAME_STRESS_SLOW_TEARDOWN"

func init() {
	if d, err := time.ParseDuration(os.Getenv(slowTeardownEnv)); err == nil && os.Getenv(childEnv) == "1" {
		tearingDown = func() { time.Sleep(d) }
	}
	spec := os.Getenv(signalEnv)
	if os.Getenv(childEnv) != "1" || spec == "" {
		return
	}
	name, after, _ := strings.Cut(spec, " ")
	d, err := time.ParseDuration(after)
	if err != nil {
		panic(signalEnv + ": " + err.Error())
	}
	sig := syscall.SIGINT
	if name == "SIGTERM" {
		sig = syscall.SIGTERM
	}
	signalsCaught = func() {
		// Started before any frame; it sleeps, signals and exits.
		go func() {
			time.Sleep(d)
			_ = syscall.Kill(os.Getpid(), sig)
		}()
	}
}

// readJSONReport reads report.json alone.
func readJSONReport(t *testing.T, dir string) report {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("report.json: %v", err)
	}
	return r
}

var allStages = []string{"voices-stopall", "sound-memory", "audio-device", "textures-free", "frames-drain",
	"descriptors-close", "upload-unmap", "frames-close"}

// TestEarlySignalTearsDown: a SIGINT or SIGTERM from the moment the tool
// can catch one, through set-up (tens of milliseconds headless, a few
// hundred with GL and oto) and the first frames, stops it with the whole
// teardown, a report marked interrupted and its own status and reason
// line, never the signal's default action.
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

// TestClosedStdoutKeepsRunning: stress | head -1. The run goes on to its
// end, writes its -report files, and exits with exitReport saying that
// stdout was closed, instead of dying of SIGPIPE.
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

// TestReadOnlyReportDirFailsAtStart: a -report directory that exists but
// cannot be written fails before the run, with its own status. As root,
// whom permissions do not stop, the directory is a read-only tmpfs.
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

// TestFullDiskLeavesNoPartialReport: on a full filesystem (a small tmpfs,
// so only as root) the report files are written whole or not at all: the
// JSON fits, the plot does not, the old plot stays as it was, no
// temporary file is left, and the status says the report was not written.
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

// TestExitStatusesDocumented: every exit status the code defines is in
// -h's list and in the README's table, and neither lists one the code
// lacks.
func TestExitStatusesDocumented(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var code []int
	ast.Inspect(f, func(n ast.Node) bool {
		if v, ok := n.(*ast.ValueSpec); ok && len(v.Names) == 1 && strings.HasPrefix(v.Names[0].Name, "exit") && len(v.Values) == 1 {
			if lit, ok := v.Values[0].(*ast.BasicLit); ok {
				n, _ := strconv.Atoi(lit.Value)
				code = append(code, n)
			}
		}
		return true
	})
	sort.Ints(code)
	if len(code) < 9 {
		t.Fatalf("found exit statuses %v in main.go", code)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(readme), "| status | meaning |")
	table, _, _ = strings.Cut(table, "\n\n")
	for _, doc := range []struct {
		name, text string
		row        *regexp.Regexp
	}{
		{"-h", exitHelp, regexp.MustCompile(`(?m)^  (\d+)  \S`)},
		{"README", table, regexp.MustCompile(`(?m)^\| (\d+) \| \S`)},
	} {
		var listed []int
		for _, m := range doc.row.FindAllStringSubmatch(doc.text, -1) {
			n, _ := strconv.Atoi(m[1])
			listed = append(listed, n)
		}
		sort.Ints(listed)
		if !slices.Equal(listed, code) {
			t.Errorf("%s lists exit statuses %v, the code has %v", doc.name, listed, code)
		}
	}
}
