package dsp_test

import (
	"fmt"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

// TestKernelsAllocs holds every kernel of every set this CPU runs to zero
// allocations: unity, linear, sinc (grouped and per-output tables) and
// the pitched converter and filter, mono and stereo. An assembly kernel handed a pointer through a
// function value would move what it points at to the heap.
func TestKernelsAllocs(t *testing.T) {
	planes := dsp.NewPlanes()
	out := make([]dsp.Frame, 1000)
	tables := []*dsp.SincTable{dsp.TableFor(44100, 48000), dsp.TableFor(96000, 48000)}
	pt := dsp.PitchBankUpTo(dsp.FracOne).For(dsp.FracOne)
	l, r := make([]float32, len(out)+pt.Taps()), make([]float32, len(out)+pt.Taps())
	steps := make([]uint64, len(out))
	for i := range steps {
		steps[i] = dsp.FracOne
	}
	for _, ks := range append([]*dsp.Kernels{dsp.ScalarKernels()}, dsp.VectorKernels()...) {
		for k := dsp.KindS16Mono; k <= dsp.KindF32Stereo; k++ {
			src := make([]byte, 4000*k.FrameBytes())
			testenv.NoAllocs(t, ks.Name()+" "+k.String()+" kernels", 20, func() {
				ks.Mix(k, out, src[:len(out)*k.FrameBytes()], 0.5, 0.5)
				ks.Linear(k, out, src, 1<<31, 3<<30, 0.5, 0.5)
				for _, tb := range tables {
					ks.Sinc(k, out, src, tb, 3%tb.Phases(), 0.5, 0.5, planes)
				}
				ks.Split(k, l, r, src[:len(l)*k.FrameBytes()])
				ks.FilterSteps(pt, out, l, r, k == dsp.KindS16Mono || k == dsp.KindF32Mono, 1<<31, steps, 0.5, 0.5)
			})
		}
	}
}

// BenchmarkFilter runs the sinc filter alone, 1024 outputs of the
// 44.1 kHz to 48 kHz table (the group layout) from converted planes,
// with the scalar kernels and each vector set this CPU runs. It reports
// ns per output frame. scripts/kernel-insns.sh counts its instructions
// per output frame on arm64 under qemu-aarch64, where it cannot be
// timed.
func BenchmarkFilter(b *testing.B) {
	tb := dsp.TableFor(44100, 48000)
	planes := dsp.NewPlanes()
	l, r := planes.Window(dsp.PlaneFrames)
	for i := range l {
		l[i], r[i] = float32(i%7)/7, float32(i%5)/5
	}
	out := make([]dsp.Frame, 1024)
	for _, ks := range append([]*dsp.Kernels{dsp.ScalarKernels()}, dsp.VectorKernels()...) {
		for _, stereo := range []bool{false, true} {
			name := ks.Name() + "/mono"
			if stereo {
				name = ks.Name() + "/stereo"
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					ks.Filter(stereo, out, l, r, tb, 0, 0.5, 0.5)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(out)), "ns/frame")
			})
		}
	}
}

// BenchmarkFilterSteps runs the pitched filter alone: 1024 outputs at a
// step of 1.05 (the 60-tap filter of ratio 1.25) from planes, with the
// scalar kernels and each vector set this CPU runs. It reports ns per
// output frame.
func BenchmarkFilterSteps(b *testing.B) {
	// The two filters it uses (ratios 1 and 1.25): less set-up under qemu
	// (kernel-insns.sh).
	bank := dsp.PitchBankUpTo(dsp.FracOne + dsp.FracOne/4)
	out := make([]dsp.Frame, 1024)
	steps := make([]uint64, len(out))
	for _, ratio := range []float64{0.5, 1, 1.05} {
		step := uint64(ratio * dsp.FracOne)
		for i := range steps {
			steps[i] = step
		}
		ft := bank.For(step)
		l, r := make([]float32, 2048), make([]float32, 2048)
		for i := range l {
			l[i], r[i] = float32(i%7)/7, float32(i%5)/5
		}
		for _, ks := range append([]*dsp.Kernels{dsp.ScalarKernels()}, dsp.VectorKernels()...) {
			for _, mono := range []bool{true, false} {
				name := fmt.Sprintf("%s/taps=%d/stereo", ks.Name(), ft.Taps())
				if mono {
					name = fmt.Sprintf("%s/taps=%d/mono", ks.Name(), ft.Taps())
				}
				b.Run(name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						ks.FilterSteps(ft, out, l, r, mono, 1<<31, steps, 0.5, 0.5)
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(out)), "ns/frame")
				})
			}
		}
	}
}
