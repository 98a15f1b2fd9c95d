package voices

import (
	"testing"
	"unsafe"
)

// TestVoiceLayout holds the voice to the layout its doc states: a whole
// number of 64-byte lines, with the steady path's fields in the first
// line and a rate bus member's gains in the second. A field added in
// the wrong place, or a pad left wrong, fails here rather than as a
// slower benchmark.
func TestVoiceLayout(t *testing.T) {
	var v voice
	if s := unsafe.Sizeof(v); s%64 != 0 {
		t.Errorf("voice is %d bytes: not a whole number of 64-byte lines (adjust its pad)", s)
	}
	for _, f := range []struct {
		name     string
		off, end uintptr
		line     uintptr
	}{
		{"kern", unsafe.Offsetof(v.kern), unsafe.Offsetof(v.kern) + unsafe.Sizeof(v.kern), 0},
		{"bus", unsafe.Offsetof(v.bus), unsafe.Offsetof(v.bus) + unsafe.Sizeof(v.bus), 0},
		{"data", unsafe.Offsetof(v.data), unsafe.Offsetof(v.data) + unsafe.Sizeof(v.data), 0},
		{"end", unsafe.Offsetof(v.end), unsafe.Offsetof(v.end) + unsafe.Sizeof(v.end), 0},
		{"pos", unsafe.Offsetof(v.pos), unsafe.Offsetof(v.pos) + unsafe.Sizeof(v.pos), 0},
		{"kind", unsafe.Offsetof(v.kind), unsafe.Offsetof(v.kind) + 1, 0},
		{"ended", unsafe.Offsetof(v.ended), unsafe.Offsetof(v.ended) + 1, 0},
		{"gainL", unsafe.Offsetof(v.gainL), unsafe.Offsetof(v.gainL) + 4, 1},
		{"gainR", unsafe.Offsetof(v.gainR), unsafe.Offsetof(v.gainR) + 4, 1},
	} {
		if f.off/64 != f.line || (f.end-1)/64 != f.line {
			t.Errorf("voice.%s at bytes %d to %d: want it inside line %d", f.name, f.off, f.end, f.line)
		}
	}
	// The mixer's voices start on a line.
	e, _ := offlineEngine(t, EngineDesc{})
	if a := uintptr(unsafe.Pointer(&e.mix.voices[0])); a%64 != 0 {
		t.Errorf("the mixer's voices start at %#x: not on a 64-byte line", a)
	}
}
