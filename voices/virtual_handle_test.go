package voices

import "testing"

// TestVirtualQuery plays 8 looping sounds of rising volume on 3 real
// voices and checks Engine.Virtual against the ranking: not ranked
// before the first block, then the 3 loudest real and the rest virtual;
// a fade up swaps the quietest in and the quietest real one out, under
// the same handles; a stopped sound's handle is not ok; a plain engine
// reports every playing sound real. It allocates nothing.
func TestVirtualQuery(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: 3, Virtual: 16})
	_, c := clipOf(t, e, "t", st48f, tone(st48f, 4800, 440, 0.1), ClipDesc{})
	var hs [8]Handle
	for i := range hs {
		h, err := e.Play(c, PlayDesc{Volume: float32(1+i) / 10, Loop: true})
		if err != nil {
			t.Fatal(err)
		}
		hs[i] = h
	}
	if _, ok := e.Virtual(hs[0]); ok {
		t.Error("a sound not yet ranked: ok, want not ok")
	}
	check := func(when string, real map[int]bool) {
		t.Helper()
		for i, h := range hs {
			v, ok := e.Virtual(h)
			if !ok || v == real[i] {
				t.Errorf("%s: sound %d virtual %v ok %v, want virtual %v", when, i, v, ok, !real[i])
			}
		}
	}
	render(t, dev, 1024)
	check("ranked", map[int]bool{5: true, 6: true, 7: true})
	if err := e.SetVolume(hs[0], 1); err != nil {
		t.Fatal(err)
	}
	render(t, dev, 1024)
	check("after the fade up", map[int]bool{0: true, 6: true, 7: true})
	if st := e.Stats(); st.Real != 3 || st.Virtual != 5 {
		t.Errorf("Stats Real %d Virtual %d, want 3 and 5", st.Real, st.Virtual)
	}
	wantNoAllocs(t, "Engine.Virtual", func() {
		for _, h := range hs {
			_, _ = e.Virtual(h)
		}
	})
	if err := e.Stop(hs[7]); err != nil {
		t.Fatal(err)
	}
	render(t, dev, 1024)
	if _, ok := e.Virtual(hs[7]); ok {
		t.Error("a stopped sound: ok, want not ok")
	}

	p, pdev := offlineEngine(t, EngineDesc{})
	_, pc := clipOf(t, p, "t", st48f, tone(st48f, 4800, 440, 0.1), ClipDesc{})
	h, err := p.Play(pc, PlayDesc{Loop: true})
	if err != nil {
		t.Fatal(err)
	}
	render(t, pdev, 256)
	if v, ok := p.Virtual(h); v || !ok {
		t.Errorf("plain engine: virtual %v ok %v, want real", v, ok)
	}
}
