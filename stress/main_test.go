package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
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
	took           time.Duration
}

// child is a running stress tool: its output so far can be read while it
// runs, and it can be sent signals.
type child struct {
	t      *testing.T
	args   []string
	cmd    *exec.Cmd
	stdout *testenv.Buffer // nil when stdout went elsewhere
	stderr *testenv.Buffer
	start  time.Time
	done   chan error
}

// startChild starts the stress tool with args; its stdout goes to stdout,
// or into a buffer when stdout is nil.
func startChild(t *testing.T, stdout *os.File, args ...string) *child {
	t.Helper()
	c := &child{t: t, args: args, stderr: &testenv.Buffer{}, done: make(chan error, 1)}
	c.cmd = exec.Command(os.Args[0], "-test.run=^$")
	c.cmd.Env = append(os.Environ(), childEnv+"=1", argsEnv+"="+strings.Join(args, "\x1f"))
	if stdout != nil {
		c.cmd.Stdout = stdout
	} else {
		c.stdout = &testenv.Buffer{}
		c.cmd.Stdout = c.stdout
	}
	c.cmd.Stderr = c.stderr
	c.start = time.Now()
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.done <- c.cmd.Wait() }()
	return c
}

// wait waits for the child to exit, killing it and failing the test after
// limit.
func (c *child) wait(limit time.Duration) childResult {
	c.t.Helper()
	var err error
	select {
	case err = <-c.done:
	case <-time.After(limit):
		_ = c.cmd.Process.Kill()
		<-c.done
		c.t.Fatalf("stress %v did not finish within %v; stderr:\n%s", c.args, limit, tail(c.stderr.String(), 40))
	}
	res := childResult{stderr: c.stderr.String(), took: time.Since(c.start)}
	if c.stdout != nil {
		res.stdout = c.stdout.String()
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	default:
		c.t.Fatal(err)
	}
	return res
}

// waitFor polls until cond holds on the output so far, failing the test
// if the child exits first or limit passes.
func (c *child) waitFor(what string, limit time.Duration, cond func(stdout, stderr string) bool) {
	c.t.Helper()
	deadline := time.Now().Add(limit)
	for {
		out := ""
		if c.stdout != nil {
			out = c.stdout.String()
		}
		if cond(out, c.stderr.String()) {
			return
		}
		select {
		case err := <-c.done:
			c.t.Fatalf("stress exited (%v) before %s; stderr:\n%s", err, what, tail(c.stderr.String(), 30))
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = c.cmd.Process.Kill()
			c.t.Fatalf("no %s within %v; stderr:\n%s", what, limit, tail(c.stderr.String(), 30))
		}
	}
}

// runChild runs the stress tool with args, bounded by limit.
func runChild(t *testing.T, limit time.Duration, args ...string) childResult {
	t.Helper()
	return startChild(t, nil, args...).wait(limit)
}

// tail returns the last n lines of s, for failure messages.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
