package syncs

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestBarrierWaitSeesOwnerPass(t *testing.T) {
	var b Barrier
	epoch := b.Request()
	if b.Reached(epoch) {
		t.Fatal("epoch reached before any pass")
	}
	if !b.Enter() {
		t.Fatal("Enter refused on an idle barrier")
	}
	b.Exit()
	if !b.Reached(epoch) {
		t.Fatal("a pass begun after the request did not reach its epoch")
	}
	if err := b.WaitEpoch(epoch, 0); err != nil {
		t.Fatalf("WaitEpoch = %v after the pass", err)
	}
	// A pass that began before a request does not honour it.
	if !b.Enter() {
		t.Fatal("Enter refused")
	}
	late := b.Request()
	b.Exit()
	if b.Reached(late) {
		t.Fatal("a pass that began before the request was counted for it")
	}
}

// TestBarrierStalledOwnerSeizeFallback is the dead-audio-device path: the
// owner never runs a pass, so Wait times out, the requester seizes the
// barrier, does the owner's work, and releases it.
func TestBarrierStalledOwnerSeizeFallback(t *testing.T) {
	var b Barrier
	err := b.Wait(20 * time.Millisecond)
	if !errors.Is(err, ErrBarrierTimeout) || !strings.Contains(err.Error(), "epoch 1") ||
		!strings.Contains(err.Error(), "0 passes") {
		t.Fatalf("Wait = %v, want ErrBarrierTimeout naming epoch 1 and 0 passes", err)
	}
	if err := b.Seize(20 * time.Millisecond); err != nil {
		t.Fatalf("Seize with the owner outside a pass = %v", err)
	}
	// The owner wakes up while seized: it must skip its pass.
	ownerEntered := make(chan bool)
	go func() { ownerEntered <- b.Enter() }()
	if <-ownerEntered {
		t.Fatal("owner Enter succeeded while seized")
	}
	if st := b.Stats(); st.Skipped != 1 || st.Passes != 0 {
		t.Fatalf("stats %+v, want one skipped pass", st)
	}
	later := b.Request() // made while seized: not covered by this Seize
	b.Unseize()
	if !b.Reached(1) {
		t.Fatal("the seized epoch is not reached after Unseize")
	}
	if b.Reached(later) {
		t.Fatal("a request made while seized was marked honoured by Unseize")
	}
	if !b.Enter() {
		t.Fatal("owner Enter refused after Unseize")
	}
	b.Exit()
	if !b.Reached(later) {
		t.Fatal("the owner's pass after Unseize did not honour the later request")
	}
}

func TestBarrierSeizeBusyWhileOwnerInsidePass(t *testing.T) {
	var b Barrier
	inside, leave := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		if !b.Enter() {
			t.Error("Enter refused")
			return
		}
		close(inside)
		<-leave
		b.Exit()
	}()
	<-inside
	err := b.Seize(20 * time.Millisecond)
	if !errors.Is(err, ErrBarrierBusy) || !strings.Contains(err.Error(), "owner goroutine stayed inside its pass") {
		t.Fatalf("Seize while the owner is stuck in a pass = %v, want ErrBarrierBusy blaming the owner", err)
	}
	close(leave)
	<-done
	if err := b.Seize(time.Second); err != nil {
		t.Fatalf("Seize after the pass ended = %v", err)
	}
	b.Unseize()
}

func TestBarrierWaitFromOwnerGoroutine(t *testing.T) {
	var b Barrier
	if !b.Enter() {
		t.Fatal("Enter refused")
	}
	// Inside its own pass the owner can never finish the pass it waits for.
	if err := b.Wait(10 * time.Millisecond); !errors.Is(err, ErrBarrierOwner) || !errors.Is(err, ErrBarrierTimeout) {
		t.Fatalf("Wait inside the owner's pass = %v, want ErrBarrierOwner and ErrBarrierTimeout", err)
	}
	if err := b.Seize(10 * time.Millisecond); !errors.Is(err, ErrBarrierOwner) || !errors.Is(err, ErrBarrierBusy) {
		t.Fatalf("Seize inside the owner's pass = %v, want ErrBarrierOwner and ErrBarrierBusy", err)
	}
	b.Exit()
	// Between passes the owner still cannot run one while it waits.
	if err := b.Wait(10 * time.Millisecond); !errors.Is(err, ErrBarrierOwner) {
		t.Fatalf("Wait on the owner goroutine = %v, want ErrBarrierOwner", err)
	}
	// Another goroutine gets the ordinary stalled-owner error.
	errc := make(chan error)
	go func() { errc <- b.Wait(10 * time.Millisecond) }()
	if err := <-errc; !errors.Is(err, ErrBarrierTimeout) || errors.Is(err, ErrBarrierOwner) {
		t.Fatalf("Wait from another goroutine = %v, want ErrBarrierTimeout", err)
	}
	// Ownership moves to another goroutine: this one becomes a requester.
	moved := make(chan struct{})
	go func() { b.SetOwner(); close(moved) }()
	<-moved
	if err := b.Wait(10 * time.Millisecond); !errors.Is(err, ErrBarrierTimeout) || errors.Is(err, ErrBarrierOwner) {
		t.Fatalf("Wait from the former owner = %v, want a plain ErrBarrierTimeout", err)
	}
}

func TestBarrierMisusePanics(t *testing.T) {
	tests := []struct {
		name string
		do   func(b *Barrier)
	}{
		{"exit without enter", func(b *Barrier) { b.Exit() }},
		{"unseize without seize", func(b *Barrier) { b.Unseize() }},
		{"exit while seized", func(b *Barrier) {
			if err := b.Seize(time.Second); err != nil {
				t.Fatal(err)
			}
			b.Exit()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b Barrier
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
				if st := b.Stats(); st.Seen != 0 || st.Passes != 0 {
					t.Fatalf("misuse published state before panicking: %+v", st)
				}
			}()
			tt.do(&b)
		})
	}
}

func TestGoid(t *testing.T) {
	here := goid()
	if here == 0 {
		t.Fatal("goid() = 0")
	}
	other := make(chan uint64)
	go func() { other <- goid() }()
	if o := <-other; o == 0 || o == here {
		t.Fatalf("goid in another goroutine = %d, here %d", o, here)
	}
}

// TestBarrierHammer runs an owner making passes, requesters publishing a
// value then waiting, and a seizer doing the owner's pass itself, all at
// once. The invariant: when Wait returns, a pass (real or seized) that
// began after the request has finished, so it saw the requester's value.
func TestBarrierHammer(t *testing.T) {
	const requesters = 8
	rounds := 300
	if testing.Short() {
		rounds = 50
	}
	var b Barrier
	var published, observed [requesters]atomic.Uint64
	pass := func() {
		for i := range published {
			observed[i].Store(published[i].Load())
		}
	}
	stop := make(chan struct{})
	var helpers sync.WaitGroup
	helpers.Add(2)
	go func() { // owner
		defer helpers.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if b.Enter() {
				pass()
				// Stay inside the pass a while, so requests land in the
				// middle of passes: such a pass must not count for them.
				time.Sleep(20 * time.Microsecond)
				b.Exit()
			}
			time.Sleep(20 * time.Microsecond)
		}
	}()
	go func() { // seizer: the stalled-owner fallback, exercised under load
		defer helpers.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
			if err := b.Seize(time.Second); err != nil {
				t.Error(err)
				return
			}
			pass()
			b.Unseize()
		}
	}()
	var wg sync.WaitGroup
	for r := 0; r < requesters; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := uint64(1); v <= uint64(rounds); v++ {
				published[r].Store(v)
				if err := b.Wait(10 * time.Second); err != nil {
					t.Error(err)
					return
				}
				if got := observed[r].Load(); got < v {
					t.Errorf("requester %d: Wait returned but the owner last saw %d, published %d", r, got, v)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	helpers.Wait()
	st := b.Stats()
	if st.Seen > st.Target || st.Target != uint64(requesters*rounds) {
		t.Fatalf("stats %+v, want target %d and seen <= target", st, requesters*rounds)
	}
	t.Logf("%d waits; owner passes %d, skipped while seized %d", requesters*rounds, st.Passes, st.Skipped)
}

// TestBarrierErrors is the table of the barrier's error paths: each names
// what went wrong (stalled owner, owner stuck in its pass, another holder,
// a wait on the owner goroutine itself) and leaves the barrier usable.
func TestBarrierErrors(t *testing.T) {
	const short = 10 * time.Millisecond
	tests := []struct {
		name string
		// do sets the barrier up and makes the failing call; cleanup
		// undoes the setup so the barrier can be checked afterwards.
		do      func(b *Barrier) (cleanup func(), err error)
		is, not error
		want    string
	}{
		{"wait on a stalled owner", func(b *Barrier) (func(), error) {
			return func() {}, b.Wait(short)
		}, ErrBarrierTimeout, ErrBarrierOwner, "epoch 1 not reached"},
		{"seize while the owner is in its pass", func(b *Barrier) (func(), error) {
			release := ownerInsidePass(b)
			return release, b.Seize(short)
		}, ErrBarrierBusy, ErrBarrierOwner, "stayed inside its pass"},
		{"seize held by another requester", func(b *Barrier) (func(), error) {
			if err := b.Seize(time.Second); err != nil {
				return func() {}, err
			}
			errc := make(chan error)
			go func() { errc <- b.Seize(short) }()
			return b.Unseize, <-errc
		}, ErrBarrierBusy, ErrBarrierOwner, "another requester"},
		{"wait on the owner goroutine", func(b *Barrier) (func(), error) {
			b.SetOwner()
			return func() {}, b.Wait(short)
		}, ErrBarrierOwner, nil, "can never be reached while its owner waits"},
		{"seize on the owner goroutine inside its pass", func(b *Barrier) (func(), error) {
			if !b.Enter() {
				return func() {}, errors.New("Enter refused")
			}
			return b.Exit, b.Seize(short)
		}, ErrBarrierOwner, nil, "Seize"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b Barrier
			cleanup, err := tt.do(&b)
			cleanup()
			if !errors.Is(err, tt.is) || (tt.not != nil && errors.Is(err, tt.not)) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %v (and not %v) mentioning %q", err, tt.is, tt.not, tt.want)
			}
			// Nothing is lost: an owner pass from another goroutine still
			// honours a new request.
			epoch := b.Request()
			done := make(chan struct{})
			go func() {
				defer close(done)
				b.SetOwner()
				for !b.Reached(epoch) {
					if b.Enter() {
						b.Exit()
					}
					time.Sleep(50 * time.Microsecond)
				}
			}()
			if err := b.WaitEpoch(epoch, 5*time.Second); err != nil {
				t.Fatalf("barrier unusable after the error: %v", err)
			}
			<-done
		})
	}
}

// ownerInsidePass starts an owner goroutine that enters a pass and stays
// in it until the returned function is called.
func ownerInsidePass(b *Barrier) (release func()) {
	inside, leave, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		if b.Enter() {
			close(inside)
			<-leave
			b.Exit()
		}
	}()
	<-inside
	return func() { close(leave); <-done }
}

// liveOwner starts an owner goroutine running passes back to back until
// the returned function is called, which waits for it to exit.
func liveOwner(b *Barrier) (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-quit:
				return
			default:
			}
			if b.Enter() {
				b.Exit()
			}
			runtime.Gosched()
		}
	}()
	return func() { close(quit); <-done }
}
