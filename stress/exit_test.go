package main

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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
			signalSelf(sig)
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
// TestClosedStdoutKeepsRunning: stress | head -1. The run goes on to its
// end, writes its -report files, and exits with exitReport saying that
// stdout was closed, instead of dying of SIGPIPE.
// TestReadOnlyReportDirFailsAtStart: a -report directory that exists but
// cannot be written fails before the run, with its own status. As root,
// whom permissions do not stop, the directory is a read-only tmpfs.
// TestFullDiskLeavesNoPartialReport: on a full filesystem (a small tmpfs,
// so only as root) the report files are written whole or not at all: the
// JSON fits, the plot does not, the old plot stays as it was, no
// temporary file is left, and the status says the report was not written.
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
