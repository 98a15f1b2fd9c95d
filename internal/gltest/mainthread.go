package gltest

import (
	"errors"
	"fmt"
	"sync/atomic"
)

// ErrNoMainLoop is returned by Do when no ServeMain loop is running, so
// there is no main-thread goroutine to run the call on.
var ErrNoMainLoop = errors.New("gltest: no main-thread loop (call ServeMain from TestMain)")

// mainCalls carries work to the ServeMain loop. It is unbuffered: Do
// waits for its call to be taken and then for it to finish.
var mainCalls = make(chan mainCall)

// serving is true while a ServeMain loop drains mainCalls.
var serving atomic.Bool

type mainCall struct {
	f    func()
	done chan any // receives nil, or the value f panicked with
}

// ServeMain runs run on a new goroutine and, until it returns, executes
// every function passed to Do on the calling goroutine. Call it from the
// main goroutine locked to the main OS thread (runtime.LockOSThread in an
// init function), typically as os.Exit(gltest.ServeMain(m.Run)) in TestMain.
// It returns run's result.
func ServeMain(run func() int) int {
	done := make(chan int, 1)
	serving.Store(true)
	defer serving.Store(false)
	go func() { done <- run() }()
	for {
		select {
		case c := <-mainCalls:
			c.done <- call(c.f)
		case code := <-done:
			return code
		}
	}
}

// call runs f and returns the value it panicked with, so a panic in GL
// code fails the test that caused it instead of killing the main loop.
func call(f func()) (p any) {
	defer func() {
		if r := recover(); r != nil {
			p = r
		}
	}()
	f()
	return nil
}

// Do runs f on the ServeMain goroutine and waits for it. A panic in f is
// re-raised on the caller's goroutine. Do may be called from any goroutine
// but not from inside f (that would deadlock). It allocates: batch GL work
// into one Do per test or benchmark loop, not one per call.
func Do(f func()) error {
	if !serving.Load() {
		return ErrNoMainLoop
	}
	c := mainCall{f: f, done: make(chan any, 1)}
	mainCalls <- c
	if p := <-c.done; p != nil {
		panic(fmt.Sprintf("gltest: panic on the main thread: %v", p))
	}
	return nil
}
