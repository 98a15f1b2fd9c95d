package syncs

import (
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

func TestBarrierRoundTripAllocatesNothing(t *testing.T) {
	var b Barrier
	// One goroutine: request, owner pass, wait.
	testenv.NoAllocs(t, "barrier round trip", 1000, func() {
		epoch := b.Request()
		if !b.Enter() {
			t.Fatal("Enter refused")
		}
		b.Exit()
		if err := b.WaitEpoch(epoch, time.Second); err != nil {
			t.Fatal(err)
		}
	})
	// Across goroutines: Wait on a live owner, counting the owner's
	// allocations too (AllocsPerRun counts the whole process).
	stop := liveOwner(&b)
	testenv.NoAllocs(t, "Wait against a live owner", 50, func() {
		if err := b.Wait(5 * time.Second); err != nil {
			t.Fatal(err)
		}
	})
	stop()
}

func TestSeizeUnseizeAllocatesNothing(t *testing.T) {
	var b Barrier
	testenv.NoAllocs(t, "Seize+Unseize", 1000, func() {
		if err := b.Seize(time.Second); err != nil {
			t.Fatal(err)
		}
		b.Unseize()
	})
}
