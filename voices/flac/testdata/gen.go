//go:build ignore

// gen rebuilds the FLAC test files: 0.1 s sines written as raw PCM and
// encoded by the reference encoder (Debian: apt-get install flac). The
// tests recompute the same samples with tone() and compare within 1 LSB.
//
//	cd voices/flac/testdata && go run gen.go
package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
)

type file struct {
	name     string
	rate     int
	bps      int
	channels []struct{ hz, amp float64 }
	seconds  float64
	blocks   int // block size: 0 for flac's default
}

func main() {
	tmp, err := os.MkdirTemp("", "flacgen")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(tmp)
	type ch = struct{ hz, amp float64 }
	for _, f := range []file{
		{"tone-s16-stereo-22050.flac", 22050, 16, []ch{{1000, 0.5}, {500, 0.25}}, 0.1, 0},
		// One block of 4410 samples: the test rewrites its only frame header.
		{"tone-s24-mono-44100.flac", 44100, 24, []ch{{1000, 0.5}}, 0.1, 4608},
		{"tone-s8-mono-22050.flac", 22050, 8, []ch{{1000, 0.5}}, 0.1, 0},
		{"tone-s32-mono-48000.flac", 48000, 32, []ch{{1000, 0.5}}, 0.02, 0},
		{"three-channels-22050.flac", 22050, 16, []ch{{1000, 0.5}, {500, 0.5}, {250, 0.5}}, 0.02, 0},
	} {
		n := int(f.seconds * float64(f.rate))
		width := (f.bps + 7) / 8
		raw := make([]byte, 0, n*len(f.channels)*width)
		for i := range n {
			for _, c := range f.channels {
				v := tone(c.hz, c.amp, f.rate, f.bps, i)
				for b := range width {
					raw = append(raw, byte(v>>(8*b)))
				}
			}
		}
		in := filepath.Join(tmp, "in.raw")
		if err := os.WriteFile(in, raw, 0o644); err != nil {
			panic(err)
		}
		args := []string{"--silent", "--force", "--no-padding", "--no-seektable",
			"--force-raw-format", "--endian=little", "--sign=signed",
			fmt.Sprintf("--channels=%d", len(f.channels)), fmt.Sprintf("--bps=%d", f.bps),
			fmt.Sprintf("--sample-rate=%d", f.rate), "-o", f.name}
		if f.blocks != 0 {
			args = append(args, fmt.Sprintf("--blocksize=%d", f.blocks))
		}
		cmd := exec.Command("flac", append(args, in)...)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", f.name, err)
			os.Exit(1)
		}
	}
}

// tone is sample i of a sine of hz at amp of full scale, as a bps-bit
// integer. decode_test.go has the same function.
func tone(hz, amp float64, rate, bps, i int) int32 {
	full := math.Exp2(float64(bps-1)) - 1
	return int32(math.Round(amp * full * math.Sin(2*math.Pi*hz*float64(i)/float64(rate))))
}
