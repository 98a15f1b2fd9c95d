package voices

import (
	"testing"
	"time"
)

// TestClipCooldown checks the cooldown on the engine clock: Plays
// without an At start at the mixer's next block, so a cooldown of 7.5
// blocks passes after 8 rendered blocks, not 7; a scheduled start is
// refused within the cooldown of the last start, before or after it.
func TestClipCooldown(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{Events: 8})
	b, err := e.NewBank("gun", dcPCM(mono48f, 480, 0.1))
	if err != nil {
		t.Fatal(err)
	}
	const cd = 1920 // 40 ms at 48 kHz: 7.5 blocks of 256 frames
	c, err := b.Clip(ClipDesc{Format: mono48f, Cooldown: 40 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	play := func(at int64, want error) {
		t.Helper()
		if _, err := e.Play(c, PlayDesc{At: at}); err != want {
			t.Fatalf("Play at %d (clock %d): %v, want %v", at, e.Clock(), err, want)
		}
	}
	play(0, nil)
	play(0, ErrCooldown)
	s := e.Stats()
	if s.Cooldowns != 1 || s.Refusals != 1 || s.LastRefusal.Err != ErrCooldown {
		t.Errorf("cooldowns %d refusals %d last %v", s.Cooldowns, s.Refusals, s.LastRefusal)
	}
	if ev, ok := e.PollEvent(); !ok || ev.Kind != EventRefused || ev.Clip != c || ev.Handle != 0 {
		t.Errorf("cooldown event %+v %v", ev, ok)
	}
	render(t, dev, 7*256)
	play(0, ErrCooldown) // 1792 frames on: within 1920
	render(t, dev, 256)
	play(0, nil) // 2048 frames on
	last := e.Clock()

	x := last + cd + 5000
	play(x, nil)
	play(x+cd-1, ErrCooldown)
	play(x-cd+1, ErrCooldown)
	play(x+cd, nil)
	play(x, nil) // a cooldown before the latest start
	if s := e.Stats(); s.Cooldowns != 4 || s.Refusals != 4 {
		t.Errorf("cooldowns %d refusals %d, want 4 and 4", s.Cooldowns, s.Refusals)
	}
	render(t, dev, 256)
}

// TestCooldownFrames checks the conversion, rounded up to whole frames.
func TestCooldownFrames(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		rate int
		want int64
	}{
		{time.Nanosecond, 48000, 1},
		{40 * time.Millisecond, 48000, 1920},
		{40*time.Millisecond + 1, 48000, 1921},
		{time.Second / 44100, 44100, 1},
		{time.Second, 44100, 44100},
		{1 << 62, 48000, limBias},
	} {
		if got := cooldownFrames(c.d, c.rate); got != c.want {
			t.Errorf("cooldownFrames(%v, %d) = %d, want %d", c.d, c.rate, got, c.want)
		}
	}
}

// TestClipLimitsRefusalKeepsCooldown checks that a Play refused by its
// clip's instance cap leaves the cooldown's last start where it was:
// both are taken in one compare-and-swap, or neither.
func TestClipLimitsRefusalKeepsCooldown(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{})
	b, err := e.NewBank("b", dcPCM(mono48f, 480, 0.1))
	if err != nil {
		t.Fatal(err)
	}
	c, err := b.Clip(ClipDesc{Format: mono48f, MaxInstances: 1, Cooldown: time.Second / 48})
	if err != nil {
		t.Fatal(err)
	}
	a, err := e.Play(c, PlayDesc{At: 10000})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Play(c, PlayDesc{At: 20000}); err != ErrNoVoice {
		t.Fatalf("second instance: %v, want ErrNoVoice", err)
	}
	if err := e.Stop(a); err != nil {
		t.Fatal(err)
	}
	render(t, dev, 256)
	// 19500 is within the cooldown (1000 frames) of the refused 20000,
	// not of the accepted 10000.
	if _, err := e.Play(c, PlayDesc{At: 19500}); err != nil {
		t.Fatalf("Play after a refusal: %v", err)
	}
	if s := e.Stats(); s.Cooldowns != 0 || s.InstanceRefusals != 1 {
		t.Errorf("cooldowns %d instance refusals %d, want 0 and 1", s.Cooldowns, s.InstanceRefusals)
	}
}

// TestClipCooldownStartLatency checks the cooldown of Plays placed by
// their call time: two at once start together and the second is
// refused; one 45 ms later starts 2160 frames later and passes a 40 ms
// cooldown, though the stalled device's clock has not moved.
func TestClipCooldownStartLatency(t *testing.T) {
	e, _ := offlineEngine(t, EngineDesc{StartLatency: 100 * time.Millisecond})
	b, err := e.NewBank("b", dcPCM(mono48f, 480, 0.1))
	if err != nil {
		t.Fatal(err)
	}
	c, err := b.Clip(ClipDesc{Format: mono48f, Cooldown: 40 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := e.Play(c, PlayDesc{}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Play(c, PlayDesc{}); err != ErrCooldown && time.Since(start) < 40*time.Millisecond {
		t.Fatalf("second Play at once: %v, want ErrCooldown", err)
	}
	time.Sleep(45*time.Millisecond - time.Since(start))
	if _, err := e.Play(c, PlayDesc{}); err != nil {
		t.Fatalf("Play after the cooldown: %v", err)
	}
}

func TestClipInstances(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{Events: 32})
	b, err := e.NewBank("b", dcPCM(mono48f, 48000, 0.1))
	if err != nil {
		t.Fatal(err)
	}
	clip := func(mode Instances) Clip {
		c, err := b.Clip(ClipDesc{Format: mono48f, MaxInstances: 2, Instances: mode})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	play := func(c Clip, vol float32) Handle {
		t.Helper()
		h, err := e.Play(c, PlayDesc{Volume: vol})
		if err != nil {
			t.Fatal(err)
		}
		render(t, dev, 256)
		return h
	}
	refuse := clip(InstancesRefuse)
	a := play(refuse, 1)
	play(refuse, 1)
	if _, err := e.Play(refuse, PlayDesc{}); err != ErrNoVoice {
		t.Fatalf("third instance: %v, want ErrNoVoice", err)
	}
	if s := e.Stats(); s.InstanceRefusals != 1 || s.Refusals != 1 || s.LastRefusal.Reason != reasons[reasonInstances].text {
		t.Errorf("instance refusals %d refusals %d last %v", s.InstanceRefusals, s.Refusals, s.LastRefusal)
	}
	if err := e.Stop(a); err != nil {
		t.Fatal(err)
	}
	render(t, dev, 256)
	play(refuse, 1) // a's place is free again

	oldest := clip(InstancesStealOldest)
	o1 := play(oldest, 1)
	o2 := play(oldest, 1)
	play(oldest, 1)
	render(t, dev, 256)
	if e.Playing(o1) || !e.Playing(o2) {
		t.Errorf("steal-oldest: first %v second %v, want the first stolen", e.Playing(o1), e.Playing(o2))
	}
	quiet := clip(InstancesStealQuietest)
	q1 := play(quiet, 1)
	q2 := play(quiet, 0.2)
	play(quiet, 1)
	render(t, dev, 256)
	if !e.Playing(q1) || e.Playing(q2) {
		t.Errorf("steal-quietest: loud %v quiet %v, want the quiet one stolen", e.Playing(q1), e.Playing(q2))
	}
	stolen := map[Handle]bool{}
	for {
		ev, ok := e.PollEvent()
		if !ok {
			break
		}
		if ev.Kind == EventStolen {
			stolen[ev.Handle] = true
		}
	}
	if len(stolen) != 2 || !stolen[o1] || !stolen[q2] {
		t.Errorf("stolen events %v, want %v and %v", stolen, o1, q2)
	}
	if s := e.Stats(); s.Steals != 2 {
		t.Errorf("steals %d, want 2", s.Steals)
	}
	if _, err := b.Clip(ClipDesc{Format: mono48f, MaxInstances: -1}); err == nil {
		t.Error("MaxInstances -1 accepted")
	}
}
