package voices

import (
	"math"
	"sync"
	"testing"
	"time"
)

// TestSetPositionNeverQueues: SetPosition and SetListener keep only the
// latest state. Ten thousand moves of each between two blocks, on an
// engine whose queue holds 16 commands, all succeed, fill no queue, and
// the next block mixes at the last ones' gain.
func TestSetPositionNeverQueues(t *testing.T) {
	const dc, block = 0.5, 256
	e, dev := offlineEngine(t, EngineDesc{Formats: []Format{mono48f}, BlockFrames: block, QueueSize: 16})
	_, clip := clipOf(t, e, "dc", mono48f, dcPCM(mono48f, 4800, dc), ClipDesc{})
	h, err := e.Play(clip, PlayDesc{Loop: true, Spatial: &Spatial{Position: Vec3{Z: -1}}})
	if err != nil {
		t.Fatal(err)
	}
	levels(t, dev, block)
	last := Vec3{X: 3, Z: -4} // 5 away: inverse clamped, ref 1, gain 1/5
	for i := range 10000 {
		p := Vec3{X: float32(i%7) + 1, Z: -2}
		if i == 9999 {
			p = last
		}
		if err := e.SetPosition(h, p, Vec3{}); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
	}
	for i := range 10000 { // the listener too: the last, at the origin, wins
		lis := Listener{Position: Vec3{Y: float32(10000 - 1 - i)}}
		if err := e.SetListener(lis); err != nil {
			t.Fatalf("listener move %d: %v", i, err)
		}
	}
	l, r := levels(t, dev, block)
	if got := math.Hypot(l, r) / dc; math.Abs(got-0.2) > 1e-4 {
		t.Errorf("gain after the moves %.6f, want the last move's 0.2", got)
	}
	if st := e.Stats(); st.QueueFull != 0 {
		t.Errorf("%d queue-full refusals, want 0", st.QueueFull)
	}
}

// TestSetPositionStaleGeneration: a move for an ended voice, written
// after its slot went to a new voice, does not move the new one.
func TestSetPositionStaleGeneration(t *testing.T) {
	var c posCell
	var seen uint32
	c.store(7, Vec3{X: 1}, Vec3{})
	if _, _, ok := c.load(8, &seen); ok {
		t.Errorf("generation 8 read generation 7's move")
	}
	c.store(8, Vec3{X: 2}, Vec3{Y: 3})
	if p, v, ok := c.load(8, &seen); !ok || p.X != 2 || v.Y != 3 {
		t.Errorf("load = %v %v %v, want generation 8's move", p, v, ok)
	}
	if _, _, ok := c.load(8, &seen); ok {
		t.Errorf("the same move read twice")
	}
}

// TestPosCellNeverTorn: moves written from several goroutines are read
// whole. Writer g writes g in all six components, so a read that mixed
// two writes would show two values.
func TestPosCellNeverTorn(t *testing.T) {
	var c posCell
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := float32(g + 1)
			for {
				select {
				case <-stop:
					return
				default:
				}
				c.store(1, Vec3{f, f, f}, Vec3{f, f, f})
			}
		}()
	}
	var seen uint32
	reads := 0
	for deadline := time.Now().Add(5 * time.Second); reads < 2000 && time.Now().Before(deadline); {
		p, v, ok := c.load(1, &seen)
		if !ok {
			continue
		}
		reads++
		if p.X == 0 || p.Y != p.X || p.Z != p.X || v.X != p.X || v.Y != p.X || v.Z != p.X {
			t.Fatalf("torn read: %v %v", p, v)
		}
	}
	close(stop)
	wg.Wait()
	if reads == 0 {
		t.Fatal("no move was ever read")
	}
}

// TestSetPositionConcurrent: moves from several goroutines while the
// mixer renders (run it under -race). Every mixed gain lies between the
// nearest and the farthest move written.
func TestSetPositionConcurrent(t *testing.T) {
	const dc, block = 0.5, 256
	e, dev := offlineEngine(t, EngineDesc{Formats: []Format{mono48f}, BlockFrames: block, DistanceModel: DistanceInverse})
	_, clip := clipOf(t, e, "dc", mono48f, dcPCM(mono48f, 4800, dc), ClipDesc{})
	h, err := e.Play(clip, PlayDesc{Loop: true, Spatial: &Spatial{Position: Vec3{Z: -2}}})
	if err != nil {
		t.Fatal(err)
	}
	levels(t, dev, block) // past the limiter's look-ahead, silent at the start
	// Goroutine g writes distance 2+g on the -z axis: gain 1/(2+g).
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if err := e.SetPosition(h, Vec3{Z: -float32(2 + g)}, Vec3{}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for range 100 {
		l, r := render(t, dev, block)
		for i := range l {
			if got := math.Hypot(float64(l[i]), float64(r[i])) / dc; got < 1.0/5-1e-4 || got > 1.0/2+1e-4 {
				t.Fatalf("gain %.6f outside the moves' 0.2 to 0.5", got)
			}
		}
	}
	close(stop)
	wg.Wait()
}
