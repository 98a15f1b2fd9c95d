package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/guard"
)

// Exit statuses (exitHelp spells them out in -h). A usage error never
// panics; every non-zero status comes with one line on stderr saying why.
const (
	exitPass        = 0
	exitViolation   = 1 // a steady frame allocated, an owner failed, or the request accounting did not balance
	exitUsage       = 2 // bad flags
	exitHarness     = 3 // the harness could not run, or -selftest went uncaught
	exitTooFew      = 4 // fewer guarded frames than -min-frames: no verdict
	exitInterrupted = 5 // SIGINT or SIGTERM: stopped, torn down, partial report written
	exitKilled      = 6 // a second signal during shutdown: exited at once
	exitReportDir   = 7 // the -report directory is not writable: found at start, nothing ran
	exitReport      = 8 // the run ended, but its report was not written in full (stdout closed, or a -report file failed)
)

// signalsCaught runs once signal handling is in place, before anything
// else; the tests use it to signal the earliest moment.
var signalsCaught = func() {}

// tearingDown runs as the teardown starts. It is a hook for the tests,
// which slow the teardown down to send a second signal inside it.
var tearingDown = func() {}

// GLFW must be initialised on the main OS thread, and the render
// goroutine that owns the GL context is the main goroutine: lock it before
// main runs.
func init() { runtime.LockOSThread() }

func main() {
	// Site profiling must be on before anything allocates that the guard
	// may later have to name.
	guard.EnableSiteProfiling()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole program, callable from tests: it returns the exit
// status and writes the report to stdout, the occupancy log and the
// one-line reason to stderr.
func run(args []string, stdout, stderr io.Writer) int {
	// Signals first: a SIGINT or SIGTERM during flag parsing or set-up
	// must still get the teardown, a report and a reason line. And a
	// closed stdout or stderr must not kill the run (see output).
	sig := catchInterrupts(stderr, os.Exit)
	defer sig.stop()
	catchPipe()
	signalsCaught()
	out := newOutput(stdout)
	cfg, err := parseConfig(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitPass
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		fmt.Fprintln(stderr, "run 'stress -h' for the flags")
		return exitUsage
	}
	res, err := simulate(&cfg, sig, out, stderr)
	if errors.Is(err, errReportDir) {
		fmt.Fprintf(stderr, "stress: FAIL: %v\n", oneLine(err))
		return exitReportDir
	}
	if err != nil {
		fmt.Fprintf(stderr, "stress: FAIL: %v\n", oneLine(err))
		return exitHarness
	}
	return res.exit(&cfg, out, stderr)
}

// oneLine folds a joined error onto one line for the final reason.
func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }

// outcome is what the run found, and the exit status it earns.
type outcome struct {
	report *report
	guard  guard.Report
	// verdict is the guard's Verdict: nil, ErrAllocation or ErrFrameOrder
	// (a definite failure), or ErrTooFewFrames (no verdict).
	verdict     error
	interrupted string // the first signal's name; "" when none came
	poked       bool
	pokeFrame   uint64
	errs        []error
	caught      bool   // -selftest: the guard named the poke
	pokeSite    string // how the guard named it
	reportErr   error  // the -report files could not be written
}

// tooFew reports whether the guard checked too few frames for a verdict
// (and found nothing definite).
func (o *outcome) tooFew() bool { return errors.Is(o.verdict, guard.ErrTooFewFrames) }

// violated reports whether the guard found an allocation or misuse.
func (o *outcome) violated() bool { return o.verdict != nil && !o.tooFew() }

// finish sets the report's verdict line. A definite failure (a steady
// frame allocated, an owner failed, the accounting did not balance)
// stands even in an interrupted or short run; otherwise an interrupted
// run is marked so, and a run that guarded fewer than -min-frames frames
// has no verdict.
func (o *outcome) finish() {
	for _, s := range o.guard.Sites {
		if isSelftestSite(s.Function) {
			o.caught, o.pokeSite = true, s.String()
		}
	}
	o.report.Guard.SelftestCaught = o.caught
	o.report.Errors = o.report.Errors[:0]
	for _, e := range o.errs {
		o.report.Errors = append(o.report.Errors, oneLine(e))
	}
	checked := o.report.Guard.Armed
	switch {
	case o.violated():
		o.report.Verdict = "FAIL: steady-state allocation: " + o.verdict.Error()
	case len(o.errs) > 0:
		o.report.Verdict = "FAIL: " + oneLine(errors.Join(o.errs...))
	case o.interrupted != "":
		o.report.Verdict = fmt.Sprintf("INTERRUPTED by %s after %d frames: partial report; no allocation in the %d guarded frames so far",
			o.interrupted, o.report.Frames, checked)
	case o.tooFew():
		o.report.Verdict = "FAIL: no verdict: " + o.verdict.Error()
	default:
		o.report.Verdict = fmt.Sprintf("PASS: no allocation in %d steady frames (at least %d required), every request accounted",
			checked, o.report.Config.MinFrames)
	}
}

// exit prints the one-line reason and returns the status. A report that
// was not written in full (stdout closed, a -report file failed) turns a
// pass, a run without a verdict and an interrupted run into exitReport,
// with its own last line; a definite failure keeps its status.
func (o *outcome) exit(cfg *config, out *output, stderr io.Writer) int {
	code := o.status(cfg, stderr)
	var lost []string
	if err := out.Err(); err != nil {
		lost = append(lost, fmt.Sprintf("stdout: %v (the text report was not printed)", err))
	}
	if o.reportErr != nil {
		lost = append(lost, oneLine(o.reportErr))
	}
	if len(lost) == 0 {
		return code
	}
	if code == exitPass || code == exitTooFew || code == exitInterrupted {
		fmt.Fprintf(stderr, "stress: FAIL: report not written in full: %s; the run: %s\n", strings.Join(lost, "; "), o.report.Verdict)
		return exitReport
	}
	fmt.Fprintf(stderr, "stress: and the report was not written in full: %s\n", strings.Join(lost, "; "))
	return code
}

// status prints the run's one-line reason and returns its status.
func (o *outcome) status(cfg *config, stderr io.Writer) int {
	if cfg.selftest {
		switch {
		case !o.poked && o.interrupted != "":
			fmt.Fprintf(stderr, "stress: %s\n", o.report.Verdict)
			return exitInterrupted
		case !o.poked:
			fmt.Fprintf(stderr, "stress: FAIL: -selftest: the run ended before frame %d, where the allocation was to be injected\n", o.pokeFrame)
			return exitHarness
		case !o.caught:
			fmt.Fprintf(stderr, "stress: FAIL: -selftest: the allocation injected in frame %d (%s) was not caught; the guard proves nothing\n", o.pokeFrame, selftestName)
			return exitHarness
		}
		fmt.Fprintf(stderr, "stress: selftest: the guard caught the allocation injected in frame %d and named %s; failing the run as it must\n", o.pokeFrame, selftestName)
		line := fmt.Sprintf("stress: FAIL: steady-state allocation at %s in frame %d, injected by -selftest and caught", o.pokeSite, o.pokeFrame)
		if others := o.guard.Violations - 1; others > 0 {
			line += fmt.Sprintf("; %d other violating spans, the first: %v", others, o.verdict)
		}
		fmt.Fprintln(stderr, line)
		return exitViolation
	}
	switch {
	case o.report.passed():
		return exitPass
	case o.violated() || len(o.errs) > 0:
		fmt.Fprintf(stderr, "stress: %s\n", o.report.Verdict)
		return exitViolation
	case o.interrupted != "":
		fmt.Fprintf(stderr, "stress: %s\n", o.report.Verdict)
		return exitInterrupted
	default:
		fmt.Fprintf(stderr, "stress: %s\n", o.report.Verdict)
		return exitTooFew
	}
}

// interrupts turns SIGINT and SIGTERM into an orderly stop. The first
// signal only sets a flag, which the render loop and its pacing read
// every frame (an atomic load); the run then stops, tears down in the
// logged order, and writes its report marked interrupted (exit status
// exitInterrupted). A second signal means the shutdown itself is not
// wanted, or is stuck: the process exits at once with exitKilled, without
// teardown or report. A first signal that comes after the last frame
// marks nothing (the run is complete); the next one exits.
//
// It is the first thing run does, so a signal during flag parsing or
// set-up stops the run before its first frame, with the same teardown,
// report and status. One goroutine watches, ready before
// catchInterrupts returns (a goroutine started inside a guarded frame is
// a violation, and its first sleep allocates). It polls the
// signal channel without blocking and sleeps between polls, like the
// workers: a goroutine blocked on a channel borrows a sudog, which the
// runtime may have to allocate, inside a guarded frame, whenever it blocks
// again; one asleep on its own timer allocates nothing.
type interrupts struct {
	ch       chan os.Signal
	first    atomic.Int32 // the first signal's number; 0 while none came
	stopping atomic.Bool
	stderr   io.Writer
	exit     func(code int)
}

// signalPoll is how often the watcher looks for a signal.
const signalPoll = 10 * time.Millisecond

// catchInterrupts starts watching for SIGINT and SIGTERM and returns once
// the watcher can no longer allocate. exit ends the process on a second
// signal (os.Exit outside tests).
func catchInterrupts(stderr io.Writer, exit func(int)) *interrupts {
	s := &interrupts{ch: make(chan os.Signal, 2), stderr: stderr, exit: exit}
	signal.Notify(s.ch, syscall.SIGINT, syscall.SIGTERM)
	var ready sync.WaitGroup
	ready.Add(1)
	go s.watch(&ready)
	ready.Wait()
	return s
}

func (s *interrupts) watch(ready *sync.WaitGroup) {
	// The first time.Sleep of a goroutine allocates its runtime timer.
	time.Sleep(time.Nanosecond)
	ready.Done()
	for !s.stopping.Load() {
		select {
		case sig := <-s.ch:
			n := sig.(syscall.Signal)
			if s.first.CompareAndSwap(0, int32(n)) {
				continue
			}
			fmt.Fprintf(s.stderr, "stress: FAIL: second signal (%s) during shutdown: exiting at once, without teardown or report\n", signalName(n))
			s.exit(exitKilled)
			return
		default:
		}
		time.Sleep(signalPoll)
	}
}

// caught returns the first signal's name, or "" while none has come. It
// does not allocate.
func (s *interrupts) caught() string {
	n := s.first.Load()
	if n == 0 {
		return ""
	}
	return signalName(syscall.Signal(n))
}

// stop restores the default handling and ends the watcher: the run and
// its report are done.
func (s *interrupts) stop() {
	signal.Stop(s.ch)
	s.stopping.Store(true)
}

func signalName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}
