package voices

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"
	"time"
)

// positionRamp returns frames frames of f (float32) whose every sample is its
// frame's index times slope: the sample value says the source position.
func positionRamp(f Format, frames int, slope float64) []byte {
	b := make([]byte, frames*f.FrameBytes())
	for i := range frames {
		for c := range f.Channels {
			binary.LittleEndian.PutUint32(b[i*f.FrameBytes()+4*c:], math.Float32bits(float32(float64(i)*slope)))
		}
	}
	return b
}

// swapCase is one kind of voice the swap tests move between real and
// virtual: its source format, resampler and pitch.
type swapCase struct {
	name  string
	f     Format
	rs    Resampler
	pitch float32
	// tol is the position error allowed after a swap back in, in source
	// frames: 0 where the position is kept exactly (unity, linear,
	// pitched); one frame on a rate bus, which rounds a rejoining voice
	// to the whole frame nearest its block's first output.
	tol float64
	// loop, when set, is the clip's length: the sound loops it, so that
	// the swap back in lands just past its seam (see swapRun).
	loop int
}

var swapCases = []swapCase{
	{"unity-48k", st48f, ResamplerSinc, 0, 0, 0},
	{"linear-44k1", Format{Rate: 44100, Channels: 2, Encoding: EncodingFloat32LE}, ResamplerLinear, 0, 0, 0},
	{"ratebus-44k1", Format{Rate: 44100, Channels: 2, Encoding: EncodingFloat32LE}, ResamplerSinc, 0, 1, 0},
	{"ratebus-22k05", Format{Rate: 22050, Channels: 2, Encoding: EncodingFloat32LE}, ResamplerSinc, 0, 1, 0},
	{"pitched-48k", st48f, ResamplerSinc, 1.5, 0, 0},
	// At block 31 the sound's output has reached source frame 7291 of
	// 44.1 kHz; a rate bus member has summed 24 frames further, past a
	// 7300-frame loop's seam.
	{"ratebus-44k1-seam", Format{Rate: 44100, Channels: 2, Encoding: EncodingFloat32LE}, ResamplerSinc, 0, 1, 7300},
}

// swapRun plays pcm (format c.f) on an engine with one real voice and
// renders blocks blocks of 256 frames. With displace, a silent clip
// takes the real voice from it by audibility between blocks 10 and 31 (31: so that a rate bus's phase is not back at
// a whole source frame, as it is every 5 blocks from 44.1 or 22.05 kHz)
// (SetVolume from 0.1 to 2 and back), so that the sound goes virtual and
// comes back; without, it plays alone throughout: the reference. It
// returns the mix and the engine's Stats at the end.
func swapRun(t *testing.T, c swapCase, pcm []byte, loop bool, displace bool, blocks int) ([]float32, Stats) {
	t.Helper()
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: 1, Virtual: 4, Resampler: c.rs, BlockFrames: 256,
		Formats: []Format{c.f, mono48}})
	_, clip := clipOf(t, e, "sound", c.f, pcm, ClipDesc{})
	_, quiet := clipOf(t, e, "silence", mono48, make([]byte, 2*4800), ClipDesc{})
	if _, err := e.Play(clip, PlayDesc{Volume: 0.5, Loop: loop, Pitch: c.pitch}); err != nil {
		t.Fatal(err)
	}
	d, err := e.Play(quiet, PlayDesc{Volume: 0.1, Loop: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []float32
	for b := range blocks {
		if displace && b == 10 {
			if err := e.SetVolume(d, 2); err != nil {
				t.Fatal(err)
			}
		}
		if displace && b == 31 {
			if err := e.SetVolume(d, 0.1); err != nil {
				t.Fatal(err)
			}
		}
		l, _ := renderMix(t, e, dev, 256)
		out = append(out, l...)
	}
	return out, e.Stats()
}

var mono48 = Format{Rate: 48000, Channels: 1, Encoding: EncodingInt16LE}

// TestVirtualSwapPosition proves that a sound swapped out and back in
// lands at the source position it would have reached had it stayed real:
// from block 33 on (the block after its fade-in) its samples, a ramp
// whose value is the source frame, equal the reference run's, or differ
// by at most tol source frames. The swap itself happens at a block
// boundary: that is the block's quantisation of its time, not of its
// position.
func TestVirtualSwapPosition(t *testing.T) {
	for _, c := range swapCases {
		t.Run(c.name, func(t *testing.T) {
			frames := 2 * c.f.Rate
			if c.loop > 0 {
				frames = c.loop
			}
			slope := 0.5 / float64(frames)
			pcm := positionRamp(c.f, frames, slope)
			ref, _ := swapRun(t, c, pcm, c.loop > 0, false, 60)
			got, st := swapRun(t, c, pcm, c.loop > 0, true, 60)
			if st.Swaps != 4 {
				t.Errorf("Swaps %d, want 4 (the sound out and back in, the silence in and out)", st.Swaps)
			}
			// While virtual (blocks 12..29, after its fade out), the
			// sound is not mixed.
			if pk := peak(got[12*256 : 30*256]); pk != 0 {
				t.Errorf("peak %g while the sound is virtual, want 0", pk)
			}
			// The gain is 0.5 (pan centre, balance): a sample is 0.5 ×
			// slope × the source frame, at the source rate's frames.
			// A loop's seam is a jump of the ramp: the samples within a
			// filter's length of one say nothing about the position.
			seam := func(i int) bool {
				for j := max(i-64, 1); j < min(i+64, len(ref)); j++ {
					if math.Abs(float64(ref[j]-ref[j-1])) > 0.1 {
						return true
					}
				}
				return false
			}
			worst := 0.0
			for i := 33 * 256; i < 60*256; i++ {
				if c.loop == 0 || !seam(i) {
					worst = max(worst, math.Abs(float64(got[i]-ref[i]))/(0.5*slope))
				}
			}
			t.Logf("worst position error after the swap back in: %.4f source frames", worst)
			if worst > c.tol+1e-3 {
				t.Errorf("position error %.4f source frames after the swap back in, want at most %v", worst, c.tol)
			}
		})
	}
}

// TestVirtualSwapNoClick proves that no swap clicks: across the sound
// going virtual and coming back (each a ramp over one block), the
// largest sample-to-sample step of the output is no larger than the
// tone's own worst step. That is the largest step a sine of the tone's
// amplitude and frequency takes between two device frames at any phase,
// 2·A·sin(π·f/48000), with A measured on the reference run that never
// swaps (from its RMS over whole cycles). A tone that rejoins a rate bus
// is sampled at another phase than before (its start is rounded to a
// source frame), so the sampled maximum of the reference alone would be
// the wrong bar: it sits up to 0.2% under the bound at 1 kHz.
func TestVirtualSwapNoClick(t *testing.T) {
	for _, c := range swapCases {
		t.Run(c.name, func(t *testing.T) {
			const freq = 1000
			pcm := tone(c.f, c.f.Rate/10, freq, 0.8)
			ref, _ := swapRun(t, c, pcm, true, false, 60)
			got, st := swapRun(t, c, pcm, true, true, 60)
			if st.Swaps != 4 {
				t.Errorf("Swaps %d, want 4", st.Swaps)
			}
			f := freq * float64(max(c.pitch, 1))
			// 4800 frames: whole cycles of 1 and 1.5 kHz.
			amp := math.Sqrt2 * rms(ref[2*256:2*256+4800])
			own := 2 * amp * math.Sin(math.Pi*f/48000)
			worst := maxStep(got[2*256:])
			t.Logf("worst step %.5f across the swaps; the tone's own %.5f (amplitude %.5f; sampled on the reference run %.5f)", worst, own, amp, maxStep(ref[2*256:]))
			if worst > own {
				t.Errorf("worst step %.5f across the swaps, more than the tone's own %.5f", worst, own)
			}
			if pk := peak(got[12*256 : 30*256]); pk != 0 {
				t.Errorf("peak %g while the sound is virtual, want 0", pk)
			}
			if pk, want := peak(got[40*256:]), peak(ref[40*256:]); pk < 0.99*want {
				t.Errorf("peak %g after the swap back in, want about %g", pk, want)
			}
		})
	}
}

// modeOf returns h's ranking mode (virtReal, virtOut, virtOff).
func (e *Engine) modeOf(h Handle) uint8 {
	s, _ := h.slot()
	return e.mix.virt.vv[s].mode
}

// TestVirtualHandle proves that a Handle works the same on a virtual
// sound: Position advances while it is virtual (at its pitch), Pause
// freezes it, Resume and Fade continue it, a Fade to loud swaps it in
// under the same handle, and Stop ends it with one event.
func TestVirtualHandle(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: 1, Virtual: 8, BlockFrames: 256, Events: 64})
	_, loud := clipOf(t, e, "loud", st48f, tone(st48f, 4800, 440, 0.3), ClipDesc{})
	_, snd := clipOf(t, e, "sound", st48f, tone(st48f, 48000, 660, 0.3), ClipDesc{})
	if _, err := e.Play(loud, PlayDesc{Loop: true}); err != nil {
		t.Fatal(err)
	}
	h, err := e.Play(snd, PlayDesc{Volume: 0.2, Loop: true, Pitch: 1})
	if err != nil {
		t.Fatal(err)
	}
	step := func(blocks int) {
		t.Helper()
		for range blocks {
			render(t, dev, 256)
		}
	}
	pos := func() int64 {
		t.Helper()
		p, ok := e.Position(h)
		if !ok || !e.Playing(h) {
			t.Fatalf("handle %v stale", h)
		}
		return p
	}
	step(4)
	if m := e.modeOf(h); m != virtOff {
		t.Fatalf("mode %d, want virtual", m)
	}
	if st := e.Stats(); st.Real != 1 || st.Virtual != 1 || st.Active != 2 || st.RealMax != 1 {
		t.Fatalf("Stats Real %d Virtual %d Active %d RealMax %d, want 1 1 2 1", st.Real, st.Virtual, st.Active, st.RealMax)
	}
	p0 := pos()
	step(4)
	if got := pos() - p0; got != 4*256 {
		t.Errorf("virtual sound advanced %d frames in 4 blocks, want 1024", got)
	}
	// SetPitch doubles its rate (the first block ramps there).
	if err := e.SetPitch(h, 2); err != nil {
		t.Fatal(err)
	}
	step(1)
	p0 = pos()
	step(4)
	if got := pos() - p0; got != 4*512 {
		t.Errorf("virtual sound at pitch 2 advanced %d frames in 4 blocks, want 2048", got)
	}
	if err := e.Pause(h); err != nil {
		t.Fatal(err)
	}
	step(2)
	p0 = pos()
	step(4)
	if got := pos() - p0; got != 0 {
		t.Errorf("paused virtual sound advanced %d frames", got)
	}
	if err := e.Resume(h); err != nil {
		t.Fatal(err)
	}
	if err := e.SetPan(h, 0.5); err != nil {
		t.Fatal(err)
	}
	step(2)
	if pos() == p0 {
		t.Errorf("resumed virtual sound did not advance")
	}
	// A Fade to louder than the other sound swaps it in, same handle.
	if err := e.Fade(h, 2, 20*time.Millisecond, AfterNone); err != nil {
		t.Fatal(err)
	}
	step(8)
	if m := e.modeOf(h); m != virtReal {
		t.Fatalf("mode %d after a fade up, want real", m)
	}
	if err := e.SetVolume(h, 0.01); err != nil {
		t.Fatal(err)
	}
	step(2)
	if m := e.modeOf(h); m != virtOff {
		t.Fatalf("mode %d after SetVolume down, want virtual", m)
	}
	if err := e.Stop(h); err != nil {
		t.Fatal(err)
	}
	step(1)
	if e.Playing(h) {
		t.Fatal("stopped virtual sound still playing")
	}
	if err := e.SetVolume(h, 1); !errors.Is(err, ErrStaleHandle) {
		t.Fatalf("SetVolume after Stop: %v, want ErrStaleHandle", err)
	}
	n := 0
	for ev, ok := e.PollEvent(); ok; ev, ok = e.PollEvent() {
		if ev.Handle == h {
			n++
			if ev.Kind != EventStopped {
				t.Errorf("event %v, want stopped", ev.Kind)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d events for the stopped sound, want 1", n)
	}
}

// TestVirtualEnds plays 40 one-shot sounds of different lengths on 4
// real voices and proves that each one's end is reported exactly once,
// in the block its last frame falls in, whether it ended real or
// virtual, and that Stats counts real and virtual sounds right at every
// block.
func TestVirtualEnds(t *testing.T) {
	const n, real, block = 40, 4, 256
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: real, Virtual: 64, BlockFrames: block, Events: 128})
	pcm := tone(st48f, 1000+337*n, 440, 0.01)
	hs := map[Handle]int{}
	for i := range n {
		_, c := clipOf(t, e, "s", st48f, pcm[:(1000+337*i)*8], ClipDesc{})
		// Volumes spread, so that the ranking moves as the loudest end.
		h, err := e.Play(c, PlayDesc{Volume: float32(1+(i*7)%n) / 10})
		if err != nil {
			t.Fatal(err)
		}
		hs[h] = i
	}
	seen := map[Handle]int{}
	endedReal, endedVirtual := 0, 0
	for b := 0; len(seen) < n && b < 200; b++ {
		modes := map[Handle]uint8{}
		for h := range hs {
			if e.Playing(h) {
				modes[h] = e.modeOf(h)
			}
		}
		render(t, dev, block)
		// Real and Virtual are the ranking's, at the block's start;
		// Active is what is left at its end.
		start, alive := 0, 0
		for _, i := range hs {
			if last := (1000 + 337*i - 1) / block; last >= b {
				start++
				if last > b {
					alive++
				}
			}
		}
		st := e.Stats()
		if st.Active != alive || st.Real != min(start, real) || st.Virtual != start-min(start, real) {
			t.Fatalf("block %d: Stats Active %d Real %d Virtual %d, want %d %d %d", b, st.Active, st.Real, st.Virtual, alive, min(start, real), start-min(start, real))
		}
		for ev, ok := e.PollEvent(); ok; ev, ok = e.PollEvent() {
			i, ok := hs[ev.Handle]
			if !ok || ev.Kind != EventEnded {
				t.Fatalf("block %d: event %v for %v", b, ev.Kind, ev.Handle)
			}
			seen[ev.Handle]++
			if want := (1000 + 337*i - 1) / block; b != want {
				t.Errorf("sound %d (%d frames) ended in block %d, want %d", i, 1000+337*i, b, want)
			}
			if modes[ev.Handle] == virtOff {
				endedVirtual++
			} else {
				endedReal++
			}
		}
	}
	for h, i := range hs {
		if seen[h] != 1 {
			t.Errorf("sound %d: %d end events, want 1", i, seen[h])
		}
	}
	t.Logf("%d ended real, %d ended virtual; %d swaps", endedReal, endedVirtual, e.Stats().Swaps)
	if endedVirtual == 0 || endedReal == 0 {
		t.Errorf("%d ended real and %d virtual: want both", endedReal, endedVirtual)
	}
}

// TestVirtualProtected proves that a protected sound is always real,
// however quiet, and that a Play past the real voices' caps neither
// refuses nor steals.
func TestVirtualProtected(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: 2, Virtual: 16, Policy: PolicySteal})
	_, c := clipOf(t, e, "t", st48f, tone(st48f, 4800, 440, 0.1), ClipDesc{})
	music, err := e.Play(c, PlayDesc{Volume: 0.01, Loop: true, Protected: true})
	if err != nil {
		t.Fatal(err)
	}
	var hs []Handle
	for i := range 10 {
		h, err := e.Play(c, PlayDesc{Volume: float32(1+i) / 4, Loop: true})
		if err != nil {
			t.Fatalf("Play %d past the real voices: %v", i, err)
		}
		hs = append(hs, h)
	}
	render(t, dev, 1024)
	if m := e.modeOf(music); m != virtReal {
		t.Errorf("protected sound mode %d, want real", m)
	}
	if m := e.modeOf(hs[9]); m != virtReal {
		t.Errorf("loudest sound mode %d, want real", m)
	}
	st := e.Stats()
	if st.Real != 2 || st.Virtual != 9 || st.Steals != 0 || st.Refusals != 0 {
		t.Errorf("Stats Real %d Virtual %d Steals %d Refusals %d, want 2 9 0 0", st.Real, st.Virtual, st.Steals, st.Refusals)
	}
}

// TestVirtualBadInput checks EngineDesc.Virtual's range.
func TestVirtualBadInput(t *testing.T) {
	for _, d := range []EngineDesc{
		{MaxVoices: 32, Virtual: 32},
		{Virtual: -1},
		{Virtual: MaxVirtual + 1},
		{Virtual: 4000, StartLatency: time.Second}, // too many slots over 36 formats
	} {
		d.Device = NewOffline(OfflineDesc{})
		if _, err := NewEngine(d); !errors.Is(err, ErrInvalid) {
			t.Errorf("NewEngine(MaxVoices %d, Virtual %d): %v, want ErrInvalid", d.MaxVoices, d.Virtual, err)
		}
	}
}

// TestSelectTop checks the ranking's quickselect against a sort, on
// random keys with many duplicates.
func TestSelectTop(t *testing.T) {
	rng := uint64(1)
	for trial := range 500 {
		n := 1 + trial%97
		keys := make([]uint64, n)
		for i := range keys {
			rng = rng*6364136223846793005 + 1442695040888963407
			keys[i] = rng >> 60 // 16 values: duplicates
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		top := trial % (n + 1)
		selectTop(keys, top)
		got := slices.Clone(keys[n-top:])
		slices.Sort(got)
		if !slices.Equal(got, want[n-top:]) {
			t.Fatalf("n %d top %d: got %v, want %v", n, top, got, want[n-top:])
		}
	}
}

// TestVirtualRankOrder proves the ranking's order: priority first, then
// audibility; a silent sound (paused) never takes a place, whatever its
// priority; and a format's real cap (FormatCaps) holds while the total
// has room.
func TestVirtualRankOrder(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: 3, Virtual: 32, FormatCaps: map[Format]int{mono44: 1}})
	_, c48 := clipOf(t, e, "a", st48f, tone(st48f, 4800, 440, 0.1), ClipDesc{})
	_, c44 := clipOf(t, e, "b", mono44, tone(mono44, 4410, 440, 0.1), ClipDesc{})
	play := func(c Clip, d PlayDesc) Handle {
		t.Helper()
		d.Loop = true
		h, err := e.Play(c, d)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	paused := play(c48, PlayDesc{Priority: 9})
	if err := e.Pause(paused); err != nil {
		t.Fatal(err)
	}
	high := play(c48, PlayDesc{Priority: 1, Volume: 0.05})
	loud44 := play(c44, PlayDesc{Volume: 4})
	next44 := play(c44, PlayDesc{Volume: 3})
	loud48 := play(c48, PlayDesc{Volume: 2})
	quiet48 := play(c48, PlayDesc{Volume: 0.1})
	for range 4 {
		render(t, dev, 256)
	}
	for _, c := range []struct {
		name string
		h    Handle
		want uint8
	}{
		{"paused, priority 9", paused, virtOff},
		{"priority 1, quiet", high, virtReal},
		{"loudest 44.1 kHz", loud44, virtReal},
		{"second 44.1 kHz (its format's cap is 1)", next44, virtOff},
		{"loud 48 kHz", loud48, virtReal},
		{"quiet 48 kHz", quiet48, virtOff},
	} {
		if m := e.modeOf(c.h); m != c.want {
			t.Errorf("%s: mode %d, want %d", c.name, m, c.want)
		}
	}
	if st := e.Stats(); st.Real != 3 || st.Virtual != 3 {
		t.Errorf("Stats Real %d Virtual %d, want 3 3", st.Real, st.Virtual)
	}
	// With room in the total for every audible sound, the format cap
	// still goes to the louder 44.1 kHz sound, the one played first.
	for _, h := range []Handle{high, loud48, quiet48} {
		if err := e.Stop(h); err != nil {
			t.Fatal(err)
		}
	}
	for range 4 {
		render(t, dev, 256)
	}
	if m, n := e.modeOf(loud44), e.modeOf(next44); m != virtReal || n != virtOff {
		t.Errorf("44.1 kHz sounds' modes %d and %d with room for both, want real, virtual", m, n)
	}
}

// TestVirtualFirstSwapInNoClick covers a sound that starts virtual and
// is swapped in for the first time: it ramps in from silence over a
// block too, so the worst step stays within the tone's own (as in
// TestVirtualSwapNoClick, 2·A·sin(π·f/48000)).
func TestVirtualFirstSwapInNoClick(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: 1, Virtual: 4, BlockFrames: 256, Formats: []Format{st48f, mono48}})
	_, quiet := clipOf(t, e, "silence", mono48, make([]byte, 2*4800), ClipDesc{})
	_, snd := clipOf(t, e, "tone", st48f, tone(st48f, 4800, 1000, 0.8), ClipDesc{})
	d, err := e.Play(quiet, PlayDesc{Volume: 2, Loop: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Play(snd, PlayDesc{Volume: 0.5, Loop: true}); err != nil {
		t.Fatal(err)
	}
	var out []float32
	for b := range 20 {
		if b == 10 {
			if err := e.SetVolume(d, 0.1); err != nil {
				t.Fatal(err)
			}
		}
		l, _ := renderMix(t, e, dev, 256)
		out = append(out, l...)
	}
	if pk := peak(out[:10*256]); pk != 0 {
		t.Fatalf("peak %g while the tone is virtual, want 0", pk)
	}
	own := 2 * 0.4 * math.Sin(math.Pi*1000/48000)
	if worst := maxStep(out); worst > own || peak(out[11*256:]) < 0.39 {
		t.Errorf("worst step %.5f (the tone's own %.5f), peak %.3f after the swap in", worst, own, peak(out[11*256:]))
	}
	if st := e.Stats(); st.Swaps != 2 {
		t.Errorf("Swaps %d, want 2", st.Swaps)
	}
}

// TestVirtualRanks3D proves that the ranking hears 3D attenuation: of two
// positioned sounds at the same volume, the nearer is real, and moving
// them swaps them.
func TestVirtualRanks3D(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: 1, Virtual: 4})
	_, c := clipOf(t, e, "t", mono48, tone(mono48, 4800, 440, 0.1), ClipDesc{})
	near, far := Vec3{X: 1}, Vec3{X: 40}
	a, err := e.Play(c, PlayDesc{Loop: true, Spatial: &Spatial{Position: near}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.Play(c, PlayDesc{Loop: true, Spatial: &Spatial{Position: far}})
	if err != nil {
		t.Fatal(err)
	}
	render(t, dev, 512)
	if ma, mb := e.modeOf(a), e.modeOf(b); ma != virtReal || mb != virtOff {
		t.Fatalf("near sound mode %d, far %d: want real, virtual", ma, mb)
	}
	if err := e.SetPosition(a, far, Vec3{}); err != nil {
		t.Fatal(err)
	}
	if err := e.SetPosition(b, near, Vec3{}); err != nil {
		t.Fatal(err)
	}
	render(t, dev, 1024)
	if ma, mb := e.modeOf(a), e.modeOf(b); ma != virtOff || mb != virtReal {
		t.Fatalf("after moving them, mode %d and %d: want virtual, real", ma, mb)
	}
	if st := e.Stats(); st.Swaps != 2 {
		t.Errorf("Swaps %d, want 2", st.Swaps)
	}
}

// TestVirtualStreamReal proves that a stream is always real: quieter than
// every other sound, it keeps its voice, plays its whole track and ends
// once.
func TestVirtualStreamReal(t *testing.T) {
	e, dev := offlineEngine(t, EngineDesc{MaxVoices: 2, Virtual: 8, Events: 16})
	pcm := tone(mono48, 4800, 440, 0.5)
	src, err := NewPCMSource(bytes.NewReader(pcm), 0, int64(len(pcm)), mono48)
	if err != nil {
		t.Fatal(err)
	}
	st, err := e.NewStream(StreamDesc{Name: "music", Source: src})
	if err != nil {
		t.Fatal(err)
	}
	_, c := clipOf(t, e, "t", mono48, pcm, ClipDesc{})
	music, err := e.Play(st.Clip(), PlayDesc{Volume: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	for range 4 {
		if _, err := e.Play(c, PlayDesc{Loop: true, Volume: 2}); err != nil {
			t.Fatal(err)
		}
	}
	for b := 0; e.Playing(music); b++ {
		if b > 100 {
			t.Fatal("the stream did not end")
		}
		time.Sleep(2 * time.Millisecond) // lets the decoder keep ahead
		render(t, dev, 256)
		if e.Playing(music) && e.modeOf(music) != virtReal {
			t.Fatalf("block %d: stream mode %d, want real", b, e.modeOf(music))
		}
	}
	if s := e.Stats(); s.StreamUnderruns != 0 || s.Real != 2 {
		t.Errorf("Stats StreamUnderruns %d Real %d, want 0 2", s.StreamUnderruns, s.Real)
	}
	n := 0
	for ev, ok := e.PollEvent(); ok; ev, ok = e.PollEvent() {
		if ev.Handle == music {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d end events for the stream, want 1", n)
	}
	if err := st.Close(time.Second); err != nil {
		t.Fatal(err)
	}
}
