package voices

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// genPCM is an io.ReaderAt of deterministic s16 or f32 PCM: each
// sample's value depends on its index alone, so any range reads the same
// bytes however it is cut. work rounds of integer mixing per sample stand
// in for a decoder's cost.
type genPCM struct {
	f      Format
	frames int64
	work   int
	reads  atomic.Int64
}

// sample returns sample j's value in [-0.25, 0.25): a hash of j.
func (g *genPCM) sample(j int64) float32 {
	h := uint32(j) * 2654435761
	for range g.work {
		h ^= h << 13
		h ^= h >> 17
		h ^= h << 5
	}
	h ^= uint32(j) * 2246822519
	return float32(int32(h>>16)-32768) / 131072
}

func (g *genPCM) ReadAt(p []byte, off int64) (int, error) {
	g.reads.Add(1)
	sb := int64(g.f.Encoding.SampleBytes())
	size := g.frames * int64(g.f.FrameBytes())
	if off >= size {
		return 0, io.EOF
	}
	n := min(int64(len(p)), size-off)
	for i := int64(0); i+sb <= n; i += sb {
		s := g.sample((off + i) / sb)
		if sb == 2 {
			binary.LittleEndian.PutUint16(p[i:], uint16(int16(s*32768)))
		} else {
			binary.LittleEndian.PutUint32(p[i:], math.Float32bits(s))
		}
	}
	if n < int64(len(p)) {
		return int(n), io.EOF
	}
	return int(n), nil
}

// all returns the whole source as one buffer: the same PCM as a clip.
func (g *genPCM) all() []byte {
	b := make([]byte, g.frames*int64(g.f.FrameBytes()))
	g.ReadAt(b, 0)
	return b
}

func newTestStream(t testing.TB, e *Engine, r io.ReaderAt, f Format, frames int64, d StreamDesc) *Stream {
	t.Helper()
	src, err := NewPCMSource(r, 0, frames*int64(f.FrameBytes()), f)
	if err != nil {
		t.Fatal(err)
	}
	d.Source = src
	if d.Name == "" {
		d.Name = "test"
	}
	s, err := e.NewStream(d)
	if err != nil {
		t.Fatalf("NewStream: %v", err)
	}
	return s
}

// heapBytes reads the live heap objects' bytes and the bytes allocated
// since the program started.
func heapBytes() (live, allocated uint64) {
	m := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(m)
	return m[0].Value.Uint64(), m[1].Value.Uint64()
}

// TestStreamTenMinutes streams ten minutes of 44.1 kHz stereo through the
// rate bus, paced at 20 times real time (its 16 s buffer is 800 ms of
// slack at that pace; 8 s ran dry once while six other builds loaded
// both cores), from a source that costs 0.8% of a core per
// second of audio here (go-mp3 costs 2.1%, mewkiz/flac 0.7%: their
// BenchmarkSource), so 16% of a core at that pace. It checks that the stream allocates nothing and holds its
// memory while it plays, underruns never, and renders the same bits as
// the same PCM played as a whole clip.
func TestStreamTenMinutes(t *testing.T) {
	minutes := int64(10)
	if testing.Short() || testenv.Race {
		minutes = 1
	}
	f := Format{Rate: 44100, Channels: 2, Encoding: EncodingInt16LE}
	g := &genPCM{f: f, frames: minutes * 60 * 44100, work: 24}
	devFrames := int(minutes*60*48000) + 48000
	const chunk = 4800 // 100 ms
	const speed = 20   // times real time
	buf := make([]byte, chunk*8)
	var s *Stream
	run := func(play func(e *Engine) Handle, pace bool) ([32]byte, Stats) {
		e, dev := offlineEngine(t, EngineDesc{})
		h := play(e)
		sum := sha256.New()
		start := time.Now()
		reported := false
		for done := 0; done < devFrames; done += chunk {
			dev.Render(buf)
			sum.Write(buf)
			if u := e.Stats().StreamUnderrunFrames; u > 0 && !reported {
				reported = true
				t.Logf("first underrun by device frame %d, %v into the run", done, time.Since(start))
			}
			if pace {
				if d := time.Duration(done+chunk) * time.Second / 48000 / speed; time.Since(start) < d {
					time.Sleep(d - time.Since(start))
				}
			}
		}
		if e.Playing(h) {
			t.Errorf("the voice still plays after its %d frames", g.frames)
			if s != nil {
				t.Logf("written %d consumed %d final %d eof %v rewinding %v", s.st.written.Load(), s.st.consumed.Load(), s.st.final.Load(), s.st.eof.Load(), s.st.rewinding.Load())
			}
		}
		var out [32]byte
		sum.Sum(out[:0])
		return out, e.Stats()
	}
	var live0, alloc0, liveMax, live1, alloc1 uint64
	streamed, st := run(func(e *Engine) Handle {
		s = newTestStream(t, e, g, f, g.frames, StreamDesc{Buffer: 16 * time.Second})
		runtime.GC()
		live0, alloc0 = heapBytes()
		h, err := e.Play(s.Clip(), PlayDesc{})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}, true)
	live1, alloc1 = heapBytes()
	liveMax = max(live0, live1)
	t.Logf("%d min streamed with a %d-byte ring: %d source reads, %d bytes allocated while playing, live heap %d -> %d",
		minutes, s.Memory(), g.reads.Load(), alloc1-alloc0, live0, live1)
	if st.StreamUnderruns != 0 || st.StreamUnderrunFrames != 0 {
		t.Errorf("%d underruns (%d frames), want 0", st.StreamUnderruns, st.StreamUnderrunFrames)
	}
	// The test's own Render and hashing allocate nothing; a few hundred
	// bytes leave room for the runtime's timers and profiling buckets.
	if a := alloc1 - alloc0; a > 64<<10 {
		t.Errorf("%d bytes allocated while %d minutes streamed, want a fixed footprint", a, minutes)
	}
	if live1 > live0+1<<20 {
		t.Errorf("live heap grew from %d to %d bytes (max %d) while streaming", live0, live1, liveMax)
	}
	if want := int(16 * 44100 * 4); s.Memory() != want {
		t.Errorf("Memory %d, want %d (16 s of 44.1 kHz s16 stereo)", s.Memory(), want)
	}
	if err := s.Close(time.Second); err != nil {
		t.Fatalf("Close: %v", err)
	}
	pcm := g.all()
	whole, _ := run(func(e *Engine) Handle {
		_, c := clipOf(t, e, "whole", f, pcm, ClipDesc{})
		h, err := e.Play(c, PlayDesc{})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}, false)
	if streamed != whole {
		t.Errorf("the stream's output differs from the whole clip's")
	}
}

// TestStreamLoopSeamless loops a stream whose ring is far shorter than
// its loop, so that the loop's seam and the ring's fall at many offsets
// from each other. At the device rate the mix must be the source's
// samples exactly: the intro, then the loop region again and again. At
// 44.1 kHz it must equal the same loop played from a whole clip.
func TestStreamLoopSeamless(t *testing.T) {
	t.Run("48k", func(t *testing.T) {
		f := Format{Rate: 48000, Channels: 2, Encoding: EncodingFloat32LE}
		g := &genPCM{f: f, frames: 20011}
		const a, b = 3001, 17777
		e, dev := offlineEngine(t, EngineDesc{})
		s := newTestStream(t, e, g, f, g.frames, StreamDesc{Loop: true, LoopStart: a, LoopEnd: b, Buffer: time.Millisecond})
		if _, err := e.Play(s.Clip(), PlayDesc{Loop: true}); err != nil {
			t.Fatal(err)
		}
		const n = 96000
		l, r := renderPaced(t, e, dev, s, n)
		idx := int64(0)
		for i := range n {
			if l[i] != g.sample(2*idx) || r[i] != g.sample(2*idx+1) {
				t.Fatalf("frame %d: (%v, %v), want source frame %d (%v, %v)", i, l[i], r[i], idx, g.sample(2*idx), g.sample(2*idx+1))
			}
			if idx++; idx == b {
				idx = a
			}
		}
		if st := e.Stats(); st.StreamUnderruns != 0 {
			t.Errorf("%d underruns, want 0", st.StreamUnderruns)
		}
	})
	t.Run("44k", func(t *testing.T) {
		f := Format{Rate: 44100, Channels: 2, Encoding: EncodingInt16LE}
		g := &genPCM{f: f, frames: 30011}
		const a, b = 4410, 26999
		const n = 120000
		e, dev := offlineEngine(t, EngineDesc{})
		s := newTestStream(t, e, g, f, g.frames, StreamDesc{Loop: true, LoopStart: a, LoopEnd: b, Buffer: time.Millisecond})
		if _, err := e.Play(s.Clip(), PlayDesc{Loop: true}); err != nil {
			t.Fatal(err)
		}
		sl, sr := renderPaced(t, e, dev, s, n)
		e2, dev2 := offlineEngine(t, EngineDesc{})
		_, c := clipOf(t, e2, "whole", f, g.all(), ClipDesc{LoopStart: a, LoopEnd: b})
		if _, err := e2.Play(c, PlayDesc{Loop: true}); err != nil {
			t.Fatal(err)
		}
		cl, cr := renderMix(t, e2, dev2, n)
		for i := range n {
			if sl[i] != cl[i] || sr[i] != cr[i] {
				t.Fatalf("frame %d: stream (%v, %v), whole clip (%v, %v)", i, sl[i], sr[i], cl[i], cr[i])
			}
		}
		if st := e.Stats(); st.StreamUnderruns != 0 {
			t.Errorf("%d underruns, want 0", st.StreamUnderruns)
		}
	})
}

// renderPaced renders n frames of e's mix a block at a time, letting the
// stream's decoder fill its ring before each block, so that a test of
// what the stream plays does not depend on the machine's load.
func renderPaced(t *testing.T, e *Engine, dev *Offline, s *Stream, n int) (l, r []float32) {
	t.Helper()
	for len(l) < n {
		waitFull(t, s, nil)
		bl, br := renderMix(t, e, dev, DefaultBlockFrames)
		l, r = append(l, bl...), append(r, br...)
	}
	return l[:n], r[:n]
}

// waitFull waits until s's ring is full, its stream has ended, or, with
// blocked set, its reader is blocked.
func waitFull(t *testing.T, s *Stream, blocked *atomic.Bool) {
	t.Helper()
	st := s.st
	deadline := time.Now().Add(10 * time.Second)
	for {
		if st.eof.Load() || st.written.Load()-st.consumed.Load() == st.n-st.behind || blocked != nil && blocked.Load() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stream's decoder did not fill its ring in 10 s")
		}
		time.Sleep(50 * time.Microsecond)
	}
}

// gateReader is a reader that blocks every read past byte from until the
// test opens it, and fails the test if it is read once closed is set.
type gateReader struct {
	t       *testing.T
	r       io.ReaderAt
	from    atomic.Int64
	open    chan struct{}
	blocked atomic.Bool
	closed  atomic.Bool
	late    atomic.Int64
}

func (g *gateReader) ReadAt(p []byte, off int64) (int, error) {
	if g.closed.Load() {
		g.late.Add(1)
		g.t.Errorf("the source was read at offset %d after Close returned nil", off)
	}
	if off+int64(len(p)) > g.from.Load() {
		select {
		case <-g.open:
		default:
			g.blocked.Store(true)
			<-g.open
			g.blocked.Store(false)
		}
	}
	return g.r.ReadAt(p, off)
}

// TestStreamStarved starves a stream on purpose: its reader blocks for a
// while. The stream plays hard left, and a second voice hard right. The
// left channel must hold the stream's samples in order with whole silent
// blocks where it starved, counted in Stats; the right channel must be
// the second voice's alone, bit for bit.
func TestStreamStarved(t *testing.T) {
	f := Format{Rate: 48000, Channels: 2, Encoding: EncodingFloat32LE}
	g := &genPCM{f: f, frames: 30000}
	gate := &gateReader{t: t, r: g, open: make(chan struct{})}
	gate.from.Store(15000 * 8)
	other := tone(f, 40000, 440, 0.5)
	const n = 48000
	const starve = 10 // blocks
	e, dev := offlineEngine(t, EngineDesc{})
	s := newTestStream(t, e, gate, f, g.frames, StreamDesc{Buffer: time.Millisecond})
	_, c := clipOf(t, e, "other", f, other, ClipDesc{})
	if _, err := e.Play(s.Clip(), PlayDesc{Pan: -1}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Play(c, PlayDesc{Pan: 1}); err != nil {
		t.Fatal(err)
	}
	var l, r []float32
	silent := 0
	for len(l) < n {
		waitFull(t, s, &gate.blocked)
		if gate.blocked.Load() && e.Stats().StreamUnderruns > 0 {
			if silent++; silent == starve {
				close(gate.open)
				for gate.blocked.Load() {
					time.Sleep(50 * time.Microsecond)
				}
			}
		}
		bl, br := renderMix(t, e, dev, DefaultBlockFrames)
		l, r = append(l, bl...), append(r, br...)
	}
	st := e.Stats()
	t.Logf("stats: %d underruns, %d frames; ring written %d consumed %d eof %v, err %v", st.StreamUnderruns, st.StreamUnderrunFrames, s.st.written.Load(), s.st.consumed.Load(), s.st.eof.Load(), s.Err())
	if st.StreamUnderruns != 1 || st.StreamUnderrunFrames < starve*DefaultBlockFrames {
		t.Errorf("%d underruns of %d frames, want 1 of at least %d", st.StreamUnderruns, st.StreamUnderrunFrames, starve*DefaultBlockFrames)
	}
	// Left: the source in order, with silent blocks exactly where counted.
	idx, zeros := int64(0), 0
	for i := 0; i < len(l); i++ {
		if idx < g.frames && l[i] == g.sample(2*idx) {
			idx++
			continue
		}
		if l[i] != 0 {
			t.Fatalf("left frame %d: %v, want source frame %d (%v) or silence", i, l[i], idx, g.sample(2*idx))
		}
		if idx < g.frames {
			zeros++
		}
	}
	if idx != g.frames {
		t.Errorf("the left channel played %d of the stream's %d frames", idx, g.frames)
	}
	if uint64(zeros) != st.StreamUnderrunFrames {
		t.Errorf("%d silent frames inside the stream, Stats counts %d", zeros, st.StreamUnderrunFrames)
	}
	// Right: the second voice alone.
	e2, dev2 := offlineEngine(t, EngineDesc{})
	_, c2 := clipOf(t, e2, "other", f, other, ClipDesc{})
	if _, err := e2.Play(c2, PlayDesc{Pan: 1}); err != nil {
		t.Fatal(err)
	}
	_, want := renderMix(t, e2, dev2, n)
	for i := range n {
		if math.Float32bits(r[i]) != math.Float32bits(want[i]) {
			t.Fatalf("right frame %d: %v beside the starved stream, %v alone", i, r[i], want[i])
		}
	}
}

// TestStreamClose checks Close's proof: a playing voice makes it fail
// with ErrStreamInUse and leaves the stream usable; a decoder stuck in
// the reader makes it fail too; once it returns nil the reader is never
// read again, even as the mixer keeps running.
func TestStreamClose(t *testing.T) {
	f := Format{Rate: 48000, Channels: 2, Encoding: EncodingFloat32LE}
	g := &genPCM{f: f, frames: 480000}
	gate := &gateReader{t: t, r: g, open: make(chan struct{})}
	gate.from.Store(math.MaxInt64)
	e, dev := offlineEngine(t, EngineDesc{})
	s := newTestStream(t, e, gate, f, g.frames, StreamDesc{Buffer: 50 * time.Millisecond})
	h, err := e.Play(s.Clip(), PlayDesc{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Play(s.Clip(), PlayDesc{}); err != ErrNoVoice {
		t.Errorf("a second Play of a playing stream: %v, want ErrNoVoice", err)
	}
	if _, err := e.Play(s.Clip(), PlayDesc{Offset: 5}); !errors.Is(err, ErrInvalid) {
		t.Errorf("Play with an Offset: %v, want ErrInvalid", err)
	}
	render(t, dev, 4800)
	if err := s.Close(20 * time.Millisecond); !errors.Is(err, ErrStreamInUse) || !errors.Is(err, ErrBankInUse) {
		t.Fatalf("Close with a voice playing: %v, want ErrStreamInUse wrapping ErrBankInUse", err)
	}
	render(t, dev, 4800) // still usable
	// Stuck in the reader: from now on reads block. Stopping the voice
	// makes the decoder rewind, which reads, if a refill has not already.
	gate.from.Store(0)
	if err := e.Stop(h); err != nil {
		t.Fatal(err)
	}
	render(t, dev, 1024)
	var wg sync.WaitGroup
	wg.Go(func() {
		for !gate.blocked.Load() {
			time.Sleep(100 * time.Microsecond)
		}
	})
	wg.Wait()
	if err := s.Close(20 * time.Millisecond); !errors.Is(err, ErrStreamInUse) {
		t.Fatalf("Close with the decoder inside the reader: %v, want ErrStreamInUse", err)
	}
	close(gate.open)
	if err := s.Close(time.Second); err != nil {
		t.Fatalf("Close: %v", err)
	}
	gate.closed.Store(true)
	render(t, dev, 48000)
	if _, err := e.Play(s.Clip(), PlayDesc{}); err == nil {
		t.Errorf("Play of a closed stream succeeded")
	}
	render(t, dev, 4800)
	time.Sleep(10 * time.Millisecond)
	if n := gate.late.Load(); n != 0 {
		t.Errorf("%d reads after Close returned nil", n)
	}
}

// TestStreamReplay plays a stream to its end twice: the second voice
// waits for the decoder to rewind, then plays the same frames.
func TestStreamReplay(t *testing.T) {
	f := Format{Rate: 48000, Channels: 2, Encoding: EncodingFloat32LE}
	g := &genPCM{f: f, frames: 9000}
	e, dev := offlineEngine(t, EngineDesc{})
	s := newTestStream(t, e, g, f, g.frames, StreamDesc{Buffer: time.Millisecond})
	for round := range 2 {
		h, err := e.Play(s.Clip(), PlayDesc{})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		var l []float32
		for e.Playing(h) {
			waitFull(t, s, nil)
			bl, _ := renderMix(t, e, dev, DefaultBlockFrames)
			l = append(l, bl...)
		}
		i := 0
		for i < len(l) && l[i] == 0 {
			i++
		}
		for j := range g.frames {
			if i+int(j) >= len(l) || l[i+int(j)] != g.sample(2*j) {
				t.Fatalf("round %d: frame %d of the stream missing or wrong", round, j)
			}
		}
	}
	if st := e.Stats(); st.StreamUnderruns != 0 {
		t.Errorf("%d underruns, want 0", st.StreamUnderruns)
	}
}

// TestStreamAllocs checks that a block with a stream voice playing, its
// decoder refilling the ring meanwhile, allocates nothing on any
// goroutine.
func TestStreamAllocs(t *testing.T) {
	f := Format{Rate: 44100, Channels: 2, Encoding: EncodingInt16LE}
	g := &genPCM{f: f, frames: 1 << 30}
	e, dev := offlineEngine(t, EngineDesc{})
	s := newTestStream(t, e, g, f, g.frames, StreamDesc{Buffer: 100 * time.Millisecond})
	if _, err := e.Play(s.Clip(), PlayDesc{Pitch: 1.5}); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, DefaultBlockFrames*8)
	dev.Render(buf)
	testenv.NoAllocs(t, "a block with a stream voice", 300, func() {
		dev.Render(buf)
		waitFull(t, s, nil)
	})
	if g.reads.Load() < 20 {
		t.Errorf("only %d source reads: the decoder did not run during the measurement", g.reads.Load())
	}
}

// BenchmarkStreamBlock renders one 256-frame block with a 44.1 kHz
// stream voice playing on the rate bus, its decoder refilling the ring
// from a PCMSource meanwhile: the mixer's and the decoder's paths, which
// allocate nothing.
func BenchmarkStreamBlock(b *testing.B) {
	f := Format{Rate: 44100, Channels: 2, Encoding: EncodingInt16LE}
	g := &genPCM{f: f, frames: 1 << 40}
	e, dev := offlineEngine(b, EngineDesc{})
	s := newTestStream(b, e, g, f, g.frames, StreamDesc{Buffer: time.Second})
	if _, err := e.Play(s.Clip(), PlayDesc{}); err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, DefaultBlockFrames*8)
	b.ReportAllocs()
	for b.Loop() {
		dev.Render(buf)
	}
}

// slowReader makes each read of the source take a while, as a slow disk
// or a costly decoder does.
type slowReader struct {
	r     io.ReaderAt
	delay atomic.Int64 // nanoseconds a read takes
	reads atomic.Int64
}

func (s *slowReader) ReadAt(p []byte, off int64) (int, error) {
	s.reads.Add(1)
	if d := s.delay.Load(); d > 0 {
		time.Sleep(time.Duration(d))
	}
	return s.r.ReadAt(p, off)
}

// TestStreamCloseDuringRefill checks that Close waits for the source call
// the decoder is in, not for the rest of a refill: a voice that ends
// makes the decoder rewind and refill the whole ring (here 16 s of
// 48 kHz, 188 reads of 4096 frames at 2 ms each, about 0.4 s), and
// Close with a 200 ms timeout must still return nil. The device keeps
// rendering meanwhile, so the bank's release is proved by the mixer, not
// by its fallback.
func TestStreamCloseDuringRefill(t *testing.T) {
	f := Format{Rate: 48000, Channels: 2, Encoding: EncodingInt16LE}
	g := &genPCM{f: f, frames: 60 * 48000}
	slow := &slowReader{r: g}
	e, dev := offlineEngine(t, EngineDesc{})
	s := newTestStream(t, e, slow, f, g.frames, StreamDesc{Buffer: 16 * time.Second})
	h, err := e.Play(s.Clip(), PlayDesc{})
	if err != nil {
		t.Fatal(err)
	}
	render(t, dev, 4800)
	slow.delay.Store(int64(2 * time.Millisecond))
	before := slow.reads.Load()
	if err := e.Stop(h); err != nil {
		t.Fatal(err)
	}
	for e.Playing(h) {
		render(t, dev, 1024)
	}
	for deadline := time.Now().Add(5 * time.Second); slow.reads.Load() < before+4; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the decoder did not start its refill within 5 s")
		}
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		buf := make([]byte, 256*4)
		for !stop.Load() {
			dev.Render(buf)
			time.Sleep(time.Millisecond)
		}
	})
	start := time.Now()
	err = s.Close(200 * time.Millisecond)
	took, reads := time.Since(start), slow.reads.Load()-before
	stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatalf("Close during a refill: %v (after %v, %d reads into the refill)", err, took, reads)
	}
	t.Logf("Close returned after %v, %d reads into the refill of 188", took, reads)
}
