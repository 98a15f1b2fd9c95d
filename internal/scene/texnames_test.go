package scene_test

import (
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/descriptors"
)

// Every texture of the population carries its name in the heap, after
// the load and after churn, so a leak report or an exhaustion record
// says which textures are live.
func TestTexturesAreNamed(t *testing.T) {
	f := newFrameLoop(t)
	tex := f.load(1)
	f.frame(func() {
		if err := tex.SwapQuality(); err != nil {
			t.Fatal(err)
		}
	})
	counts := map[string]int{}
	for _, l := range f.r.Heap.AppendLive(nil) {
		kind, _, _ := strings.Cut(l.Name, " texture ")
		if kind == l.Name {
			kind, _, _ = strings.Cut(l.Name, " page ")
		}
		counts[kind]++
		if l.Created == 0 {
			t.Errorf("%v: no creation frame", l)
		}
	}
	want := map[string]int{"white texel": 1, "font": 14, "quality": 30, "level": 194}
	for k, n := range want {
		if counts[k] != n {
			t.Errorf("%d live textures named %q, want %d (all: %v)", counts[k], k, n, counts)
		}
	}
	var live []descriptors.Live
	if live = f.r.Heap.AppendLive(live); len(live) != 239 {
		t.Errorf("%d live slots, want 239", len(live))
	}
}
