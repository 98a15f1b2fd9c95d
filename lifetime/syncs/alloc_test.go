package syncs

import (
	"runtime"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

func TestBarrierRoundTripAllocatesNothing(t *testing.T) {
	testenv.SkipUnderRace(t)
	var b Barrier
	// One goroutine: request, owner pass, wait.
	n := testing.AllocsPerRun(1000, func() {
		epoch := b.Request()
		if !b.Enter() {
			t.Fatal("Enter refused")
		}
		b.Exit()
		if err := b.WaitEpoch(epoch, time.Second); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Fatalf("barrier round trip allocates %v times", n)
	}
	// Across goroutines: Wait on a live owner, counting the owner's
	// allocations too (AllocsPerRun counts the whole process).
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if b.Enter() {
				b.Exit()
			}
			runtime.Gosched()
		}
	}()
	n = testing.AllocsPerRun(50, func() {
		if err := b.Wait(5 * time.Second); err != nil {
			t.Fatal(err)
		}
	})
	close(stop)
	<-done
	if n != 0 {
		t.Fatalf("Wait against a live owner allocates %v times", n)
	}
}

func TestSeizeUnseizeAllocatesNothing(t *testing.T) {
	testenv.SkipUnderRace(t)
	var b Barrier
	n := testing.AllocsPerRun(1000, func() {
		if err := b.Seize(time.Second); err != nil {
			t.Fatal(err)
		}
		b.Unseize()
	})
	if n != 0 {
		t.Fatalf("Seize+Unseize allocates %v times", n)
	}
}
