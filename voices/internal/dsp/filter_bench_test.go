package dsp_test

import (
	"testing"

	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

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
