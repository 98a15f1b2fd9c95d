package voices

import (
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

// benchFormats are the 12 source formats of the shared benchmark load:
// 22050, 44100 and 48000 Hz, so that two thirds of the voices resample,
// as they did before more rates were pooled.
func benchFormats() []Format {
	var fs []Format
	for _, f := range allFormats() {
		if f.Rate == 22050 || f.Rate == 44100 || f.Rate == 48000 {
			fs = append(fs, f)
		}
	}
	return fs
}

// benchEngine builds the shared benchmark load: an engine on a manual
// offline device with the given number of looping voices of the 12
// benchFormats (two thirds resampled) and resampler rs. otodev's
// benchmarks build a like load through the public API, over 4 of these
// formats.
//
// The mixer renders blocks of block frames (0: the default) and, with
// perVoice, resamples each voice on its own. A pitch other than 0 plays
// every voice pitched (pitch.go), at pitches spread up to 9% above it:
// each voice its own pitch, or with layers one of 7 pitches.
func benchEngine(b *testing.B, voices int, rs Resampler, block int, perVoice bool, pitch float32, layers bool) (*Engine, *Offline) {
	e, dev := offlineEngine(b, EngineDesc{QueueSize: 1 << 16, Resampler: rs, BlockFrames: block})
	if perVoice {
		e.mix.perVoice()
	}
	var clips []Clip
	for _, f := range benchFormats() {
		_, c := clipOf(b, e, f.String(), f, tone(f, f.Rate/2, 220, 0.05), ClipDesc{})
		clips = append(clips, c)
	}
	for i := 0; i < voices; i++ {
		d := PlayDesc{Loop: true, Pan: float32(i%5)/2 - 1}
		switch {
		case pitch != 0 && layers:
			d.Pitch = pitch * (1 + float32(i%7)/64) // 7 pitches, up to 9% sharp
		case pitch != 0:
			d.Pitch = pitch * (1 + float32(i)*6/64/31) // up to 9% sharp: every voice its own step
		}
		if _, err := e.Play(clips[i%len(clips)], d); err != nil {
			b.Fatal(err)
		}
	}
	return e, dev
}

// BenchmarkPlay measures the game side of Play: validation, reserving a
// voice and enqueueing the command. Every 512 plays, out of the timing,
// a StopAll clears the voices so the pool stays warm and never runs out.
//
// impl=ours is Play as it is: it stamps the command with the start
// time the mixer publishes each block. impl=ours+clock-read adds the one thing
// Play did before, reading the engine clock (time.Since) for the
// Play-to-mix statistic, side by side in the same run. impl=ours+issue18-
// fields sets every PlayDesc field issue 18 added (a bus with a voice cap,
// a fade-in, a start time, an offset); impl=ours+clip-limits plays a clip
// with MaxInstances and a Cooldown, each Play a frame later (At).
func BenchmarkPlay(b *testing.B) {
	for _, impl := range []string{"ours", "ours+clock-read", "ours+issue18-fields", "ours+clip-limits"} {
		b.Run("impl="+impl, func(b *testing.B) {
			e, _ := offlineEngine(b, EngineDesc{QueueSize: 1 << 16, MaxVoices: 1024,
				Buses: []BusDesc{{Name: "world"}, {Name: "sfx", Parent: "world", MaxVoices: 1024}}})
			var cd ClipDesc
			var d PlayDesc
			switch impl {
			case "ours+issue18-fields":
				// Every new PlayDesc field, on a bus with a voice cap.
				d = PlayDesc{Bus: 2, FadeIn: 5 * time.Millisecond, At: 1 << 40, Offset: 10}
			case "ours+clip-limits":
				// A clip with an instance cap and a cooldown of one frame,
				// which each Play passes by starting a frame after the last
				// (the cooldown counts start frames on the engine clock).
				cd = ClipDesc{MaxInstances: 1024, Cooldown: time.Nanosecond}
			}
			limits := impl == "ours+clip-limits"
			_, c := clipOf(b, e, "t", mono44, tone(mono44, 441, 440, 0.5), cd)
			clockRead := impl == "ours+clock-read"
			var sink int64
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if clockRead {
					sink += e.now()
				}
				if limits {
					d.At = 1<<40 + int64(i)
				}
				if _, err := e.Play(c, d); err != nil {
					b.Fatal(err)
				}
				if i%512 == 511 {
					b.StopTimer()
					// The manual device is stalled: StopAll takes its fallback.
					if err := e.StopAll(time.Millisecond); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
			}
			if sink == 42 {
				b.Log(sink) // keeps the clock read from being optimised away
			}
		})
	}
}

// BenchmarkMix32 measures the mixer rendering 1024-frame blocks of 32
// voices of 12 formats, two thirds resampled, and reports the real-time
// factor (audio time rendered per unit of CPU time). Its variants run
// side by side, interleaved under -count: the scalar and the vector
// kernels (vector-* equals scalar-* where the CPU has no vector kernels
// or the build has the steadyframe_scalar tag), each with the linear and
// the band-limited resampler. scalar-linear is the mixer as it was before
// the sinc and the vector kernels. vector-sinc-pervoice runs every
// resampled voice through its own filter, as before rate buses
// (ratebus.go). The -block64 variants render the same 1024 frames per op
// in 64-frame blocks, so their figures per op compare per frame with the
// 1024-frame ones: the fixed cost of a block. vector-sinc-pitched plays
// every voice pitched (at 1 to 1.09), each at its own pitch and so
// through its own dsp.Interp filter (Kernels.FilterSteps).
// vector-sinc-pitched-layers plays them at 7 pitches, all started in one
// block, as a sound's layers are: voices of one rate and one pitch are in
// step and share a filter (pitchshare.go), 20 filters instead of 32.
func BenchmarkMix32(b *testing.B) {
	for _, c := range []struct {
		name     string
		ks       *dsp.Kernels
		rs       Resampler
		block    int
		perVoice bool
		pitch    float32
		layers   bool
	}{
		{"impl=scalar-linear", dsp.ScalarKernels(), ResamplerLinear, 1024, false, 0, false},
		{"impl=vector-linear", dsp.BestKernels(), ResamplerLinear, 1024, false, 0, false},
		{"impl=scalar-sinc", dsp.ScalarKernels(), ResamplerSinc, 1024, false, 0, false},
		{"impl=vector-sinc", dsp.BestKernels(), ResamplerSinc, 1024, false, 0, false},
		{"impl=vector-sinc-pervoice", dsp.BestKernels(), ResamplerSinc, 1024, true, 0, false},
		{"impl=vector-linear-block64", dsp.BestKernels(), ResamplerLinear, 64, false, 0, false},
		{"impl=vector-sinc-block64", dsp.BestKernels(), ResamplerSinc, 64, false, 0, false},
		{"impl=vector-sinc-pitched", dsp.BestKernels(), ResamplerSinc, 1024, false, 1, false},
		{"impl=vector-sinc-pitched-layers", dsp.BestKernels(), ResamplerSinc, 1024, false, 1, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			e, _ := benchEngine(b, 32, c.rs, c.block, c.perVoice, c.pitch, c.layers)
			buf := make([]byte, 1024*8)
			_, _ = e.mix.Read(buf) // start the voices before switching kernels
			e.mix.setKernels(c.ks)
			b.ReportAllocs()
			cpu0 := cpuTime()
			n := 0
			for b.Loop() {
				_, _ = e.mix.Read(buf)
				n++
			}
			cpu := cpuTime() - cpu0
			if s := e.Stats(); s.Active != 32 {
				b.Fatalf("%d voices active", s.Active)
			}
			// Measured on the process's CPU time, not the wall clock, so a
			// loaded machine does not make the mixer look slower than it is.
			audio := DefaultDeviceFormat.Duration(1024 * n)
			b.ReportMetric(audio.Seconds()/cpu.Seconds(), "x-realtime")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
		})
	}
}
