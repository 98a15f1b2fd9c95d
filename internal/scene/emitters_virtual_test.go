package scene_test

import (
	"math"
	"slices"
	"testing"
	"time"
)

// TestEmittersNearestReal plays 500 emitters on the scene's engine
// (virtual voices): all stay alive, the protected music stays real, the
// real voices' cap is full, and the mixed emitters are the nearest. A
// sound's audibility is its distance gain times the louder side of its
// pan (0.71 to 1), and a real sound keeps its place until another is
// 1.25 times as audible. So the 15 nearest must be real, and no real
// emitter may be farther than 1.25/0.71 times the nearest virtual one.
func TestEmittersNearestReal(t *testing.T) {
	const n = 500
	a, m := openEmitters(t, n)
	m.Step(0)
	time.Sleep(300 * time.Millisecond)
	st := a.Engine.Stats()
	if st.Real != st.RealMax || st.Real+st.Virtual != n+1 || st.Steals != 0 || st.Refusals != 0 {
		t.Fatalf("Stats Real %d (cap %d), Virtual %d, Steals %d, Refusals %d: want the cap full, %d sounds in all, none lost",
			st.Real, st.RealMax, st.Virtual, st.Steals, st.Refusals, n+1)
	}
	if v, ok := a.Engine.Virtual(a.Music); !ok || v {
		t.Errorf("music: virtual %v ok %v, want real", v, ok)
	}
	type em struct {
		d    float64
		real bool
	}
	l := m.Listener().Position
	ems := make([]em, n)
	nearVirtual := math.Inf(1)
	farReal := 0.0
	for i := range n {
		p := m.Position(i)
		d := math.Hypot(float64(p.X-l.X), float64(p.Z-l.Z))
		v, ok := a.Engine.Virtual(m.Handle(i))
		if !ok {
			t.Fatalf("emitter %d: not playing", i)
		}
		ems[i] = em{d, !v}
		if v {
			nearVirtual = min(nearVirtual, d)
		} else {
			farReal = max(farReal, d)
		}
	}
	slices.SortFunc(ems, func(a, b em) int { return int(math.Copysign(1, a.d-b.d)) })
	for i, e := range ems[:15] {
		if !e.real {
			t.Errorf("the %d-th nearest emitter (%.2f away) is virtual", i+1, e.d)
		}
	}
	if farReal > nearVirtual*1.25*math.Sqrt2 {
		t.Errorf("a real emitter %.2f away, the nearest virtual one %.2f", farReal, nearVirtual)
	}
	t.Logf("%d real, %d virtual; farthest real emitter %.2f away, nearest virtual %.2f", st.Real, st.Virtual, farReal, nearVirtual)
}
