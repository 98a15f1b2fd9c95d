package voices

import (
	"errors"
	"io"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

// sink pulls a Pull device from a goroutine of its own, as Ebitengine's
// player does, and keeps the left channel of what it read.
type sink struct {
	pull *Pull
	stop chan struct{}
	done chan struct{}
	mu   sync.Mutex
	out  []float32
	err  error
}

func startSink(p *Pull) *sink {
	s := &sink{pull: p, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		buf := make([]byte, 300*8) // not a whole number of blocks
		for {
			select {
			case <-s.stop:
				return
			default:
			}
			n, err := p.Read(buf)
			l, _ := stereo(buf[:n])
			s.mu.Lock()
			s.out = append(s.out, l...)
			s.err = err
			s.mu.Unlock()
			if err != nil {
				return
			}
			time.Sleep(200 * time.Microsecond)
		}
	}()
	return s
}

func (s *sink) frames() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.out)
}

func (s *sink) halt() {
	close(s.stop)
	<-s.done
}

// waitFrames waits for the sink to read n more frames, on frames rather
// than the wall clock, since a loaded machine may run the sink late.
func (s *sink) waitFrames(t *testing.T, n int) int {
	t.Helper()
	want := s.frames() + n
	for deadline := time.Now().Add(30 * time.Second); s.frames() < want; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the sink read only %d of %d frames in 30 s", s.frames(), want)
		}
	}
	return s.frames()
}

// TestPullDevice plays through a Pull device read by a sink goroutine: the
// tone arrives at its frequency and level, StopAll crosses the barrier on
// the sink's goroutine, overwritten memory never reaches the output, a
// stalled sink is handled by StopAll's fallback, a StopAll on the pulling
// goroutine itself returns too, and Close ends the stream with io.EOF.
func TestPullDevice(t *testing.T) {
	p := NewPull(48000)
	buf := make([]byte, 256*8)
	if n, err := p.Read(buf); n != len(buf) || err != nil || peak(func() []float32 { l, _ := stereo(buf); return l }()) != 0 {
		t.Fatalf("Read before the engine started: %d, %v; want silence", n, err)
	}
	e, err := NewEngine(EngineDesc{Device: p})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if name := e.Stats().Device.Name; name != "pull" || e.Err() != nil {
		t.Fatalf("device %q, Err %v", name, e.Err())
	}
	if err := p.Start(DefaultDeviceFormat, nil); !errors.Is(err, ErrDevice) {
		t.Fatalf("second Start: %v, want ErrDevice", err)
	}
	pcm := tone(mono44, 44100, 440, 0.5)
	_, c := clipOf(t, e, "tone", mono44, pcm, ClipDesc{})
	s := startSink(p)
	if _, err := e.Play(c, PlayDesc{Loop: true}); err != nil {
		t.Fatal(err)
	}
	s.waitFrames(t, 9600)
	// The tone is judged up to the StopAll: the fade's band-limited tail
	// rings about -100 dB around zero, crossings frequency would count.
	before := s.frames()
	if err := e.StopAll(time.Second); err != nil {
		t.Fatal(err)
	}
	stoppedAt := s.frames()
	fill(mono44, pcm, 0.9) // reading it would put 0.9×0.707 on the output
	s.waitFrames(t, 4800)
	s.halt()
	if st := e.Stats(); st.StopAllFallbacks != 0 || st.Active != 0 {
		t.Fatalf("StopAll with the sink pulling: fallbacks %d active %d, want the barrier crossed", st.StopAllFallbacks, st.Active)
	}
	var tone []float32
	for _, v := range s.out[:before] {
		if v != 0 {
			tone = append(tone, v)
		}
	}
	if f := frequency(tone, 48000); math.Abs(f-440) > 2 {
		t.Fatalf("the sink heard %.1f Hz, want 440", f)
	}
	if pk, want := peak(tone), 0.5*math.Cos(math.Pi/4); math.Abs(pk-want) > 0.01 {
		t.Fatalf("the sink heard a peak of %.4f, want %.4f", pk, want)
	}
	// The block that faded out, and one in flight, may land after
	// stoppedAt; after them, silence.
	for i, v := range s.out[stoppedAt+600:] {
		if v != 0 {
			t.Fatalf("frame %d after StopAll returned is %v, want silence", i, v)
		}
	}

	// The sink stalls (Ebitengine suspends audio when its window loses
	// focus): StopAll proves the memory free by its fallback, in time.
	if _, err := e.Play(c, PlayDesc{Loop: true}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := e.StopAll(100 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 100*time.Millisecond+slack {
		t.Fatalf("StopAll on a stalled sink took %v", d)
	}
	if st := e.Stats(); st.StopAllFallbacks != 1 || st.Active != 0 || st.Counted != 0 {
		t.Fatalf("StopAll on a stalled sink: fallbacks %d active %d counted %d", st.StopAllFallbacks, st.Active, st.Counted)
	}

	// Pulling moves to this goroutine, which then calls StopAll: no block
	// can begin while it waits, so StopAll takes its fallback, and still
	// returns nil within its timeout.
	h, err := e.Play(c, PlayDesc{Loop: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Read(buf); err != nil || !e.Playing(h) {
		t.Fatalf("pull on a new goroutine: %v, playing %v", err, e.Playing(h))
	}
	start = time.Now()
	if err := e.StopAll(100 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 100*time.Millisecond+slack || e.Playing(h) || e.Stats().StopAllFallbacks != 2 {
		t.Fatalf("StopAll on the pulling goroutine: %v, playing %v, fallbacks %d", d, e.Playing(h), e.Stats().StopAllFallbacks)
	}

	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if n, err := p.Read(buf); n != 0 || err != io.EOF {
		t.Fatalf("Read after Close: %d, %v; want 0, io.EOF", n, err)
	}
}

// pullEngine32 is an engine on a Pull device playing 32 voices of mixed
// formats.
func pullEngine32(t testing.TB) (*Engine, *Pull) {
	p := NewPull(48000)
	e, err := NewEngine(EngineDesc{Device: p, QueueSize: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	var clips []Clip
	for _, f := range allFormats() {
		_, c := clipOf(t, e, f.String(), f, tone(f, f.Rate/2, 220, 0.05), ClipDesc{})
		clips = append(clips, c)
	}
	for i := 0; i < 32; i++ {
		if _, err := e.Play(clips[i%len(clips)], PlayDesc{Loop: true}); err != nil {
			t.Fatal(err)
		}
	}
	return e, p
}

// TestPullReadAllocs proves the pull path allocates nothing once warm.
func TestPullReadAllocs(t *testing.T) {
	_, p := pullEngine32(t)
	buf := make([]byte, 1024*8)
	testenv.NoAllocs(t, "Pull.Read with 32 voices", 200, func() { _, _ = p.Read(buf) })
}

// BenchmarkPullRead measures what a sink pays to pull 1024 frames of 32
// voices through a Pull device, against reading the mixer directly as the
// Offline device does: the difference is Pull's lock and the engine's
// detachable source.
func BenchmarkPullRead(b *testing.B) {
	e, p := pullEngine32(b)
	buf := make([]byte, 1024*8)
	b.Run("impl=ours", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = p.Read(buf)
		}
	})
	b.Run("impl=mixer-direct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = e.mix.Read(buf)
		}
	})
}

// TestPullRate checks that a Pull's rate becomes the engine's, and that
// an engine told another rate is refused rather than playing pitched.
func TestPullRate(t *testing.T) {
	e, err := NewEngine(EngineDesc{Device: NewPull(44100)})
	if err != nil {
		t.Fatal(err)
	}
	if f := e.Format(); f != (Format{Rate: 44100, Channels: 2, Encoding: EncodingFloat32LE}) {
		t.Errorf("engine on a 44.1 kHz Pull renders %v", f)
	}
	_ = e.Close()
	if _, err := NewEngine(EngineDesc{Device: NewPull(44100), Format: DefaultDeviceFormat}); !errors.Is(err, ErrInvalid) {
		t.Errorf("48 kHz engine on a 44.1 kHz Pull: %v, want ErrInvalid", err)
	}
	if err := NewPull(44100).Start(DefaultDeviceFormat, nil); !errors.Is(err, ErrDevice) {
		t.Errorf("Start at another rate: %v, want ErrDevice", err)
	}
}
