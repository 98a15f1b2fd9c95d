package wav

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// refusal is a file Parse must refuse, the sentinel it must wrap, and a
// word the message must hold to say what was wrong.
type refusal struct {
	name string
	b    []byte
	want error
	says string
}

// withRIFFSize returns b with its RIFF size field set to n.
func withRIFFSize(b []byte, n uint32) []byte {
	binary.LittleEndian.PutUint32(b[4:], n)
	return b
}

// withChunkSize returns b with the size of the chunk whose header starts
// at off set to n, leaving the RIFF size alone.
func withChunkSize(b []byte, off int, n uint32) []byte {
	binary.LittleEndian.PutUint32(b[off+4:], n)
	return b
}

func refusals() []refusal {
	data := chunk{"data", ramp(8)}
	ok := func() []byte { return riff(fmtChunk(pcm16(2, 44100)), data) }
	with := func(d fmtDesc) []byte { return riff(fmtChunk(d), data) }
	set := func(d fmtDesc, f func(*fmtDesc)) fmtDesc { f(&d); return d }
	return []refusal{
		{"empty", nil, ErrNotWAV, "empty file"},
		{"short text", []byte("ab"), ErrNotWAV, `"ab"`},
		{"text", []byte("hello, world"), ErrNotWAV, `"hell"`},
		{"AVI", append([]byte("RIFF\x04\x00\x00\x00AVI "), make([]byte, 8)...), ErrNotWAV, "AVI"},
		{"RIFX", append([]byte("RIFX"), ok()[4:]...), ErrUnsupported, "RIFX"},
		{"RF64", append([]byte("RF64"), ok()[4:]...), ErrUnsupported, "RF64"},
		{"RI", []byte("RI"), ErrTruncated, "2 bytes"},
		{"RIFF only", []byte("RIFF\x24\x00"), ErrTruncated, "6 bytes"},
		{"RIFF size past the end", withRIFFSize(ok(), 1000), ErrTruncated, "RIFF declares 1000"},
		{"RIFF size 4 GiB", withRIFFSize(ok(), 0xFFFFFFFF), ErrTruncated, "4294967295"},
		{"RIFF size too small", withRIFFSize(ok(), 3), ErrMalformed, "RIFF size 3"},
		{"RIFF size cuts data", withRIFFSize(ok(), uint32(len(ok())-8-2)), ErrTruncated, `chunk "data"`},
		{"file cut inside data", ok()[:len(ok())-2], ErrTruncated, "RIFF declares"},
		{"chunk size past the end", withChunkSize(ok(), 12, 1<<20), ErrTruncated, `chunk "fmt "`},
		{"chunk size 4 GiB", withChunkSize(ok(), 12, 0xFFFFFFFF), ErrTruncated, "4294967295"},
		{"data size 4 GiB", withChunkSize(ok(), 36, 0xFFFFFFFF), ErrTruncated, `chunk "data"`},
		{"no pad after odd chunk", func() []byte {
			b := riff(chunk{"LIST", []byte("odd")}, fmtChunk(pcm16(1, 44100)), data)
			b = append(b[:23], b[24:]...) // drop the pad byte after LIST
			return withRIFFSize(b, uint32(len(b)-8))
		}(), ErrTruncated, `chunk "mt `},
		{"no chunks", riff(), ErrTruncated, "no fmt chunk"},
		{"no fmt", riff(chunk{"LIST", []byte("xx")}), ErrTruncated, "no fmt chunk"},
		{"no data", riff(fmtChunk(pcm16(1, 44100))), ErrTruncated, "no data chunk"},
		{"data before fmt", riff(data, fmtChunk(pcm16(1, 44100))), ErrMalformed, "before the fmt"},
		{"two fmt", riff(fmtChunk(pcm16(1, 44100)), fmtChunk(pcm16(1, 44100)), data), ErrMalformed, "second fmt"},
		{"short fmt", riff(chunk{"fmt ", fmtChunk(pcm16(1, 44100)).body[:14]}, data), ErrMalformed, "fmt chunk of 14 bytes"},
		{"8-bit", with(fmtDesc{tag: tagPCM, channels: 1, rate: 8000, bits: 8}), ErrUnsupported, "8-bit"},
		{"24-bit", riff(fmtChunk(fmtDesc{tag: tagPCM, channels: 2, rate: 48000, bits: 24}), chunk{"data", ramp(12)}), ErrUnsupported, "24-bit"},
		{"32-bit int", with(fmtDesc{tag: tagPCM, channels: 2, rate: 48000, bits: 32}), ErrUnsupported, "32-bit integer"},
		{"64-bit float", with(fmtDesc{tag: tagFloat, channels: 1, rate: 48000, bits: 64}), ErrUnsupported, "64-bit float"},
		{"ADPCM", with(fmtDesc{tag: 2, channels: 1, rate: 22050, bits: 4, align: 256, byteRate: 11155}), ErrUnsupported, "Microsoft ADPCM"},
		{"MP3 in WAV", with(fmtDesc{tag: 0x55, channels: 2, rate: 44100, align: 1, byteRate: 16000}), ErrUnsupported, "MPEG layer 3"},
		{"3 channels", riff(fmtChunk(pcm16(3, 44100)), chunk{"data", ramp(12)}), ErrUnsupported, "3 channels"},
		{"0 channels", with(set(pcm16(0, 44100), func(d *fmtDesc) { d.align = 2 })), ErrMalformed, "0 channels"},
		{"rate 0", with(pcm16(2, 0)), ErrMalformed, "sample rate 0"},
		{"rate past int32", with(pcm16(1, 0x80000000)), ErrMalformed, "sample rate 2147483648"},
		{"block align", with(set(pcm16(2, 44100), func(d *fmtDesc) { d.align = 2 })), ErrMalformed, "block align 2"},
		{"byte rate", with(set(pcm16(2, 44100), func(d *fmtDesc) { d.byteRate = 88200 })), ErrMalformed, "byte rate 88200"},
		{"partial frame", riff(fmtChunk(pcm16(2, 44100)), chunk{"data", ramp(6)}), ErrMalformed, "not a whole number of 4-byte"},
		{"odd data", riff(fmtChunk(float32fmt(1, 44100)), chunk{"data", ramp(7)}), ErrMalformed, "7 bytes"},
		{"ext chunk short", riff(chunk{"fmt ", fmtChunk(ext(pcm16(2, 44100))).body[:38]}, data), ErrMalformed, "extensible fmt chunk of 38"},
		{"ext cbSize", with(set(ext(pcm16(2, 44100)), func(d *fmtDesc) { d.cbSize = 10 })), ErrMalformed, "extension of 10"},
		{"ext GUID", with(set(ext(pcm16(2, 44100)), func(d *fmtDesc) { d.guidSuffixByte = 1 })), ErrUnsupported, "GUID"},
		{"ext 24-bit", riff(fmtChunk(ext(fmtDesc{tag: tagPCM, channels: 2, rate: 48000, bits: 24})), chunk{"data", ramp(12)}), ErrUnsupported, "24-bit"},
		{"ext valid bits", with(set(ext(pcm16(2, 44100)), func(d *fmtDesc) { d.validBits = 17 })), ErrMalformed, "17 valid bits"},
		{"ext float valid bits", with(set(ext(float32fmt(1, 44100)), func(d *fmtDesc) { d.validBits = 24 })), ErrMalformed, "24 valid bits"},
		{"ext names itself", with(set(ext(pcm16(2, 44100)), func(d *fmtDesc) { d.tag = tagExtensible })), ErrMalformed, "extensible tag itself"},
		{"ext ADPCM", with(set(ext(pcm16(2, 44100)), func(d *fmtDesc) { d.tag = 0x11 })), ErrUnsupported, "IMA ADPCM"},
		{"ext 3 channels", riff(fmtChunk(ext(pcm16(3, 44100))), chunk{"data", ramp(12)}), ErrUnsupported, "3 channels"},
		{"plain tag 0xFFFE fields, short", riff(fmtChunk(fmtDesc{tag: tagExtensible, channels: 2, rate: 44100, bits: 16}), data), ErrMalformed, "extensible fmt chunk of 16"},
	}
}

// TestParseRefuses checks each kind of bad file gets its sentinel, a
// message that says what was wrong, and no data.
func TestParseRefuses(t *testing.T) {
	sentinels := []error{ErrNotWAV, ErrTruncated, ErrMalformed, ErrUnsupported}
	for _, c := range refusals() {
		f, data, err := Parse(c.b)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
			continue
		}
		for _, s := range sentinels {
			if s != c.want && errors.Is(err, s) {
				t.Errorf("%s: %v also wraps %v", c.name, err, s)
			}
		}
		if !strings.HasPrefix(err.Error(), "wav: ") || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: message %q should start with \"wav: \" and say %q", c.name, err, c.says)
		}
		if data != nil || f.Rate != 0 {
			t.Errorf("%s: refused, yet returned %v and %d bytes", c.name, f, len(data))
		}
	}
}
