package wav

import "encoding/binary"

// This file builds WAV files field by field for the tests and the fuzz
// seeds, including the broken ones Append refuses to write.

// chunk is one RIFF chunk; riff writes its size and pad byte.
type chunk struct {
	id   string
	body []byte
}

// riff returns a RIFF WAVE file holding chunks, with a correct RIFF size
// and a pad byte after each odd-sized chunk.
func riff(chunks ...chunk) []byte {
	b := []byte("RIFF\x00\x00\x00\x00WAVE")
	for _, c := range chunks {
		b = append(b, c.id...)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(c.body)))
		b = append(b, c.body...)
		if len(c.body)%2 == 1 {
			b = append(b, 0)
		}
	}
	binary.LittleEndian.PutUint32(b[4:], uint32(len(b)-8))
	return b
}

// fmtDesc is every field of a fmt chunk; fmtChunk derives block align and
// byte rate from the others unless they are set.
type fmtDesc struct {
	tag, channels  uint16
	rate           uint32
	bits           uint16
	align          uint16 // 0: channels × bits / 8
	byteRate       uint32 // 0: rate × align
	ext            bool   // write the WAVE_FORMAT_EXTENSIBLE layout, tag as the subformat
	extTag         uint16 // the fmt tag of an extensible chunk; 0: 0xFFFE
	validBits      uint16 // extensible: 0 means bits
	cbSize         uint16 // extensible: 0 means 22
	guidSuffixByte byte   // extensible: XORed into the GUID's last byte
}

func fmtChunk(d fmtDesc) chunk {
	if d.align == 0 {
		d.align = d.channels * d.bits / 8
	}
	if d.byteRate == 0 {
		d.byteRate = d.rate * uint32(d.align)
	}
	le := binary.LittleEndian
	tag := d.tag
	if d.ext {
		tag = tagExtensible
		if d.extTag != 0 {
			tag = d.extTag
		}
	}
	b := le.AppendUint16(nil, tag)
	b = le.AppendUint16(b, d.channels)
	b = le.AppendUint32(b, d.rate)
	b = le.AppendUint32(b, d.byteRate)
	b = le.AppendUint16(b, d.align)
	b = le.AppendUint16(b, d.bits)
	if !d.ext {
		return chunk{"fmt ", b}
	}
	cb, valid := d.cbSize, d.validBits
	if cb == 0 {
		cb = 22
	}
	if valid == 0 {
		valid = d.bits
	}
	b = le.AppendUint16(b, cb)
	b = le.AppendUint16(b, valid)
	b = le.AppendUint32(b, 3) // channel mask: front left | front right
	b = le.AppendUint16(b, d.tag)
	b = append(b, subtypeSuffix[:]...)
	b[len(b)-1] ^= d.guidSuffixByte
	return chunk{"fmt ", b}
}

// pcm16 and float32 are fmt descriptions of the two readable encodings.
func pcm16(channels uint16, rate uint32) fmtDesc {
	return fmtDesc{tag: tagPCM, channels: channels, rate: rate, bits: 16}
}

func float32fmt(channels uint16, rate uint32) fmtDesc {
	return fmtDesc{tag: tagFloat, channels: channels, rate: rate, bits: 32}
}

func ext(d fmtDesc) fmtDesc { d.ext = true; return d }

// ramp returns n bytes that differ from each other, so that a view at the
// wrong offset shows.
func ramp(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + 1)
	}
	return b
}
