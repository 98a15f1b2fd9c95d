package main

import (
	"bytes"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/descriptors"
	"github.com/steadyframe/steadyframe/internal/quads"
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/voices"
)

// testOverlay is an overlay with a full history and a slot map whose
// slots cycle through every state.
func testOverlay(t testing.TB) (*overlay, *slotTracker) {
	o, err := newOverlay()
	if err != nil {
		t.Fatal(err)
	}
	for i := range histLen + 10 {
		pct := [scene.ArenaCount]float32{float32(i % 100), 50, 100}
		o.hist.add(descriptors.Stats{Live: 239 + i, Pending: i % 40, HighWater: 500, Capacity: 1024},
			time.Duration(i)*100*time.Microsecond, &pct, &voices.Stats{Active: i % 33, MaxVoices: 32})
	}
	s := newSlotTracker(nil, nil, 1024)
	for i := range 1024 {
		s.used[i] = i < 800
		s.live[i] = i < 500
		s.freedAt[i] = uint64(i % 2 * 10)
	}
	return o, s
}

// TestOverlayOneDrawPerGraph: each graph and the slot map are one run of
// white-texel quads (one draw call), within their allocation, and writing
// them allocates nothing.
func TestOverlayOneDrawPerGraph(t *testing.T) {
	o, s := testOverlay(t)
	view := make([]byte, max(graphMaxQuads, slotMapQuads(1024))*quads.QuadBytes)
	for k, g := range o.graphs {
		if err := g.Reset(view); err != nil {
			t.Fatal(err)
		}
		o.writeGraph(g, k, 600, graphY(k), 7)
		if n := len(g.Runs()); n != 1 || g.Refused() != 0 {
			t.Errorf("graph %d: %d runs, %d quads refused; want 1 and 0", k, n, g.Refused())
		}
	}
	_ = o.slots.Reset(view[:slotMapQuads(1024)*quads.QuadBytes])
	writeSlotMap(o.slots, s, 5, 600, slotMapTop, 7)
	if n := len(o.slots.Runs()); n != 1 || o.slots.Refused() != 0 || o.slots.Len() != 1025 {
		t.Errorf("slot map: %d runs, %d quads, %d refused; want 1, 1025, 0", n, o.slots.Len(), o.slots.Refused())
	}
	pct := [scene.ArenaCount]float32{1, 2, 3}
	vs := voices.Stats{Active: 3, MaxVoices: 32}
	testenv.NoAllocs(t, "an overlay frame", 100, func() {
		o.hist.add(descriptors.Stats{Live: 300, Capacity: 1024}, time.Millisecond, &pct, &vs)
		for k, g := range o.graphs {
			_ = g.Reset(view)
			o.writeGraph(g, k, 600, graphY(k), 7)
		}
		_ = o.slots.Reset(view)
		writeSlotMap(o.slots, s, 5, 600, slotMapTop, 7)
	})
}

// TestSlotStates: a freed slot is pending until the frame it was freed in
// completes, then free.
func TestSlotStates(t *testing.T) {
	s := newSlotTracker(nil, nil, 4)
	s.used[1], s.live[1] = true, true
	s.used[2], s.freedAt[2] = true, 9
	s.used[3], s.freedAt[3] = true, 3
	for i, want := range []int{slotUnused, slotLive, slotPending, slotFree} {
		if got := s.state(i, 8); got != want {
			t.Errorf("slot %d: state %d, want %d", i, got, want)
		}
	}
}

// BenchmarkOverlay is one frame of the overlay: the history sample, four
// graphs and the slot map of a 1024-slot heap.
func BenchmarkOverlay(b *testing.B) {
	o, s := testOverlay(b)
	view := make([]byte, max(graphMaxQuads, slotMapQuads(1024))*quads.QuadBytes)
	pct := [scene.ArenaCount]float32{1, 2, 3}
	vs := voices.Stats{Active: 3, MaxVoices: 32}
	b.ReportAllocs()
	for b.Loop() {
		o.hist.add(descriptors.Stats{Live: 300, Capacity: 1024}, time.Millisecond, &pct, &vs)
		for k, g := range o.graphs {
			_ = g.Reset(view)
			o.writeGraph(g, k, 600, graphY(k), 7)
		}
		_ = o.slots.Reset(view)
		writeSlotMap(o.slots, s, 5, 600, slotMapTop, 7)
	}
}

// TestScreenshotShowsOverlay runs the demo with a leak (L at frame 20,
// exhausting the heap by frame 95), a voice storm (V at 100) and an upload
// flood (U at 120), and checks the overlay in the last frame: each graph
// drawn where the layout puts it with its series' colours, the
// descriptor graph's live area reaching the top, the arena graph at 100%,
// and the slot map with every cell live.
func TestScreenshotShowsOverlay(t *testing.T) {
	if _, err := exec.LookPath("Xvfb"); err != nil && os.Getenv("DISPLAY") == "" {
		testenv.SkipOrFail(t, "no DISPLAY and no Xvfb: the demo needs X")
	}
	shot := filepath.Join(t.TempDir(), "overlay.png")
	args := []string{"-frames", "150", "-audio", "offline", "-keys", "L@20,V@100,U@120", "-screenshot", shot}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1", argsEnv+"="+strings.Join(args, "\x1f"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	timer := time.AfterFunc(4*time.Minute, func() { _ = cmd.Process.Kill() })
	err := cmd.Run()
	timer.Stop()
	if err != nil {
		t.Fatalf("demo: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "crossed 90% occupancy") {
		t.Error("the leak raised no 90% warning")
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	x0 := int(graphX(img.Bounds().Dx()))
	// count returns how many pixels of graph k's area (the right half,
	// the frames with history) have a colour near one of want.
	count := func(y0, h int, want ...uint32) int {
		n := 0
		for y := y0; y < y0+h; y++ {
			for x := x0 + graphW/2; x < x0+graphW; x++ {
				c := rgba(img, x, y)
				for _, w := range want {
					if near(c, w) {
						n++
						break
					}
				}
			}
		}
		return n
	}
	for _, g := range []struct {
		name string
		k    int
		want []uint32
	}{
		{"descriptor live", graphDescriptors, []uint32{colLive}},
		{"frame time", graphFrameTime, []uint32{colFrameTime}},
		{"arena use", graphArenas, arenaCol[:]},
		{"voices", graphVoices, []uint32{colVoice}},
		{"graph background", graphVoices, []uint32{colGraphBg}},
	} {
		if n := count(int(graphY(g.k)), graphH, g.want...); n < 50 {
			t.Errorf("%s graph at (%d, %.0f): %d pixels of its colours, want at least 50", g.name, x0, graphY(g.k), n)
		}
	}
	// Exhausted: the live area fills the descriptor graph's top row at
	// the right edge, and the flood puts an arena at 100%.
	top := int(graphY(graphDescriptors))
	if c := rgba(img, x0+graphW-3, top+graphH-2); !near(c, colLive) {
		t.Errorf("descriptor graph's newest column: %08x, want live %08x", c, colLive)
	}
	if n := count(int(graphY(graphArenas)), 3, arenaCol[:]...); n == 0 {
		t.Error("no arena at 100% during the flood")
	}
	live := 0
	for i := range 1024 {
		cx := x0 + i%slotCols*(slotCell+1) + slotCell/2
		cy := slotMapTop + i/slotCols*(slotCell+1) + slotCell/2
		if near(rgba(img, cx, cy), colLive) {
			live++
		}
	}
	if live != 1024 {
		t.Errorf("slot map: %d live cells, want all 1024 (the leak exhausted the heap)", live)
	}
}
