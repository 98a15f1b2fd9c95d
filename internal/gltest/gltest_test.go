package gltest_test

import (
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/internal/gltest"
)

// ServeMain must run on the main OS thread: lock the main goroutine to it.
func init() { runtime.LockOSThread() }

func TestMain(m *testing.M) { os.Exit(gltest.ServeMain(m.Run)) }

// Do needs only the ServeMain loop, not a display.
func TestDoReraisesPanics(t *testing.T) {
	ran := false
	if err := gltest.Do(func() { ran = true }); err != nil || !ran {
		t.Fatalf("Do: %v, ran %t", err, ran)
	}
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), "boom") {
			t.Errorf("recovered %v, want the main-thread panic", r)
		}
	}()
	_ = gltest.Do(func() { panic("boom") })
	t.Error("Do returned after a panic")
}

func TestErrNoMainLoopIsPrefixed(t *testing.T) {
	if !strings.HasPrefix(gltest.ErrNoMainLoop.Error(), "gltest: ") {
		t.Errorf("%q lacks the package prefix", gltest.ErrNoMainLoop)
	}
}
