package voices

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
	"time"
)

// FuzzEngine drives an engine with a byte-coded command stream and checks
// it against a model after every step: a handle is live in the engine only
// if the model says it may be; stale handles are refused with
// ErrStaleHandle; the caps hold; the output is finite and inside (-1, 1);
// bank reader counts match the voices; StopAll leaves nothing.
func FuzzEngine(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 7, 1, 7, 2, 8})
	f.Add([]byte{9, 0, 16, 32, 48, 64, 7, 7, 7, 5, 5, 5})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 512 {
			ops = ops[:512]
		}
		const maxVoices = 5
		policy := PolicyRefuse
		if len(ops) > 0 && ops[0]&1 == 1 {
			policy = PolicySteal
		}
		dev := NewOffline(OfflineDesc{})
		e, err := NewEngine(EngineDesc{Device: dev, MaxVoices: maxVoices, Policy: policy, QueueSize: 16,
			FormatCaps: map[Format]int{mono44: 2}})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		banks := make([]*Bank, 3)
		clips := make([]Clip, 3)
		for i, fm := range []Format{mono44, st48f, {Rate: 22050, Channels: 2, Encoding: EncodingInt16LE}} {
			banks[i], err = e.NewBank(fm.String(), tone(fm, 2000, 300*float64(i+1), 0.9))
			if err != nil {
				t.Fatal(err)
			}
			clips[i], _ = banks[i].Clip(ClipDesc{Format: fm, LoopStart: 100, LoopEnd: 1500})
		}
		// The model: every handle ever returned and whether it may still play.
		type entry struct {
			h     Handle
			ended bool // stopped by StopAll: must never be live again
		}
		var hs []entry
		buf := make([]byte, 300*8) // not a multiple of the block: exercises partial reads
		for i := 0; i < len(ops); i++ {
			op, arg := ops[i]%10, int(ops[i]/10)
			switch op {
			case 0, 1, 2:
				h, err := e.Play(clips[op], PlayDesc{Loop: arg%2 == 0, Priority: int16(arg % 4), Protected: arg%5 == 0, Volume: float32(arg%8) / 2})
				switch {
				case err == nil:
					if h == 0 {
						t.Fatal("Play returned the zero handle")
					}
					hs = append(hs, entry{h: h})
				case errors.Is(err, ErrNoVoice), errors.Is(err, ErrQueueFull):
					// PolicySteal refuses too once every slot, the fade
					// reserve included, is taken before the mixer runs.
				default:
					t.Fatalf("Play: %v", err)
				}
			case 3, 4, 5:
				if len(hs) == 0 {
					continue
				}
				en := hs[arg%len(hs)]
				var err error
				switch op {
				case 3:
					err = e.Stop(en.h)
				case 4:
					err = e.SetVolume(en.h, float32(arg%5)/2)
				default:
					err = e.SetPan(en.h, float32(arg%3)-1)
				}
				if err != nil && !errors.Is(err, ErrStaleHandle) && !errors.Is(err, ErrQueueFull) {
					t.Fatalf("op %d: %v", op, err)
				}
				if en.ended && !errors.Is(err, ErrStaleHandle) {
					t.Fatalf("op %d on %v after StopAll: %v, want ErrStaleHandle", op, en.h, err)
				}
			case 6, 7:
				n, err := dev.Render(buf[:(arg%6+1)*8*50])
				if err != nil || n != (arg%6+1)*8*50 {
					t.Fatalf("Render: %d, %v", n, err)
				}
				for o := 0; o < n; o += 4 {
					v := math.Float32frombits(binary.LittleEndian.Uint32(buf[o:]))
					if !(v >= -1 && v <= 1) {
						t.Fatalf("output sample %v outside [-1, 1]", v)
					}
				}
			case 8:
				if err := e.StopAll(5 * time.Millisecond); err != nil {
					t.Fatal(err)
				}
				for j := range hs {
					hs[j].ended = true
				}
				if s := e.Stats(); s.Active != 0 || s.Counted != 0 {
					t.Fatalf("after StopAll: active %d counted %d", s.Active, s.Counted)
				}
			case 9:
				_ = e.SetMasterGain(float32(arg % 5))
			}
			s := e.Stats()
			if s.Counted > maxVoices || s.Formats[mono44.index()].Active > 2 {
				t.Fatalf("caps broken: counted %d, mono44 %d", s.Counted, s.Formats[mono44.index()].Active)
			}
			readers := 0
			for _, b := range banks {
				readers += b.Readers()
			}
			if readers != s.Active {
				t.Fatalf("bank readers %d != active voices %d", readers, s.Active)
			}
			for _, en := range hs {
				if en.ended && e.Playing(en.h) {
					t.Fatalf("%v live after StopAll", en.h)
				}
			}
		}
	})
}

// FuzzClip feeds arbitrary PCM and clip descriptions: each is either
// refused with ErrPCM or ErrFormat, or plays to a finite output inside
// (-1, 1), however hostile the samples (NaN, Inf, full scale).
func FuzzClip(f *testing.F) {
	f.Add([]byte{1, 2, 3}, 44100, 1, 1, 0, 0, 0, 0)
	f.Add([]byte{0, 0, 0xc0, 0x7f, 0, 0, 0x80, 0x7f}, 48000, 1, 2, 0, 8, 0, 0)
	f.Add([]byte{0xff, 0x7f, 0, 0x80, 0xff, 0x7f, 0, 0x80}, 22050, 2, 1, 0, 0, 1, 2)
	f.Fuzz(func(t *testing.T, pcm []byte, rate, ch, enc, off, length, ls, le int) {
		dev := NewOffline(OfflineDesc{})
		e, err := NewEngine(EngineDesc{Device: dev})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		b, err := e.NewBank("fuzz", pcm)
		if err != nil {
			if !errors.Is(err, ErrPCM) {
				t.Fatalf("NewBank: %v", err)
			}
			return
		}
		c, err := b.Clip(ClipDesc{Format: Format{Rate: rate, Channels: ch, Encoding: Encoding(enc)}, Offset: off, Length: length, LoopStart: ls, LoopEnd: le})
		if err != nil {
			if !errors.Is(err, ErrPCM) && !errors.Is(err, ErrFormat) {
				t.Fatalf("Clip: %v", err)
			}
			return
		}
		if _, err := e.Play(c, PlayDesc{Loop: ls != 0, Volume: 4}); err != nil {
			t.Fatalf("Play of a valid clip: %v", err)
		}
		buf := make([]byte, 1024*8)
		_, _ = dev.Render(buf)
		for o := 0; o < len(buf); o += 4 {
			v := math.Float32frombits(binary.LittleEndian.Uint32(buf[o:]))
			if !(v >= -1 && v <= 1) {
				t.Fatalf("output sample %v outside [-1, 1]", v)
			}
		}
	})
}
