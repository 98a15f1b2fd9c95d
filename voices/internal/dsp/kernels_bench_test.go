package dsp_test

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/voices/internal/dsp"
	"github.com/steadyframe/steadyframe/voices/internal/dsp/dsptest"
)

// benchKinds runs f as a subtest per kernel set this CPU runs (the
// scalar one first) and source kind, named like "neon/s16-stereo", with
// 1024 output frames and a source of src frames of quiet random PCM
// (floats within [-1, 1], so the scalar clamp takes its quick path).
// Each reports ns per output frame. scripts/kernel-insns.sh counts their
// instructions per output frame on arm64 under qemu-aarch64, where they
// cannot be timed.
func benchKinds(b *testing.B, src int, f func(b *testing.B, ks *dsp.Kernels, k dsp.Kind, out []dsp.Frame, pcm []byte)) {
	r := rand.New(rand.NewPCG(41, 42))
	out := make([]dsp.Frame, 1024)
	for _, ks := range append([]*dsp.Kernels{dsp.ScalarKernels()}, dsp.VectorKernels()...) {
		for k := dsp.KindS16Mono; k <= dsp.KindF32Stereo; k++ {
			pcm := dsptest.Input(r, k, src)
			if k == dsp.KindF32Mono || k == dsp.KindF32Stereo {
				for i := 0; i < len(pcm); i += 4 {
					binary.LittleEndian.PutUint32(pcm[i:], math.Float32bits(r.Float32()*2-1))
				}
			}
			b.Run(ks.Name()+"/"+strings.ReplaceAll(k.String(), " ", "-"), func(b *testing.B) {
				b.ReportAllocs()
				f(b, ks, k, out, pcm)
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(out)), "ns/frame")
			})
		}
	}
}

// BenchmarkUnity runs the unity-rate mixers alone: 1024 frames.
func BenchmarkUnity(b *testing.B) {
	benchKinds(b, 1024, func(b *testing.B, ks *dsp.Kernels, k dsp.Kind, out []dsp.Frame, pcm []byte) {
		for b.Loop() {
			ks.Mix(k, out, pcm, 0.5, 0.25)
		}
	})
}

// BenchmarkLinear runs the linear resamplers alone: 1024 outputs of a
// 44.1 kHz source on a 48 kHz bus.
func BenchmarkLinear(b *testing.B) {
	step := uint64(44100) << 32 / 48000
	benchKinds(b, 1024, func(b *testing.B, ks *dsp.Kernels, k dsp.Kind, out []dsp.Frame, pcm []byte) {
		for b.Loop() {
			ks.Linear(k, out, pcm, 1<<31, step, 0.5, 0.25)
		}
	})
}

// BenchmarkSplit runs the converters alone: 1024 frames into planes.
func BenchmarkSplit(b *testing.B) {
	l, r := make([]float32, 1024), make([]float32, 1024)
	benchKinds(b, 1024, func(b *testing.B, ks *dsp.Kernels, k dsp.Kind, out []dsp.Frame, pcm []byte) {
		for b.Loop() {
			ks.Split(k, l, r, pcm)
		}
	})
}
