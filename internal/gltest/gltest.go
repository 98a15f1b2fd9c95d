package gltest

import (
	"sync"
	"testing"

	"github.com/steadyframe/steadyframe/internal/glctx"
	"github.com/steadyframe/steadyframe/internal/testenv"
)

// shared is the one test context of a test binary: creating a window per
// test would cost more than the tests themselves.
var shared struct {
	once sync.Once
	ctx  *glctx.Context
	err  error
}

// Context returns the test binary's shared Context, creating it on the
// ServeMain loop on first use. Without a display it skips the test on a
// user's machine and fails it in CI (testenv.SkipOrFail). The Context stays
// open until the process exits.
func Context(t testing.TB) *glctx.Context {
	t.Helper()
	shared.once.Do(func() {
		if err := Do(func() { shared.ctx, shared.err = glctx.New(glctx.Desc{}) }); err != nil {
			shared.err = err
		}
	})
	if shared.err != nil {
		testenv.SkipOrFail(t, "no OpenGL 4.5 context: "+shared.err.Error())
	}
	return shared.ctx
}

// Run runs f on the main-thread loop with the shared test context
// current. f reports problems with t.Error or t.Log, never t.Fatal or
// t.Skip (those end the calling goroutine, which would be the main loop),
// and returns an error to stop the test: Run fails the test with it on the
// caller's goroutine.
func Run(t testing.TB, f func(c *glctx.Context) error) {
	t.Helper()
	c := Context(t)
	var err error
	if e := Do(func() { err = f(c) }); e != nil {
		t.Fatal(e)
	}
	if err != nil {
		t.Fatal(err)
	}
}
