package scene_test

import (
	"errors"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/internal/testenv"
)

// openEmitters opens the offline scene audio with n emitters.
func openEmitters(t *testing.T, n int) (*scene.Audio, *scene.Emitters) {
	t.Helper()
	a, err := scene.OpenAudio("offline", scene.NewLogger("text", io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	m, err := a.NewEmitters(n, 7)
	if err != nil {
		t.Fatal(err)
	}
	return a, m
}

// TestEmittersMove steps the emitters and checks that the listener and
// every emitter move, stay in the world, and that the engine took every
// command and still plays every emitter and the music.
func TestEmittersMove(t *testing.T) {
	const n = 16
	a, m := openEmitters(t, n)
	if m.Len() != n {
		t.Fatalf("Len %d, want %d", m.Len(), n)
	}
	m.Step(0)
	l0, p0 := m.Listener(), m.Position(3)
	waitBlock(t, a)
	m.Step(5 * time.Second)
	l1, p1 := m.Listener(), m.Position(3)
	if l0.Position == l1.Position || p0 == p1 {
		t.Errorf("listener %v -> %v, emitter 3 %v -> %v: want both moved", l0.Position, l1.Position, p0, p1)
	}
	for i := range n {
		p := m.Position(i)
		if p.X < -scene.WorldHalf || p.X > scene.WorldHalf || p.Z < -scene.WorldHalf || p.Z > scene.WorldHalf || p.Y != 0 {
			t.Errorf("emitter %d at %v, outside the world", i, p)
		}
	}
	if st := m.Stats(); st.Moves != 2*(n+1) || st.QueueFull != 0 || st.Lost != 0 || st.Held != 0 {
		t.Errorf("stats %+v, want %d moves, none refused or held", st, 2*(n+1))
	}
	// Without a block since, the next moves are held back.
	m.Step(6 * time.Second)
	m.Step(6 * time.Second)
	if st := m.Stats(); st.Held == 0 {
		t.Errorf("two Steps within one block: %d held, want one at least", st.Held)
	}
	time.Sleep(50 * time.Millisecond)
	for i := range n {
		if !a.Engine.Playing(m.Handle(i)) {
			t.Errorf("emitter %d not playing", i)
		}
	}
	if !a.Engine.Playing(a.Music) {
		t.Error("the music stopped")
	}
}

// TestEmittersStepAllocs checks that a frame's Step allocates nothing,
// both when it moves the listener and every emitter (a block has run
// since the last moves) and when it holds them back.
func TestEmittersStepAllocs(t *testing.T) {
	a, m := openEmitters(t, 16)
	var at time.Duration
	testenv.NoAllocs(t, "Emitters.Step", 100, func() {
		for b := a.Engine.Stats().Blocks; a.Engine.Stats().Blocks == b; {
			runtime.Gosched()
		}
		at += 4 * time.Millisecond
		m.Step(at) // sends
		m.Step(at) // holds
	})
	if st := m.Stats(); st.Moves < 100*17 || st.Held < 100 {
		t.Errorf("stats %+v: want every run to send and to hold", st)
	}
}

// TestNewEmittersRefuses checks the count's bounds.
func TestNewEmittersRefuses(t *testing.T) {
	a, err := scene.OpenAudio("offline", scene.NewLogger("text", io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, n := range []int{-1, scene.MaxEmitters + 1} {
		if _, err := a.NewEmitters(n, 1); !errors.Is(err, scene.ErrEmitters) {
			t.Errorf("NewEmitters(%d): %v, want scene.ErrEmitters", n, err)
		}
	}
}

// TestEmittersStopRestart checks that Stop ends every emitter, that
// Restart plays them all again under new handles, and that neither
// allocates.
func TestEmittersStopRestart(t *testing.T) {
	const n = 16
	a, m := openEmitters(t, n)
	old := m.Handle(0)
	m.Stop()
	m.Step(time.Second) // moves only the listener
	deadline := time.Now().Add(5 * time.Second)
	for a.Engine.Playing(m.Handle(n-1)) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	for i := range n {
		if a.Engine.Playing(m.Handle(i)) {
			t.Errorf("emitter %d plays after Stop", i)
		}
	}
	if st := m.Stats(); st.Lost != 0 {
		t.Errorf("Step after Stop: %d moves lost, want none sent", st.Lost)
	}
	m.Restart(2 * time.Second)
	time.Sleep(50 * time.Millisecond)
	for i := range n {
		if !a.Engine.Playing(m.Handle(i)) {
			t.Errorf("emitter %d not playing after Restart", i)
		}
	}
	if m.Handle(0) == old || m.Stats().Refused != 0 {
		t.Errorf("handle %v (was %v), %d refused: want a new handle, none refused", m.Handle(0), old, m.Stats().Refused)
	}
	var at time.Duration
	testenv.NoAllocs(t, "Emitters.Stop and Restart", 20, func() {
		at += time.Second
		m.Stop()
		m.Restart(at)
	})
}

// waitBlock waits until the mixer has run a block.
func waitBlock(t *testing.T, a *scene.Audio) {
	t.Helper()
	b := a.Engine.Stats().Blocks
	for deadline := time.Now().Add(5 * time.Second); a.Engine.Stats().Blocks == b; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the mixer ran no block in 5 s")
		}
	}
}
