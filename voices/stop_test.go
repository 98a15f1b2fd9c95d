package voices

import (
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// slack is what the timing tests allow past a call's own timeout: the
// bound they check is "its own timeout, not another call's", so it is
// generous for a loaded machine (100 ms; 400 ms under the race detector,
// which slows every block and goroutine switch several times over), and
// still far below the other calls' timeouts (2 s), which is what a call
// queued behind them would take.
var slack = map[bool]time.Duration{false: 100 * time.Millisecond, true: 400 * time.Millisecond}[testenv.Race]

// timed runs f on a goroutine and returns a channel that delivers its
// error and how long it took.
func timed(f func() error) <-chan timedResult {
	c := make(chan timedResult, 1)
	go func() {
		start := time.Now()
		err := f()
		c <- timedResult{err, time.Since(start)}
	}()
	return c
}

type timedResult struct {
	err error
	d   time.Duration
}

// waitFor polls cond; its 10 s limit only catches a hang.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(100 * time.Microsecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// stalledWithVoice returns an engine whose manual device has rendered one
// block and then stalled, with a looping voice playing a bank.
func stalledWithVoice(t *testing.T) (*Engine, *Bank) {
	e, dev := offlineEngine(t, EngineDesc{})
	bank, c := clipOf(t, e, "busy", mono44, tone(mono44, 4410, 440, 0.5), ClipDesc{})
	if _, err := e.Play(c, PlayDesc{Loop: true}); err != nil {
		t.Fatal(err)
	}
	render(t, dev, DefaultBlockFrames)
	return e, bank
}

// TestBlockingCallsBoundedByOwnTimeout runs StopAll, Bank.Release and
// Close concurrently on a stalled device, each short call issued while a
// long one is waiting: every call must return within its own timeout
// (plus slack). Before, they serialised on one lock, and a StopAll(200ms)
// issued during a Release(2s) returned after the Release, seconds later.
func TestBlockingCallsBoundedByOwnTimeout(t *testing.T) {
	const short, long = 200 * time.Millisecond, 2 * time.Second
	check := func(t *testing.T, what string, r timedResult, bound time.Duration) {
		t.Helper()
		if r.err != nil {
			t.Errorf("%s: %v", what, r.err)
		}
		if r.d > bound+slack {
			t.Errorf("%s took %v, want at most %v + %v", what, r.d, bound, slack)
		}
		t.Logf("%s: %v", what, r.d)
	}
	t.Run("StopAll during Release", func(t *testing.T) {
		e, bank := stalledWithVoice(t)
		rel := timed(func() error { return bank.Release(long) })
		waitFor(t, "Release to begin", bank.closing.Load)
		time.Sleep(20 * time.Millisecond)
		check(t, "StopAll(200ms)", <-timed(func() error { return e.StopAll(short) }), short)
		// The StopAll ended the voice, so the Release succeeds too.
		check(t, "Release(2s)", <-rel, long)
	})
	t.Run("Release during StopAll", func(t *testing.T) {
		e, bank := stalledWithVoice(t)
		target := e.barrier.Stats().Target
		stop := timed(func() error { return e.StopAll(long) })
		waitFor(t, "StopAll to request", func() bool { return e.barrier.Stats().Target > target })
		time.Sleep(20 * time.Millisecond)
		// Its seized pass honours the StopAll already requested: the voice
		// ends, the bank is free, and the StopAll's wait is over too (so
		// it returns long before its own timeout).
		check(t, "Release(200ms)", <-timed(func() error { return bank.Release(short) }), short)
		check(t, "StopAll(2s)", <-stop, long)
		if bank.Readers() != 0 || e.Stats().Active != 0 {
			t.Fatalf("readers %d active %d after both returned", bank.Readers(), e.Stats().Active)
		}
	})
	t.Run("StopAll during StopAll", func(t *testing.T) {
		e, _ := stalledWithVoice(t)
		target := e.barrier.Stats().Target
		first := timed(func() error { return e.StopAll(long) })
		waitFor(t, "StopAll to request", func() bool { return e.barrier.Stats().Target > target })
		check(t, "StopAll(200ms)", <-timed(func() error { return e.StopAll(short) }), short)
		check(t, "StopAll(2s)", <-first, long)
	})
	t.Run("Close during Release and StopAll", func(t *testing.T) {
		dev := NewOffline(OfflineDesc{})
		e, err := NewEngine(EngineDesc{Device: dev, CloseTimeout: short})
		if err != nil {
			t.Fatal(err)
		}
		bank, c := clipOf(t, e, "busy", mono44, tone(mono44, 4410, 440, 0.5), ClipDesc{})
		if _, err := e.Play(c, PlayDesc{Loop: true}); err != nil {
			t.Fatal(err)
		}
		render(t, dev, DefaultBlockFrames)
		rel := timed(func() error { return bank.Release(long) })
		stop := timed(func() error { return e.StopAll(long) })
		waitFor(t, "Release to begin", bank.closing.Load)
		time.Sleep(20 * time.Millisecond)
		check(t, "Close (CloseTimeout 200ms)", <-timed(e.Close), short)
		check(t, "StopAll(2s)", <-stop, long)
		check(t, "Release(2s)", <-rel, long)
	})
}

// hangDevice pulls the engine from its own goroutine like a sound card,
// keeps the level it hears, and has a Close that never returns until the
// test ends: a driver stuck in its close call.
type hangDevice struct {
	startErr error
	hang     chan struct{} // Close returns once this is closed
	stop     chan struct{}
	done     chan struct{}

	mu    sync.Mutex
	src   io.Reader
	reads int
	loud  int // reads that held a non-silent sample
}

func newHangDevice(t *testing.T, startErr error) *hangDevice {
	d := &hangDevice{startErr: startErr, hang: make(chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
	t.Cleanup(func() {
		close(d.hang)
		close(d.stop)
		<-d.done
	})
	return d
}

func (d *hangDevice) Start(f Format, src io.Reader) error {
	d.src = src
	go d.run()
	return d.startErr
}

func (d *hangDevice) run() {
	defer close(d.done)
	buf := make([]byte, 256*8)
	for {
		select {
		case <-d.stop:
			return
		default:
		}
		n, _ := d.src.Read(buf)
		l, r := stereo(buf[:n])
		d.mu.Lock()
		d.reads++
		if peak(l) != 0 || peak(r) != 0 {
			d.loud++
		}
		d.mu.Unlock()
		time.Sleep(500 * time.Microsecond)
	}
}

func (d *hangDevice) counts() (reads, loud int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.reads, d.loud
}

func (d *hangDevice) Stats() DeviceStats { return DeviceStats{Name: "hanging-card"} }
func (d *hangDevice) Err() error         { return nil }
func (d *hangDevice) Close() error       { <-d.hang; return nil }

// TestCloseBoundsHungDevice closes an engine whose device's Close never
// returns. Close must return within CloseTimeout with ErrDeviceHung naming
// the device, and leave the engine safely closed: no voice reads the
// caller's memory, later calls fail with ErrClosed (StopAll and Release,
// having nothing to wait for, succeed), and the device, which goes on
// pulling, gets silence without reaching the mixer.
func TestCloseBoundsHungDevice(t *testing.T) {
	const timeout = 100 * time.Millisecond
	dev := newHangDevice(t, nil)
	e, err := NewEngine(EngineDesc{Device: dev, CloseTimeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	pcm := tone(mono44, 4410, 440, 0.5)
	bank, c := clipOf(t, e, "tone", mono44, pcm, ClipDesc{})
	h, err := e.Play(c, PlayDesc{Loop: true})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the tone to reach the device", func() bool { _, loud := dev.counts(); return loud > 0 })

	var r timedResult
	select {
	case r = <-timed(e.Close):
	case <-time.After(10 * time.Second):
		t.Fatal("Close still blocked after 10 s on a device whose Close hangs")
	}
	if r.d > timeout+slack {
		t.Fatalf("Close took %v with a hung device and CloseTimeout %v", r.d, timeout)
	}
	err = r.err
	t.Logf("Close with a hung device: %v (CloseTimeout %v): %v", r.d, timeout, err)
	if !errors.Is(err, ErrDeviceHung) || !strings.Contains(err.Error(), "hanging-card") {
		t.Fatalf("Close: %v, want ErrDeviceHung naming the device", err)
	}
	if !errors.Is(e.Err(), ErrDeviceHung) {
		t.Fatalf("Err after a hung Close: %v", e.Err())
	}
	if e.Playing(h) || bank.Readers() != 0 {
		t.Fatalf("after Close: playing %v, readers %d", e.Playing(h), bank.Readers())
	}
	if _, err := e.Play(c, PlayDesc{}); err != ErrClosed {
		t.Fatalf("Play after Close: %v, want ErrClosed", err)
	}
	if err := e.SetMasterGain(1); err != ErrClosed {
		t.Fatalf("SetMasterGain after Close: %v, want ErrClosed", err)
	}
	if err := e.StopAll(time.Second); err != nil {
		t.Fatalf("StopAll after Close: %v", err)
	}
	if err := bank.Release(time.Second); err != nil {
		t.Fatalf("Release after Close: %v", err)
	}

	// The memory is the caller's again: overwrite it while the device
	// keeps pulling. Nothing of it, nor any mixer block, may follow.
	fill(mono44, pcm, 0.9)
	blocks := e.Stats().Blocks
	reads0, loud0 := dev.counts()
	waitFor(t, "the hung device to pull again", func() bool { r, _ := dev.counts(); return r > reads0+10 })
	if _, loud := dev.counts(); loud != loud0 {
		t.Fatalf("the device heard %d loud reads after Close", loud-loud0)
	}
	if b := e.Stats().Blocks; b != blocks {
		t.Fatalf("the mixer rendered %d blocks after Close", b-blocks)
	}
	if err := e.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// TestNewEngineBoundsHungFailedDevice gives NewEngine a device that starts
// pulling, fails, and then hangs in Close: NewEngine must return within
// CloseTimeout on the offline fallback, with the failed device cut off the
// mixer, so the mixer keeps exactly one reader.
func TestNewEngineBoundsHungFailedDevice(t *testing.T) {
	const timeout = 100 * time.Millisecond
	dev := newHangDevice(t, errNoCard)
	start := time.Now()
	e, err := NewEngine(EngineDesc{Device: dev, CloseTimeout: timeout, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if d := time.Since(start); d > timeout+slack {
		t.Fatalf("NewEngine took %v with a hung device and CloseTimeout %v", d, timeout)
	}
	if !errors.Is(e.Err(), errNoCard) || e.Stats().Device.Name != "offline" {
		t.Fatalf("Err %v, device %q: want the start error and the offline fallback", e.Err(), e.Stats().Device.Name)
	}
	_, c := clipOf(t, e, "tone", mono44, tone(mono44, 4410, 440, 0.5), ClipDesc{})
	if _, err := e.Play(c, PlayDesc{Loop: true}); err != nil {
		t.Fatal(err)
	}
	reads0, _ := dev.counts()
	waitFor(t, "the failed device to pull again", func() bool { r, _ := dev.counts(); return r > reads0+10 })
	if _, loud := dev.counts(); loud != 0 {
		t.Fatalf("the failed device heard the voice %d times: it still reads the mixer", loud)
	}
}
