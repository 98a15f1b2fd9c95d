package voices

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/steadyframe/steadyframe/voices/internal/dsp"
)

var updateGolden = flag.Bool("golden.update", false, "rewrite testdata/render.golden from this build's render")

// goldenFile holds the SHA-256 of each golden render: one line per
// resampler × device format, "name hash". Every build must reproduce it
// bit for bit: amd64 with GOAMD64=v1 and v3, with the steadyframe_scalar
// tag, and arm64 (scripts/ci-kernels.sh runs them all).
const goldenFile = "testdata/render.golden"

// goldenDevices are the device formats of the golden renders: the
// default (the bus copied out), 16-bit stereo at 44.1 kHz (every source
// rate resampled, s16 encoding) and 16-bit mono (the channels' mean).
var goldenDevices = []Format{
	DefaultDeviceFormat,
	{Rate: 44100, Channels: 2, Encoding: EncodingInt16LE},
	{Rate: 48000, Channels: 1, Encoding: EncodingInt16LE},
}

// goldenPCM returns frames frames of format f: noise of amplitude 0.25
// over a slow triangle, computed with no floating-point function or
// fusable multiply-add that could round differently on another CPU, and for float32 sources a few
// hostile samples (NaN, infinities, overs) that the mix must read as the
// clamp reads them.
func goldenPCM(r *rand.Rand, f Format, frames int) []byte {
	b := make([]byte, frames*f.FrameBytes())
	special := []uint32{0x7fc00000, 0x7f800000, 0xff800000, 0x40000000, 0xc0400000, 0x00000001}
	for i := range frames * f.Channels {
		tri := float64(i%400) / 200
		if tri > 1 {
			tri = 2 - tri
		}
		// Divisions and sums only: no multiply-add for Go to fuse.
		s := float64(int32(r.Uint32()>>20)-2048)/8192 + (tri-0.5)/2
		o := i * f.Encoding.SampleBytes()
		if f.Encoding == EncodingInt16LE {
			binary.LittleEndian.PutUint16(b[o:], uint16(int16(math.Round(s*32767))))
			continue
		}
		u := math.Float32bits(float32(s))
		if r.IntN(500) == 0 {
			u = special[r.IntN(len(special))]
		}
		binary.LittleEndian.PutUint32(b[o:], u)
	}
	return b
}

// goldenRender renders the fixed command sequence with resampler rs onto
// device format dev, with the kernels ks, and returns the device bytes:
// every one of the 36 source formats playing (looped and one-shot, every
// pan and several volumes), then volume and pan ramps, stops (fades),
// format gains, and a master gain that drives the limiter. With pitched,
// every voice plays at a pitch of its own (0.25 to 4) and block 6 sets
// new ones, ramped across it.
func goldenRender(t *testing.T, rs Resampler, dev Format, ks *dsp.Kernels, pitched bool) []byte {
	const block = 256
	e, off := offlineEngine(t, EngineDesc{Format: dev, Resampler: rs, MaxVoices: 64, BlockFrames: block})
	e.mix.setKernels(ks)
	r := rand.New(rand.NewPCG(17, 6))
	var hs []Handle
	for i, f := range allFormats() {
		frames := f.Rate/8 + 37*i // a different length for each
		_, c := clipOf(t, e, f.String(), f, goldenPCM(r, f, frames), ClipDesc{LoopStart: frames / 3})
		d := PlayDesc{Volume: float32(1+i%4) / 4, Pan: float32(i%9-4) / 4, Loop: i%3 != 0}
		if pitched {
			d.Pitch = float32(1+i%16) / 4
		}
		h, err := e.Play(c, d)
		if err != nil {
			t.Fatalf("Play %v: %v", f, err)
		}
		hs = append(hs, h)
	}
	var out []byte
	buf := make([]byte, block*dev.FrameBytes())
	for b := range 64 {
		switch b {
		case 6:
			for i, h := range hs {
				if pitched {
					_ = e.SetPitch(h, float32(16-i%16)/4)
				}
			}
		case 4:
			for i, h := range hs {
				_ = e.SetVolume(h, float32(i%5)/3) // a stale handle is moot
				_ = e.SetPan(h, float32(4-i%9)/4)
			}
		case 9:
			for i, h := range hs {
				if i%4 == 1 {
					_ = e.Stop(h)
				}
			}
		case 12:
			if err := e.SetMasterGain(2.5); err != nil {
				t.Fatal(err)
			}
		case 20:
			for i, f := range allFormats() {
				if i%5 == 0 {
					if err := e.SetFormatGain(f, 0.5); err != nil {
						t.Fatal(err)
					}
				}
			}
		case 30:
			if err := e.SetMasterGain(0.25); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := off.Render(buf); err != nil {
			t.Fatal(err)
		}
		out = append(out, buf...)
	}
	return out
}

// TestRenderGolden renders the same commands with each resampler onto
// each golden device format, with the scalar kernels and every vector
// set this CPU runs, and compares each render's SHA-256 with the one
// checked in (goldenFile): the mix must not depend on the CPU, the
// kernels or the build. -golden.update rewrites the file.
func TestRenderGolden(t *testing.T) {
	sets := append([]*dsp.Kernels{dsp.ScalarKernels()}, dsp.VectorKernels()...)
	got := map[string]string{}
	var names []string
	for _, m := range []struct {
		name    string
		rs      Resampler
		pitched bool
	}{{"sinc", ResamplerSinc, false}, {"linear", ResamplerLinear, false}, {"pitched", ResamplerSinc, true}} {
		for _, dev := range goldenDevices {
			name := m.name + "/" + dev.String()
			names = append(names, name)
			for _, ks := range sets {
				sum := sha256.Sum256(goldenRender(t, m.rs, dev, ks, m.pitched))
				h := hex.EncodeToString(sum[:])
				if prev, ok := got[name]; ok && prev != h {
					t.Errorf("%s: the %s kernels render %s, the scalar ones %s", name, ks.Name(), h, prev)
				}
				got[name] = h
			}
		}
	}
	if *updateGolden && !t.Failed() {
		var sb strings.Builder
		sb.WriteString("# SHA-256 of TestRenderGolden's renders; regenerate with go test -run TestRenderGolden -golden.update\n")
		for _, n := range names {
			fmt.Fprintf(&sb, "%s %s\n", n, got[n])
		}
		if err := os.WriteFile(goldenFile, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := readGolden(t)
	for _, n := range names {
		if want[n] == "" {
			t.Errorf("%s: no hash in %s", n, goldenFile)
		} else if got[n] != want[n] {
			t.Errorf("%s: render %s, %s holds %s (kernels %v)", n, got[n], goldenFile, want[n], setNames(sets))
		}
	}
	if len(want) != len(names) {
		t.Errorf("%s holds %d renders, the test makes %d", goldenFile, len(want), len(names))
	}
}

func setNames(sets []*dsp.Kernels) []string {
	var s []string
	for _, ks := range sets {
		s = append(s, ks.Name())
	}
	return slices.Clip(s)
}

// readGolden reads goldenFile's hashes by render name.
func readGolden(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, h, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("%s: bad line %q", goldenFile, line)
		}
		m[name] = h
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}
