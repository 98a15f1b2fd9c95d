package main

import (
	"fmt"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/scene"
)

// churnFrames is how many frames the churn storm rebakes, swaps and loads.
const churnFrames = 60

// churnStorm rebakes the font, swaps the quality textures and loads the
// next level every frame, where the workers' churn applies at most one of
// each a frame and one level per frames-in-flight window: the slots
// pending retirement must peak and then drain to none, and LIFO reuse must
// keep the high-water mark bounded: it stops rising once the first frames
// in flight have retired, however long the storm lasts. A churnStorm
// belongs to the render goroutine.
type churnStorm struct {
	hw0, hwSettled, hwEnd int
	pendingPeak           int
	pendingEnd            int
	drainFrames           int
	live0, liveEnd        int
	events                int
	err                   error
	inFlight              int
	// touched marks every slot a texture held during the storm; touchedN
	// counts them, and peakInUse is the most slots live and pending at
	// once. LIFO reuse keeps touchedN at peakInUse, where FIFO reuse would
	// cycle through every free slot.
	touched   []bool
	touchedN  int
	peakInUse int
}

// prepare allocates the slot marks before any frame is guarded.
func (c *churnStorm) prepare(capacity int) { c.touched = make([]bool, capacity) }

func (c *churnStorm) touch(h descriptors.Handle) {
	if i := int(h.Index()); !h.IsZero() && i < len(c.touched) && !c.touched[i] {
		c.touched[i] = true
		c.touchedN++
	}
}

func (*churnStorm) name() string { return "churn-storm" }

func (c *churnStorm) start(r *renderer) {
	st := r.heap.Stats()
	c.hw0, c.live0, c.inFlight = st.HighWater, st.Live, r.scene.Clock.InFlight()
}

func (c *churnStorm) frame(r *renderer, i int) bool {
	if i < churnFrames {
		keep := func(err error) {
			if err != nil && c.err == nil {
				c.err = err
			}
		}
		keep(r.tex.RebakeFont(1 + i%scene.MaxFontScale))
		keep(r.tex.SwapQuality())
		keep(r.tex.NextLevel())
		c.events += 3
		st := r.heap.Stats()
		c.pendingPeak = max(c.pendingPeak, st.Pending)
		c.peakInUse = max(c.peakInUse, st.Live+st.Pending)
		c.touch(r.tex.White())
		for k := range scene.FontPages {
			c.touch(r.tex.Font(k))
		}
		for k := range scene.QualityTextures {
			c.touch(r.tex.Quality(k))
		}
		for k := range scene.LevelTextures {
			c.touch(r.tex.Level(k))
		}
		if i == c.inFlight+1 {
			// Every frame in flight holds one frame's churn now; from
			// here on reclaimed slots serve every new texture.
			c.hwSettled = st.HighWater
		}
		c.hwEnd = st.HighWater
		return false
	}
	st := r.heap.Stats()
	c.drainFrames++
	c.pendingEnd, c.liveEnd = st.Pending, st.Live
	return st.Pending == 0 || c.drainFrames > 4*c.inFlight
}

func (c *churnStorm) verdict(p *phase) ([]string, string) {
	var bad []string
	if c.err != nil {
		bad = append(bad, "churn refused: "+c.err.Error())
	}
	// One frame's churn frees every texture but the white one.
	perFrame := scene.LoadedSlots - 1
	if c.pendingPeak < perFrame {
		bad = append(bad, fmt.Sprintf("pending peaked at %d, below one frame's churn (%d)", c.pendingPeak, perFrame))
	}
	if c.pendingEnd != 0 {
		bad = append(bad, fmt.Sprintf("%d slots still pending %d frames after the storm", c.pendingEnd, c.drainFrames))
	}
	hwEnd := c.hwEnd
	if broken("churn-storm") {
		hwEnd = c.hwSettled + 1
	}
	if hwEnd > c.hwSettled {
		bad = append(bad, fmt.Sprintf("high-water rose from %d to %d after the first %d frames: reuse is not LIFO-bounded", c.hwSettled, hwEnd, c.inFlight+1))
	}
	if c.touchedN > c.peakInUse {
		bad = append(bad, fmt.Sprintf("the storm's textures held %d distinct slots, more than the %d ever live and pending at once: reuse is not LIFO", c.touchedN, c.peakInUse))
	}
	if c.liveEnd != c.live0 {
		bad = append(bad, fmt.Sprintf("live %d after the storm, %d before", c.liveEnd, c.live0))
	}
	return bad, fmt.Sprintf("%d churn events in %d frames; pending peaked at %d and drained in %d frames; "+
		"LIFO reuse kept the textures on %d distinct slots (at most %d in use at once); high-water %d before, %d after %d frames, %d at the end",
		c.events, churnFrames, c.pendingPeak, c.drainFrames, c.touchedN, c.peakInUse, c.hw0, c.hwSettled, c.inFlight+1, c.hwEnd)
}
