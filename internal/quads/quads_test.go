package quads

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

func TestQuadLayoutAndRuns(t *testing.T) {
	w, _ := NewWriter(4)
	view := make([]byte, 3*QuadBytes)
	if err := w.Reset(view); err != nil {
		t.Fatal(err)
	}
	r := Rect{X0: 1, Y0: 2, X1: 3, Y1: 4, U0: 0, V0: 0, U1: 1, V1: 1}
	for _, tex := range []uint32{7, 7, 9} {
		if !w.Quad(tex, r, 0x11223344) {
			t.Fatal("quad refused with room left")
		}
	}
	if w.Quad(9, r, 0) || w.Refused() != 1 {
		t.Errorf("a full view accepted a quad (refused %d)", w.Refused())
	}
	want := []Run{{Texture: 7, First: 0, Count: 2}, {Texture: 9, First: 2, Count: 1}}
	got := w.Runs()
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("runs %v, want %v", got, want)
	}
	// Vertex 2 of quad 0 is the bottom-right corner (X1, Y1, U1, V1).
	v := view[2*VertexBytes:]
	f := func(o int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(v[o:])) }
	if f(0) != 3 || f(4) != 4 || f(8) != 1 || f(12) != 1 {
		t.Errorf("vertex 2 = (%v, %v, %v, %v)", f(0), f(4), f(8), f(12))
	}
	if v[16] != 0x11 || v[19] != 0x44 {
		t.Errorf("colour bytes % x, want RGBA order", v[16:20])
	}
	if w.Bytes() != 3*QuadBytes || w.Len() != 3 {
		t.Errorf("Len %d Bytes %d", w.Len(), w.Bytes())
	}
}

func TestRunLimit(t *testing.T) {
	w, _ := NewWriter(1)
	_ = w.Reset(make([]byte, 4*QuadBytes))
	w.Fill(1, 0, 0, 1, 1, 0)
	if w.Fill(2, 0, 0, 1, 1, 0) {
		t.Error("a second texture was accepted with one run allowed")
	}
	if !w.Fill(1, 0, 0, 1, 1, 0) {
		t.Error("same texture refused")
	}
}

func TestInvalid(t *testing.T) {
	if _, err := NewWriter(0); !errors.Is(err, ErrInvalid) {
		t.Errorf("NewWriter(0) = %v", err)
	}
	w, _ := NewWriter(1)
	if err := w.Reset(make([]byte, QuadBytes+1)); !errors.Is(err, ErrInvalid) {
		t.Errorf("ragged view: %v", err)
	}
	if err := Indices(make([]uint16, 5), 1); !errors.Is(err, ErrInvalid) {
		t.Errorf("short index buffer: %v", err)
	}
}

func TestIndices(t *testing.T) {
	idx := make([]uint16, 12)
	if err := Indices(idx, 2); err != nil {
		t.Fatal(err)
	}
	want := []uint16{0, 1, 2, 2, 3, 0, 4, 5, 6, 6, 7, 4}
	for i := range want {
		if idx[i] != want[i] {
			t.Fatalf("indices %v, want %v", idx, want)
		}
	}
}

func TestQuadNoAllocs(t *testing.T) {
	w, _ := NewWriter(8)
	view := make([]byte, 64*QuadBytes)
	testenv.NoAllocs(t, "a frame of quads", 100, func() {
		_ = w.Reset(view)
		for i := 0; i < 64; i++ {
			w.Quad(uint32(i/16), Rect{X1: 1, Y1: 1}, 0xffffffff)
		}
	})
}

func BenchmarkQuad(b *testing.B) {
	w, _ := NewWriter(8)
	view := make([]byte, 1024*QuadBytes)
	b.ReportAllocs()
	for b.Loop() {
		_ = w.Reset(view)
		for i := 0; i < 1024; i++ {
			w.Quad(1, Rect{X1: 1, Y1: 1}, 0xffffffff)
		}
	}
}
