package voices

import (
	"testing"
	"time"
)

func TestClipCooldown(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{Events: 8})
	b, err := e.NewBank("gun", dcPCM(mono48f, 480, 0.1))
	if err != nil {
		t.Fatal(err)
	}
	c, err := b.Clip(ClipDesc{Format: mono48f, Cooldown: 40 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Play(c, PlayDesc{}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := e.Play(c, PlayDesc{}); err != ErrCooldown {
		t.Fatalf("second Play within the cooldown: %v, want ErrCooldown", err)
	}
	s := e.Stats()
	if s.Cooldowns != 1 || s.Refusals != 1 || s.LastRefusal.Err != ErrCooldown {
		t.Errorf("cooldowns %d refusals %d last %v", s.Cooldowns, s.Refusals, s.LastRefusal)
	}
	if ev, ok := e.PollEvent(); !ok || ev.Kind != EventRefused || ev.Clip != c || ev.Handle != 0 {
		t.Errorf("cooldown event %+v %v", ev, ok)
	}
	time.Sleep(45*time.Millisecond - time.Since(start))
	if _, err := e.Play(c, PlayDesc{}); err != nil {
		t.Fatalf("Play after the cooldown: %v", err)
	}
	render(t, dev, 256)
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
