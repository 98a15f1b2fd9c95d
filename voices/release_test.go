package voices

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestReleaseUnreadReturnsAtOnce: on a stalled device (a manual Offline
// device nobody pulls) a Release that nothing can read returns nil at
// once, well inside a long timeout: a bank no Play reached, and every
// bank after a StopAll that returned nil. The stress tool's teardown
// released seven banks this way and waited three quarters of each
// timeout for a barrier the stalled device never crosses.
func TestReleaseUnreadReturnsAtOnce(t *testing.T) {
	const timeout = 10 * time.Second // the old wait: 7.5 s a bank
	const atOnce = time.Second       // generous for -race on a shared machine
	release := func(b *Bank) {
		t.Helper()
		start := time.Now()
		if err := b.Release(timeout); err != nil {
			t.Fatalf("Release(%q): %v", b.Name(), err)
		}
		if d := time.Since(start); d > atOnce {
			t.Fatalf("Release(%q) took %v on a stalled device although nothing can read it", b.Name(), d)
		}
	}

	t.Run("never played", func(t *testing.T) {
		e, dev := offlineEngine(t, EngineDesc{})
		busy, c := clipOf(t, e, "busy", mono44, tone(mono44, 4410, 440, 0.5), ClipDesc{})
		idle, _ := clipOf(t, e, "idle", mono44, tone(mono44, 4410, 440, 0.5), ClipDesc{})
		if _, err := e.Play(c, PlayDesc{Loop: true}); err != nil {
			t.Fatal(err)
		}
		render(t, dev, 256) // busy plays; then the device stalls
		release(idle)
		if err := busy.Release(20 * time.Millisecond); !errors.Is(err, ErrBankInUse) {
			t.Fatalf("Release of a playing bank: %v, want ErrBankInUse", err)
		}
	})

	t.Run("after StopAll", func(t *testing.T) {
		e, dev := offlineEngine(t, EngineDesc{})
		var banks []*Bank
		for i := range 7 {
			b, c := clipOf(t, e, fmt.Sprint("bank", i), mono44, tone(mono44, 4410, 440, 0.5), ClipDesc{})
			if _, err := e.Play(c, PlayDesc{Loop: true}); err != nil {
				t.Fatal(err)
			}
			banks = append(banks, b)
		}
		render(t, dev, 256) // seven voices play; then the device stalls
		if err := e.StopAll(20 * time.Millisecond); err != nil {
			t.Fatal(err)
		}
		for _, b := range banks {
			release(b)
		}
	})

	// A Play queued after the StopAll: the bank may be read, so Release
	// takes the stalled path (and there refuses the queued voice).
	t.Run("queued after StopAll", func(t *testing.T) {
		e, dev := offlineEngine(t, EngineDesc{})
		b, c := clipOf(t, e, "late", mono44, tone(mono44, 4410, 440, 0.5), ClipDesc{})
		if _, err := e.Play(c, PlayDesc{Loop: true}); err != nil {
			t.Fatal(err)
		}
		render(t, dev, 256)
		if err := e.StopAll(20 * time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Play(c, PlayDesc{Loop: true}); err != nil {
			t.Fatal(err)
		}
		const short = 40 * time.Millisecond
		start := time.Now()
		if err := b.Release(short); err != nil {
			t.Fatalf("Release with a Play queued: %v", err)
		}
		if d := time.Since(start); d < short/2 {
			t.Fatalf("Release with a Play queued returned in %v, without proving the Play cannot start", d)
		}
		if b.Readers() != 0 {
			t.Fatalf("%d readers after Release", b.Readers())
		}
	})
}
