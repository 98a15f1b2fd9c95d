package pools

import (
	"slices"
	"testing"
)

// TestForeignHandle hands pool B the handles of pool A whose index and
// generation match B's own live and pending slots: every call must
// refuse them as invalid and leave B as it was.
func TestForeignHandle(t *testing.T) {
	a, b := mustPool[texture](t, 4), mustPool[texture](t, 4)
	var ha, hb []Handle[texture]
	for range 3 {
		h, _, _ := a.Create()
		ha = append(ha, h)
		h, e, _ := b.Create()
		e.name = uint32(h.Index() + 100)
		hb = append(hb, h)
	}
	for i := range ha {
		if ha[i].Index() != hb[i].Index() || ha[i].Generation() != hb[i].Generation() {
			t.Fatalf("pools made alike issued %v and %v; the test needs equal index and generation", ha[i], hb[i])
		}
		if ha[i] == hb[i] || ha[i].Bits() == hb[i].Bits() {
			t.Fatalf("handle %v of two pools is the same value", ha[i])
		}
	}
	if err := b.DestroyAfter(hb[2], 7); err != nil {
		t.Fatal(err)
	}
	before, slots, elems := b.Stats(), slices.Clone(b.slots), slices.Clone(b.elems)
	for _, h := range ha {
		if !a.Owns(h) || b.Owns(h) {
			t.Errorf("Owns(%v): a %v, b %v; want true, false", h, a.Owns(h), b.Owns(h))
		}
		if b.Valid(h) || b.Get(h) != nil {
			t.Errorf("b resolves a's handle %v", h)
		}
		if err := b.Destroy(h); err != ErrInvalidHandle {
			t.Errorf("b.Destroy(a's %v) = %v, want ErrInvalidHandle", h, err)
		}
		if err := b.DestroyAfter(h, 9); err != ErrInvalidHandle {
			t.Errorf("b.DestroyAfter(a's %v) = %v, want ErrInvalidHandle", h, err)
		}
	}
	if b.Stats() != before || !slices.Equal(b.slots, slots) || !slices.Equal(b.elems, elems) {
		t.Fatalf("refusing a's handles changed b: %+v, want %+v", b.Stats(), before)
	}
	for _, h := range hb[:2] {
		if e := b.Get(h); e == nil || e.name != h.Index()+100 {
			t.Errorf("b's own %v no longer resolves to its element: %v", h, e)
		}
	}
	if (Handle[texture]{}).Index() != ^uint32(0) || b.Owns(Handle[texture]{}) {
		t.Error("the zero Handle must name slot 0xFFFFFFFF and belong to no pool")
	}
}

// TestTagsCycle checks that consecutive pools take distinct tags, 0xFF
// never among them, so the zero Handle stays outside every pool.
func TestTagsCycle(t *testing.T) {
	seen := map[uint32]bool{}
	for range tags {
		p := mustPool[texture](t, 0)
		if p.tag>>indexBits == 0xFF || seen[p.tag] {
			t.Fatalf("tag %#x taken twice or 0xFF within %d pools", p.tag, tags)
		}
		seen[p.tag] = true
	}
}
