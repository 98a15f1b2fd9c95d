package main

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// TestUncaughtExitsDocumented: the ways the tool ends that it does not
// choose are in the exit-status lists too. SIGHUP kills it by the
// default action (the shell's 128+1), and SIGQUIT makes the Go runtime
// dump its goroutines and exit 2. Each is sent to a running tool; the
// README's table, -h and the package doc must say what it gets. If the
// tool starts catching either, this fails until the lists change with it.
func TestUncaughtExitsDocumented(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	lists := map[string]string{"README": string(readme), "-h": exitHelp, "doc.go": string(doc)}
	for _, c := range []struct {
		sig  syscall.Signal
		want string // what each list must say
		died func(*os.ProcessState) bool
	}{
		{syscall.SIGHUP, "SIGHUP 129", func(ps *os.ProcessState) bool {
			ws, ok := ps.Sys().(syscall.WaitStatus)
			return ok && ws.Signaled() && ws.Signal() == syscall.SIGHUP
		}},
		{syscall.SIGQUIT, "SIGQUIT", func(ps *os.ProcessState) bool { return ps.ExitCode() == 2 }},
	} {
		t.Run(c.sig.String(), func(t *testing.T) {
			for name, text := range lists {
				if !strings.Contains(text, c.want) {
					t.Errorf("%s's exit statuses do not mention %q", name, c.want)
				}
			}
			if signal.Ignored(c.sig) {
				// Under nohup (or a runner that ignores SIGHUP) the child
				// inherits the ignored signal and runs on, as any program would.
				t.Skipf("%v is ignored by this process, so the child would ignore it too", c.sig)
			}
			ch := startChild(t, nil, "-headless", "-audio", "offline", "-duration", "2m", "-settle", "60",
				"-progress-every", "50ms", "-report", t.TempDir())
			ch.armed()
			if err := ch.cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			var werr error
			select {
			case werr = <-ch.done:
			case <-time.After(time.Minute):
				_ = ch.cmd.Process.Kill()
				<-ch.done
				t.Fatalf("still running a minute after %v", c.sig)
			}
			var exit *exec.ExitError
			if errors.As(werr, &exit) && c.sig == syscall.SIGQUIT && raceDumpCrash(exit.ProcessState, ch.stderr.String()) {
				t.Logf("race build: the runtime began its SIGQUIT dump and crashed inside it (a Go runtime fault, not the tool's); exit status 2 is checked by the plain run")
				return
			}
			if !errors.As(werr, &exit) || !c.died(exit.ProcessState) {
				t.Errorf("after %v: %v (%v), not what the lists say (%s); stderr:\n%s",
					c.sig, werr, ch.cmd.ProcessState, c.want, tail(ch.stderr.String(), 10))
			}
		})
	}
}

// raceDumpCrash reports the one way a race-instrumented tool may end on
// SIGQUIT other than exit 2: the runtime takes the signal (its dump
// begins "SIGQUIT: quit", so the tool did not catch it) and then crashes
// in its own traceback. Under the race detector the main goroutine spends
// much of its time in race-runtime calls, which run on the thread's system
// stack while the goroutine stays current; a SIGQUIT landing there makes
// Go 1.26's tracebackHexdump compute a negative length ("unsafe.Slice:
// len out of range", "panic during panic"), and the process dies by
// SIGSEGV. It happened in 8 of 12 SIGQUITs sent by hand to a race build,
// and never in a plain one, which is where exit status 2 is checked.
func raceDumpCrash(ps *os.ProcessState, stderr string) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return testenv.Race && ok && ws.Signaled() && ws.Signal() == syscall.SIGSEGV &&
		strings.Contains(stderr, "SIGQUIT: quit") && strings.Contains(stderr, "runtime.tracebackHexdump")
}
