package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/guard"
)

// The stress tool's end-to-end tests run it as a child process: the test
// binary re-executes itself with childEnv set, and TestMain then runs the
// program on the main goroutine, which init locked to the main OS thread as
// GLFW requires, with site profiling on from the start as in main.
const (
	childEnv = "STEADYFRAME_STRESS_CHILD"
	argsEnv  = "STEADYFRAME_STRESS_ARGS"
)

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		guard.EnableSiteProfiling()
		var args []string
		if a := os.Getenv(argsEnv); a != "" {
			args = strings.Split(a, "\x1f")
		}
		os.Exit(run(args, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// childResult is what one run of the stress tool printed and returned.
type childResult struct {
	code           int
	stdout, stderr string
}

// runChild runs the stress tool with args, bounded by limit.
func runChild(t *testing.T, limit time.Duration, args ...string) childResult {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1", argsEnv+"="+strings.Join(args, "\x1f"))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(limit):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("stress %v did not finish within %v; stderr:\n%s", args, limit, tail(errOut.String(), 40))
	}
	res := childResult{stdout: out.String(), stderr: errOut.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	default:
		t.Fatal(err)
	}
	return res
}

// tail returns the last n lines of s, for failure messages.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
