package syncs_test

import (
	"fmt"
	"time"

	"github.com/steadyframe/steadyframe/lifetime/syncs"
)

// The goroutine that frees a sound bank first tells the mixer to stop the
// voices reading it, then waits on the barrier for a whole mixer pass that
// began after the request: after that no voice references the bank.
func ExampleBarrier() {
	var barrier syncs.Barrier
	commands := make(chan string, 8) // the mixer's command queue
	quit := make(chan struct{})
	mixerDone := make(chan struct{})
	go func() { // the audio goroutine owns the voices
		defer close(mixerDone)
		playing := map[string]bool{"explosion": true}
		for {
			select {
			case <-quit:
				return
			default:
			}
			if !barrier.Enter() {
				continue // seized: produce silence, touch nothing
			}
			for len(commands) > 0 {
				delete(playing, <-commands)
			}
			barrier.Exit()
			time.Sleep(time.Millisecond) // one audio block
		}
	}()

	commands <- "explosion" // publish first, then wait
	if err := barrier.Wait(time.Second); err != nil {
		// The owner is stalled (dead device): do its pass ourselves.
		if err := barrier.Seize(time.Second); err != nil {
			panic(err)
		}
		for len(commands) > 0 {
			<-commands
		}
		barrier.Unseize()
	}
	fmt.Println("bank freed: no voice reads it")
	close(quit)
	<-mixerDone
	// Output:
	// bank freed: no voice reads it
}
