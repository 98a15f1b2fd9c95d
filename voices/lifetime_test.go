package voices

import (
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestStopAllRunning stops voices on a device that keeps pulling (a
// goroutine rendering, like oto's): StopAll must cross the barrier, and
// PCM overwritten afterwards must never reach the output.
func TestStopAllRunning(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{})
	f := mono44
	pcm := tone(f, 44100, 440, 0.5)
	_, c := clipOf(t, e, "tone", f, pcm, ClipDesc{})
	if _, err := e.Play(c, PlayDesc{Loop: true}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var out []float32
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // the audio goroutine
		defer close(done)
		buf := make([]byte, 256*8)
		for {
			select {
			case <-stop:
				return
			default:
			}
			_, _ = dev.Render(buf)
			l, _ := stereo(buf)
			mu.Lock()
			out = append(out, l...)
			mu.Unlock()
			time.Sleep(100 * time.Microsecond)
		}
	}()
	// Wait on rendered frames, not on the wall clock: a loaded machine
	// may run the audio goroutine late.
	rendered := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(out)
	}
	for rendered() < 9600 {
		time.Sleep(time.Millisecond)
	}
	// The tone is judged up to the StopAll: the fade's band-limited tail
	// rings about -100 dB around zero, crossings Frequency would count.
	before := rendered()
	if err := e.StopAll(time.Second); err != nil {
		t.Fatal(err)
	}
	stoppedAt := rendered()
	fill(f, pcm, 0.9) // the marker: reading it would put 0.9×0.707 on the output
	for rendered() < stoppedAt+4800 {
		time.Sleep(time.Millisecond)
	}
	close(stop)
	<-done
	s := e.Stats()
	// The count, not the time, says StopAll ran: on Windows the monotonic
	// clock ticks with the system timer, and a fast StopAll reads as 0.
	if s.Active != 0 || s.StopAlls != 1 || s.StopAllFallbacks != 0 || s.StopAllLast < 0 {
		t.Fatalf("active %d StopAlls %d fallbacks %d StopAll %v", s.Active, s.StopAlls, s.StopAllFallbacks, s.StopAllLast)
	}
	if got := frequency(out[:before], 48000); got < 435 || got > 445 {
		t.Fatalf("before StopAll: %.1f Hz, want 440", got)
	}
	// The audio goroutine appends a block after rendering it, so the
	// block that faded out (and one in flight) may land after stoppedAt.
	after := out[stoppedAt+512:]
	if len(after) < 1024 {
		t.Fatalf("only %d frames rendered after StopAll", len(after))
	}
	for i, v := range after {
		if v != 0 {
			t.Fatalf("frame %d after StopAll returned is %v, want silence", i, v)
		}
	}
	t.Logf("StopAll crossed the barrier in %v", s.StopAllLast)
}

// TestStopAllStalled stops voices on a device that has stopped pulling.
// StopAll must still finish within its timeout by seizing the barrier,
// and must also cancel a Play still queued, so nothing reads the memory
// when the device comes back.
func TestStopAllStalled(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{})
	pcm := tone(mono44, 44100, 440, 0.5)
	_, c := clipOf(t, e, "tone", mono44, pcm, ClipDesc{})
	h1, _ := e.Play(c, PlayDesc{Loop: true})
	render(t, dev, 512)
	h2, _ := e.Play(c, PlayDesc{Loop: true}) // queued; the device stalls before the next block
	start := time.Now()
	const timeout = 100 * time.Millisecond
	if err := e.StopAll(timeout); err != nil {
		t.Fatal(err)
	}
	// Generous: this catches a StopAll that waits on the stalled device
	// for ever, not scheduling noise on a loaded machine.
	if d := time.Since(start); d > timeout+time.Second {
		t.Fatalf("StopAll took %v with a %v timeout", d, timeout)
	}
	if e.Playing(h1) || e.Playing(h2) {
		t.Fatal("a voice survived StopAll")
	}
	fill(mono44, pcm, 0.9)
	l, r := render(t, dev, 4096) // the device comes back
	// The limiter's look-ahead still holds the frames mixed before the
	// StopAll: the tone as it was.
	l, r = l[e.limDelay():], r[e.limDelay():]
	if peak(l) != 0 || peak(r) != 0 {
		t.Fatalf("overwritten PCM reached the output after StopAll (peak %v)", peak(l))
	}
	if s := e.Stats(); s.StopAllFallbacks != 1 || s.Active != 0 {
		t.Fatalf("fallbacks %d active %d", s.StopAllFallbacks, s.Active)
	}
}

// TestBankRelease covers the bank's lifetime: Release of a bank in use
// fails naming the bank and the voices, loses nothing, and succeeds once
// the voices end; a released bank refuses Play and new clips.
func TestBankRelease(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{})
	bank, c := clipOf(t, e, "level1", mono44, tone(mono44, 4410, 440, 0.5), ClipDesc{})
	h, _ := e.Play(c, PlayDesc{Loop: true})
	render(t, dev, 256)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() { // keep the device pulling
		defer wg.Done()
		buf := make([]byte, 256*8)
		for {
			select {
			case <-stop:
				return
			default:
				_, _ = dev.Render(buf)
				time.Sleep(200 * time.Microsecond)
			}
		}
	}()
	err := bank.Release(30 * time.Millisecond)
	if !errors.Is(err, ErrBankInUse) || !strings.Contains(err.Error(), `"level1"`) || !strings.Contains(err.Error(), h.String()) {
		t.Fatalf("Release in use: %v, want ErrBankInUse naming the bank and %v", err, h)
	}
	if !e.Playing(h) || bank.Readers() != 1 {
		t.Fatalf("failed Release disturbed the voice: playing %v readers %d", e.Playing(h), bank.Readers())
	}
	if _, err := e.Play(c, PlayDesc{}); err != nil {
		t.Fatalf("Play after a failed Release: %v (the bank should stay usable)", err)
	}
	_ = e.Stop(h)
	if err := bank.Release(time.Second); err != nil {
		t.Fatalf("Release after Stop: %v", err)
	}
	close(stop)
	wg.Wait()
	if bank.Readers() != 0 {
		t.Fatalf("%d readers after Release", bank.Readers())
	}
	if _, err := e.Play(c, PlayDesc{}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Play of a released bank: %v", err)
	}
	if _, err := bank.Clip(ClipDesc{Format: mono44}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Clip of a released bank: %v", err)
	}
	if err := bank.Release(0); err != nil {
		t.Fatalf("second Release: %v", err)
	}
}

// TestBankReleaseStalled releases a bank on a stalled device: idle banks
// release, banks with voices fail, both within the timeout.
func TestBankReleaseStalled(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{})
	busy, c := clipOf(t, e, "busy", mono44, tone(mono44, 4410, 440, 0.5), ClipDesc{})
	idle, _ := clipOf(t, e, "idle", mono44, tone(mono44, 4410, 440, 0.5), ClipDesc{})
	h, _ := e.Play(c, PlayDesc{Loop: true})
	render(t, dev, 256)
	if err := idle.Release(20 * time.Millisecond); err != nil {
		t.Fatalf("idle bank on a stalled device: %v", err)
	}
	err := busy.Release(20 * time.Millisecond)
	if !errors.Is(err, ErrBankInUse) || !strings.Contains(err.Error(), h.String()) {
		t.Fatalf("busy bank on a stalled device: %v", err)
	}
	if err := e.StopAll(20 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := busy.Release(20 * time.Millisecond); err != nil {
		t.Fatalf("Release after StopAll: %v", err)
	}
}

// TestQueueFullCounted floods a stalled engine's queue.
func TestQueueFullCounted(t *testing.T) {
	e, _ := offlineEngine(t, EngineDesc{QueueSize: 4})
	var full int
	for i := 0; i < 10; i++ {
		if err := e.SetMasterGain(1); errors.Is(err, ErrQueueFull) {
			full++
		}
	}
	if full != 6 || e.Stats().QueueFull != 6 {
		t.Fatalf("%d refused, %d counted, want 6", full, e.Stats().QueueFull)
	}
}

// TestStopAllCancelsQueuedPlay covers a Play queued behind a command
// whose producer is still writing it: the mixer cannot reach the Play
// before StopAll returns, so StopAll must cancel it rather than let it
// start later on memory the caller has freed.
func TestStopAllCancelsQueuedPlay(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{})
	pcm := tone(mono44, 4410, 440, 0.5)
	_, c := clipOf(t, e, "tone", mono44, pcm, ClipDesc{})
	// A producer claims a cell and stalls before publishing it.
	cell, pos, ok := e.q.Reserve()
	if !ok {
		t.Fatal("Reserve refused")
	}
	h, err := e.Play(c, PlayDesc{Loop: true})
	if err != nil {
		t.Fatal(err)
	}
	render(t, dev, 512) // the drain stops at the unpublished cell
	if err := e.StopAll(20 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	fill(mono44, pcm, 0.9)
	// The stalled producer finishes.
	*cell = command{kind: cmdMaster, value: 1}
	e.q.Publish(pos)
	l, _ := render(t, dev, 2048)
	if peak(l) != 0 || e.Playing(h) {
		t.Fatalf("a Play queued before StopAll started afterwards (peak %v, playing %v)", peak(l), e.Playing(h))
	}
	if s := e.Stats(); s.Refusals != 1 || s.Counted != 0 {
		t.Fatalf("refusals %d counted %d, want the cancelled Play counted once and its voice freed", s.Refusals, s.Counted)
	}
}

// TestStopAllFailsWhenTheMixerIsStuck holds the mixer inside one block for
// the whole timeout (a device callback that never returns): neither the
// barrier nor the fallback can prove the voices stopped, so StopAll must
// say so with ErrStopAll instead of returning nil over a live voice. Once
// the block ends, StopAll works again.
func TestStopAllFailsWhenTheMixerIsStuck(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{})
	_, c := clipOf(t, e, "tone", mono44, tone(mono44, 4410, 440, 0.5), ClipDesc{})
	h, err := e.Play(c, PlayDesc{Loop: true})
	if err != nil {
		t.Fatal(err)
	}
	render(t, dev, 256)
	if !e.barrier.Enter() { // this goroutine is now the audio goroutine, mid-block
		t.Fatal("could not enter the mixer's barrier")
	}
	errc := make(chan error, 1)
	go func() { errc <- e.StopAll(30 * time.Millisecond) }()
	err = <-errc
	e.barrier.Exit()
	if !errors.Is(err, ErrStopAll) {
		t.Fatalf("StopAll with the mixer stuck in a block: %v, want ErrStopAll", err)
	}
	if !e.Playing(h) {
		t.Fatal("a failed StopAll ended the voice without the mixer")
	}
	if err := e.StopAll(30 * time.Millisecond); err != nil {
		t.Fatalf("StopAll once the block ended: %v", err)
	}
	if e.Playing(h) || c.Bank().Readers() != 0 {
		t.Fatalf("after StopAll: playing %v, readers %d", e.Playing(h), c.Bank().Readers())
	}
}

// TestCloseCancelsQueuedPlay covers a Play that Close cannot drain (it
// sits behind a cell whose producer is still writing it, the same race as
// a Play that passed the closed check just before Close). If anything
// reads the mixer after Close returned, that Play must still never start:
// the caller may already have freed its PCM.
func TestCloseCancelsQueuedPlay(t *testing.T) {
	dev := NewOffline(OfflineDesc{})
	e, err := NewEngine(EngineDesc{Device: dev})
	if err != nil {
		t.Fatal(err)
	}
	pcm := tone(mono44, 4410, 440, 0.5)
	bank, c := clipOf(t, e, "tone", mono44, pcm, ClipDesc{})
	cell, pos, ok := e.q.Reserve() // a producer claims a cell and stalls
	if !ok {
		t.Fatal("Reserve refused")
	}
	h, err := e.Play(c, PlayDesc{Loop: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	fill(mono44, pcm, 0.9)
	*cell = command{kind: cmdMaster, value: 1}
	e.q.Publish(pos)
	buf := make([]byte, 2048*8)
	if _, err := e.mix.Read(buf); err != nil { // a device that reads after Close
		t.Fatal(err)
	}
	l, r := stereo(buf)
	if peak(l) != 0 || peak(r) != 0 || e.Playing(h) || bank.Readers() != 0 {
		t.Fatalf("a Play queued before Close started after it: peak %v, playing %v, readers %d",
			math.Max(peak(l), peak(r)), e.Playing(h), bank.Readers())
	}
	if _, err := dev.Render(buf); !errors.Is(err, ErrDevice) {
		t.Fatalf("Render after Close: %v, want ErrDevice", err)
	}
}
