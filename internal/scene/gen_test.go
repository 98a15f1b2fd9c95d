package scene

import (
	"bytes"
	"encoding/binary"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/steadyframe/steadyframe/internal/tones"
	"github.com/steadyframe/steadyframe/voices"
	"github.com/steadyframe/steadyframe/voices/wav"
)

// update rewrites the committed sound files from their generators.
var update = flag.Bool("update", false, "rewrite sounds/*.wav from their generators")

// keyFormat is sounds/key.wav's format: a rate and encoding a game's
// sound files commonly have, different from every synthesised effect's.
var keyFormat = voices.Format{Rate: 44100, Channels: 1, Encoding: voices.EncodingInt16LE}

// makeKeyWAV is the generator of sounds/key.wav: a C5 and a G5, each
// with a 3 ms attack and an exponential decay (tones.Synth), mixed at
// equal level into 180 ms of mono 16-bit PCM, written by wav.Append.
func makeKeyWAV() ([]byte, error) {
	var parts [2][]byte
	for i, freq := range []float64{523.25, 783.99} {
		pcm, err := tones.Synth(tones.Tone{Format: keyFormat, Freq: freq, Length: 180 * time.Millisecond, Level: 0.4})
		if err != nil {
			return nil, err
		}
		parts[i] = pcm
	}
	mix := make([]byte, len(parts[0]))
	for o := 0; o+1 < len(mix); o += 2 {
		s := int32(int16(binary.LittleEndian.Uint16(parts[0][o:]))) + int32(int16(binary.LittleEndian.Uint16(parts[1][o:])))
		binary.LittleEndian.PutUint16(mix[o:], uint16(int16(max(math.MinInt16, min(math.MaxInt16, s)))))
	}
	return wav.Append(nil, keyFormat, mix)
}

// TestKeyWAV checks that the committed sounds/key.wav is exactly what its
// generator makes, so the asset cannot drift from the code that documents
// it, and that voices/wav reads it back as the format it was written in.
// With -update it rewrites the file instead.
func TestKeyWAV(t *testing.T) {
	want, err := makeKeyWAV()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("sounds", "key.wav")
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s (%d bytes) differs from its generator's output (%d bytes); run go test -run TestKeyWAV -update", path, len(got), len(want))
	}
	if !*update && !bytes.Equal(keyWAV, got) {
		// With -update the binary embedded the file as it was before.
		t.Fatal("the embedded key.wav is not the file on disk")
	}
	f, pcm, err := wav.Parse(got)
	if err != nil {
		t.Fatal(err)
	}
	if f != keyFormat || len(pcm) != int(0.18*44100)*2 {
		t.Errorf("key.wav parses as %v with %d bytes of PCM, want %v with %d", f, len(pcm), keyFormat, int(0.18*44100)*2)
	}
	if len(got) > 32<<10 {
		t.Errorf("key.wav is %d bytes; keep committed assets small", len(got))
	}
}
