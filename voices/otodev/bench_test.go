package otodev

import (
	"bytes"
	"encoding/binary"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ebitengine/oto/v3"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/voices"
)

// The comparison benchmarks run our engine and plain oto side by side in
// one process, on one oto context whose ALSA device writes to /dev/null
// through the file plugin (unpaced: the device pulls as fast as oto
// feeds it, so these measure throughput and cost, not latency). The
// context is opened on first use; ALSA reads ALSA_CONFIG_PATH then.

var bench struct {
	once sync.Once
	ctx  *oto.Context
	err  error
}

func benchContext(b *testing.B) *oto.Context {
	main := alsaConf(b)
	bench.once.Do(func() {
		dir, err := os.MkdirTemp("", "otodev-bench")
		if err != nil {
			bench.err = err
			return
		}
		conf := filepath.Join(dir, "asound.conf")
		body := `pcm.!default { type file slave.pcm "null" file "/dev/null" format "raw" }` + "\n"
		if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
			bench.err = err
			return
		}
		// With cgo, os.Setenv reaches the C environment ALSA reads.
		os.Setenv("ALSA_CONFIG_PATH", main+":"+conf)
		bench.ctx, bench.err = openContext(voices.DefaultDeviceFormat, DefaultBufferFrames)
		// ALSA has parsed the configuration while opening the device.
		_ = os.RemoveAll(dir)
	})
	if bench.err != nil {
		testenv.SkipOrFail(b, "no oto device for the comparison benchmark: "+bench.err.Error())
	}
	if err := bench.ctx.Resume(); err != nil {
		b.Fatal(err)
	}
	// Stop the unpaced device between benchmarks so it does not eat a
	// core while others run.
	b.Cleanup(func() { _ = bench.ctx.Suspend() })
	return bench.ctx
}

// benchFormats is the mixed load: 32 voices over these formats, three
// quarters of them resampled to 48 kHz.
var benchFormats = []voices.Format{
	{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE},
	{Rate: 22050, Channels: 2, Encoding: voices.EncodingInt16LE},
	{Rate: 48000, Channels: 2, Encoding: voices.EncodingFloat32LE},
	{Rate: 44100, Channels: 2, Encoding: voices.EncodingFloat32LE},
}

func benchPCM(f voices.Format, frames int) []byte {
	b := make([]byte, frames*f.FrameBytes())
	for i := 0; i < frames; i++ {
		s := 0.03 * math.Sin(2*math.Pi*220*float64(i)/float64(f.Rate))
		for c := 0; c < f.Channels; c++ {
			o := b[i*f.FrameBytes()+c*f.Encoding.SampleBytes():]
			if f.Encoding == voices.EncodingInt16LE {
				binary.LittleEndian.PutUint16(o, uint16(int16(s*32767)))
			} else {
				binary.LittleEndian.PutUint32(o, math.Float32bits(float32(s)))
			}
		}
	}
	return b
}

// engine32 returns an engine on dev playing 32 looping voices of the
// mixed formats.
func engine32(b *testing.B, dev voices.Device) *voices.Engine {
	e, err := voices.NewEngine(voices.EngineDesc{Device: dev, QueueSize: 1 << 16, MaxVoices: 1024,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	if err := e.Err(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = e.Close() })
	var clips []voices.Clip
	for _, f := range benchFormats {
		bank, _ := e.NewBank(f.String(), benchPCM(f, f.Rate/2))
		c, _ := bank.Clip(voices.ClipDesc{Format: f})
		clips = append(clips, c)
	}
	for i := 0; i < 32; i++ {
		if _, err := e.Play(clips[i%len(clips)], voices.PlayDesc{Loop: true}); err != nil {
			b.Fatal(err)
		}
	}
	return e
}

// report adds the per-second costs and the real-time factor for blocks
// of 1024 frames delivered in elapsed.
func report(b *testing.B, blocks int, elapsed time.Duration, m0, m1 *runtime.MemStats) {
	s := elapsed.Seconds()
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/s, "allocs/s")
	b.ReportMetric(float64(m1.NumGC-m0.NumGC)/s, "GCs/s")
	audio := voices.DefaultDeviceFormat.Duration(1024 * blocks)
	b.ReportMetric(audio.Seconds()/s, "x-realtime")
}

// BenchmarkOtoMix32 plays 32 voices (mixed formats, resampling on) through
// oto two ways, each op being 1024 frames of all 32 voices taken by the
// unpaced device (so ns/op is the pipeline's throughput, and allocs/s and
// GCs/s what it costs the process):
//   - impl=ours: our engine, mixing, behind one oto.Player;
//   - impl=oto-players: 32 oto.Players mixed by oto itself, each reading its
//     own source already at 48 kHz float32 (oto cannot resample).
//
// The mixer's own CPU cost, as a real-time factor, is voices'
// BenchmarkMix32.
func BenchmarkOtoMix32(b *testing.B) {
	b.Run("impl=ours", func(b *testing.B) {
		benchContext(b)
		e := engine32(b, New(Desc{}))
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		start := time.Now()
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			// One op: the device has taken another 1024 frames.
			want := e.Stats().Blocks + 4
			for e.Stats().Blocks < want {
				time.Sleep(20 * time.Microsecond)
			}
			n++
		}
		elapsed := time.Since(start)
		runtime.ReadMemStats(&m1)
		report(b, n, elapsed, &m0, &m1)
		// Our callback: the time to mix one 256-frame block of 32 voices.
		st := e.Stats()
		b.ReportMetric(float64(st.MixTotal.Nanoseconds())/float64(st.Blocks)/1e3, "µs-per-block")
		b.ReportMetric(float64(st.MixMax.Microseconds()), "µs-max-block")
	})
	b.Run("impl=oto-players", func(b *testing.B) {
		ctx := benchContext(b)
		var frames atomic.Int64
		var players []*oto.Player
		for i := 0; i < 32; i++ {
			f := benchFormats[i%len(benchFormats)]
			// oto needs the device format: the user converts up front.
			pcm := benchPCM(voices.DefaultDeviceFormat, f.Rate/2)
			p := ctx.NewPlayer(&loopReader{pcm: pcm, frames: &frames})
			p.Play()
			players = append(players, p)
		}
		b.Cleanup(func() {
			// oto keeps reading a paused player; it drops one from its mux
			// only when the collector finds the player unreachable.
			for i, p := range players {
				p.Pause()
				players[i] = nil
			}
			runtime.GC()
			runtime.GC()
		})
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		start := time.Now()
		b.ReportAllocs()
		n := 0
		base := frames.Load()
		for b.Loop() {
			// One op: oto has read another 1024 frames from each of the
			// 32 players into its buffers and mixed as much out of them.
			want := base + int64(n+1)*1024*32
			for frames.Load() < want {
				time.Sleep(20 * time.Microsecond)
			}
			n++
		}
		elapsed := time.Since(start)
		runtime.ReadMemStats(&m1)
		report(b, n, elapsed, &m0, &m1)
	})
}

// loopReader plays pcm for ever, counting frames read.
type loopReader struct {
	pcm    []byte
	pos    int
	frames *atomic.Int64
}

func (r *loopReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.pcm[r.pos:])
		r.pos = (r.pos + c) % len(r.pcm)
		n += c
	}
	r.frames.Add(int64(n / 8))
	return n, nil
}

// BenchmarkOtoPlay compares starting a sound: our Play (enqueue a
// command) against the usual oto pattern of one new oto.Player per sound.
func BenchmarkOtoPlay(b *testing.B) {
	f := benchFormats[0]
	pcm := benchPCM(f, 480)
	b.Run("impl=ours", func(b *testing.B) {
		benchContext(b)
		e, err := voices.NewEngine(voices.EngineDesc{Device: New(Desc{}), QueueSize: 1 << 16, MaxVoices: 1024})
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		bank, _ := e.NewBank("blip", pcm)
		c, _ := bank.Clip(voices.ClipDesc{Format: f})
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if _, err := e.Play(c, voices.PlayDesc{}); err != nil {
				b.Fatal(err)
			}
			if i%512 == 511 {
				// Out of the timing: let the device clear the voices.
				b.StopTimer()
				if err := e.StopAll(time.Second); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
		}
	})
	b.Run("impl=oto-NewPlayer", func(b *testing.B) {
		ctx := benchContext(b)
		dev := benchPCM(voices.DefaultDeviceFormat, 480)
		// Let the collector find the dropped players so oto removes them
		// from its mux before the next benchmark.
		b.Cleanup(func() { runtime.GC(); runtime.GC() })
		b.ReportAllocs()
		for b.Loop() {
			p := ctx.NewPlayer(bytes.NewReader(dev))
			p.Play()
		}
	})
}

// BenchmarkOtoStopAll measures StopAll with 32 voices playing through
// oto: the time for the audio goroutine to confirm, across the drain
// barrier, that no voice reads caller memory. On the unpaced device oto
// reads the mixer continuously; on a sound card add the wait for oto's
// next read (at most one player buffer, 10.7 ms by default).
func BenchmarkOtoStopAll(b *testing.B) {
	b.Run("impl=ours", func(b *testing.B) {
		benchContext(b)
		e := engine32(b, New(Desc{}))
		f := benchFormats[0]
		bank, _ := e.NewBank("restart", benchPCM(f, f.Rate/2))
		c, _ := bank.Clip(voices.ClipDesc{Format: f})
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			for i := 0; i < 32; i++ {
				if _, err := e.Play(c, voices.PlayDesc{Loop: true}); err != nil {
					b.Fatal(err)
				}
			}
			b.StartTimer()
			if err := e.StopAll(time.Second); err != nil {
				b.Fatal(err)
			}
		}
		if s := e.Stats(); s.StopAllFallbacks != 0 {
			b.Fatalf("%d StopAlls fell back on a running device", s.StopAllFallbacks)
		}
	})
}
