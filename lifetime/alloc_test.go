package lifetime

import (
	"runtime"
	"testing"
	"time"
)

func skipIfRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
}

func TestBeginEndFrameAllocatesNothing(t *testing.T) {
	skipIfRace(t)
	fr, err := NewFrames(FramesDesc{})
	if err != nil {
		t.Fatal(err)
	}
	n := testing.AllocsPerRun(1000, func() {
		if _, err := fr.BeginFrame(); err != nil {
			t.Fatal(err)
		}
		if err := fr.EndFrame(); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Fatalf("BeginFrame+EndFrame allocates %v times", n)
	}
}

// TestBeginFrameWaitAllocatesNothing covers the steady path of a
// device-bound game: the CPU runs ahead, so BeginFrame blocks on the
// reused slot's fence every frame while a "GPU" goroutine completes
// fences. AllocsPerRun counts the whole process, the GPU goroutine too.
func TestBeginFrameWaitAllocatesNothing(t *testing.T) {
	skipIfRace(t)
	fr, fences := manualFrames(t, 3, 5*time.Second)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			time.Sleep(50 * time.Microsecond) // one frame of device work
			for _, f := range fences {
				f.Complete()
			}
		}
	}()
	n := testing.AllocsPerRun(200, func() {
		if _, err := fr.BeginFrame(); err != nil {
			t.Fatal(err)
		}
		if err := fr.EndFrame(); err != nil {
			t.Fatal(err)
		}
	})
	close(stop)
	<-done
	if st := fr.Stats(); st.Waits == 0 {
		t.Fatalf("BeginFrame never waited (%+v): the test did not reach the wait path", st)
	}
	if n != 0 {
		t.Fatalf("BeginFrame+EndFrame waiting on fences allocates %v times", n)
	}
}

func TestScheduleRunAllocatesNothing(t *testing.T) {
	skipIfRace(t)
	dq, err := NewDeferred(64)
	if err != nil {
		t.Fatal(err)
	}
	rel := &countReleaser{}
	var serial uint64
	n := testing.AllocsPerRun(1000, func() {
		serial++
		for k := uint64(0); k < 4; k++ {
			if err := dq.Schedule(serial, rel, k); err != nil {
				t.Fatal(err)
			}
		}
		dq.Run(serial - 1)
	})
	if n != 0 {
		t.Fatalf("Schedule+Run allocates %v times", n)
	}
}

func TestBarrierRoundTripAllocatesNothing(t *testing.T) {
	skipIfRace(t)
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
	skipIfRace(t)
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
