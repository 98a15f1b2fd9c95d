package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/steadyframe/steadyframe/lifetime/guard"
)

// Exit statuses. A usage error never panics; every non-zero status comes
// with one line on stderr saying why.
const (
	exitPass      = 0
	exitViolation = 1 // a steady frame allocated, or an owner failed
	exitUsage     = 2 // bad flags
	exitHarness   = 3 // the harness could not run, or -selftest went uncaught
)

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
	cfg, err := parseConfig(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitPass
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		fmt.Fprintln(stderr, "run 'stress -h' for the flags")
		return exitUsage
	}
	res, err := simulate(&cfg, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "stress: FAIL: %v\n", oneLine(err))
		return exitHarness
	}
	return res.exit(&cfg, stderr)
}

// oneLine folds a joined error onto one line for the final reason.
func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }
