package pools

import (
	"errors"
	"fmt"
	"testing"
)

// opReader hands out the bytes of a fuzz input one at a time, 0 once they
// run out.
type opReader struct {
	data []byte
}

func (r *opReader) more() bool { return len(r.data) > 0 }

func (r *opReader) next() byte {
	if len(r.data) == 0 {
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return b
}

// sameErr reports whether got matches the model's sentinel (both nil, or
// errors.Is).
func sameErr(got, want error) bool {
	if want == nil {
		return got == nil
	}
	return errors.Is(got, want)
}

// FuzzPool decodes the input into Pool operations (the first byte picks a
// capacity of 0..8; Grow may raise it to 32) and checks the pool against
// poolModel after each one.
func FuzzPool(f *testing.F) {
	f.Add([]byte{4, 0, 0, 0, 1, 0, 0, 1, 1})
	f.Add([]byte{2, 0, 0, 0, 3, 0, 0})
	f.Add([]byte{3, 4, 3, 5, 0, 0, 5, 0, 2, 5, 0, 0, 6, 0, 6, 0})
	f.Add([]byte{2, 7, 0, 1, 0, 0, 1, 0, 0, 0})
	f.Add([]byte{0, 0, 4, 1, 5, 0, 0, 1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 512 {
			data = data[:512]
		}
		r := &opReader{data: data}
		capacity := int(r.next() % 9)
		p, err := NewPool[fuzzElem](capacity)
		if err != nil {
			t.Fatal(err)
		}
		m := newPoolModel(p)
		var tag uint64
		for step := 0; r.more(); step++ {
			op := r.next() % 16
			tag++
			if err := poolStep(p, m, op, r, tag); err != nil {
				t.Fatalf("step %d (op %d): %v", step, op, err)
			}
			if err := m.check(p); err != nil {
				t.Fatalf("after step %d (op %d): %v", step, op, err)
			}
		}
	})
}

// pickHandle chooses a handle by the next byte: one issued earlier (live
// or stale), the zero Handle, or one out of range.
func pickHandle(m *poolModel, r *opReader) Handle[fuzzElem] {
	b := int(r.next())
	switch {
	case b == 255:
		return Handle[fuzzElem]{}
	case b == 254:
		return m.pool.handle(uint32(len(m.slots)), 1)
	case len(m.handles) == 0:
		return Handle[fuzzElem]{}
	}
	return m.handles[b%len(m.handles)]
}

func pickReservation(m *poolModel, r *opReader) *modelReservation {
	b := int(r.next())
	if len(m.res) == 0 {
		return nil
	}
	return m.res[b%len(m.res)]
}

// poolStep applies one operation to the pool and the model and compares
// what they return.
func poolStep(p *Pool[fuzzElem], m *poolModel, op byte, r *opReader, tag uint64) error {
	switch op {
	case 0, 1: // Create: twice as likely, so pools fill up.
		h, e, err := p.Create()
		wh, werr := m.create(tag)
		if !sameErr(err, werr) || h != wh {
			return errorf("Create = %d:%d, %v; model %d:%d, %v", h.Index(), h.Generation(), err, wh.Index(), wh.Generation(), werr)
		}
		if err == nil {
			if *e != (fuzzElem{}) {
				return errorf("Create returned a dirty element %+v", *e)
			}
			e.tag = tag
		}
	case 2, 3: // Destroy an issued, zero or out-of-range handle.
		h := pickHandle(m, r)
		if err, werr := p.Destroy(h), m.destroy(h); !sameErr(err, werr) {
			return errorf("Destroy(%d:%d) = %v; model %v", h.Index(), h.Generation(), err, werr)
		}
	case 4: // Destroy through Bits, as a deferred-release queue would.
		h := pickHandle(m, r)
		back := HandleFromBits[fuzzElem](h.Bits())
		if back != h {
			return errorf("HandleFromBits(Bits(%v)) = %v", h, back)
		}
		if err, werr := p.Destroy(back), m.destroy(h); !sameErr(err, werr) {
			return errorf("Destroy(bits) = %v; model %v", err, werr)
		}
	case 5:
		p.Clear()
		m.clear()
	case 6: // Reserve 0..capacity+1.
		n := int(r.next()) % (len(m.slots) + 2)
		v, err := p.Reserve(n)
		mr, werr := m.reserve(n)
		if !sameErr(err, werr) {
			return errorf("Reserve(%d) = %v; model %v", n, err, werr)
		}
		if err == nil {
			mr.v = v
		} else if v != (Reservation[fuzzElem]{}) {
			return errorf("failed Reserve(%d) returned a non-zero Reservation", n)
		}
	case 7: // Claim a position, in range or one past it.
		mr := pickReservation(m, r)
		pos := int(r.next())
		if mr == nil {
			if _, _, err := (Reservation[fuzzElem]{}).Claim(pos); !errors.Is(err, ErrInvalidReservation) {
				return errorf("zero Reservation Claim = %v", err)
			}
			return nil
		}
		pos %= len(mr.slots) + 1
		h, e, err := mr.v.Claim(pos)
		wh, werr := m.claim(mr, pos, tag)
		if !sameErr(err, werr) || h != wh {
			return errorf("Claim(%d) = %d:%d, %v; model %d:%d, %v", pos, h.Index(), h.Generation(), err, wh.Index(), wh.Generation(), werr)
		}
		if err == nil {
			if *e != (fuzzElem{}) {
				return errorf("Claim returned a dirty element %+v", *e)
			}
			e.tag = tag
		}
	case 8:
		mr := pickReservation(m, r)
		if mr == nil {
			if err := (Reservation[fuzzElem]{}).Release(); !errors.Is(err, ErrInvalidReservation) {
				return errorf("zero Reservation Release = %v", err)
			}
			return nil
		}
		if err, werr := mr.v.Release(), m.release(mr); !sameErr(err, werr) {
			return errorf("Release = %v; model %v", err, werr)
		}
	case 9:
		m.age(p)
	case 10, 11: // DestroyAfter a frame serial that may go backwards.
		h := pickHandle(m, r)
		serial := uint64(r.next())
		if err, werr := p.DestroyAfter(h, serial), m.destroyAfter(h, serial); !sameErr(err, werr) {
			return errorf("DestroyAfter(%v, %d) = %v; model %v", h, serial, err, werr)
		}
	case 12: // One Reclaim.
		return reclaimStep(p, m, uint64(r.next()))
	case 13: // Drain every completed frame: with Reclaim, or with ReclaimInto in batches of 1..4, as the descriptor heap does.
		completed, batch := uint64(r.next()), int(r.next()%5)
		if batch > 0 {
			return reclaimIntoStep(p, m, completed, batch)
		}
		for range len(m.slots) + 1 {
			if err := reclaimStep(p, m, completed); err != nil {
				return err
			}
		}
		if _, _, ok := p.Reclaim(completed); ok {
			return errorf("Reclaim(%d) still reclaims after the drain", completed)
		}
	case 14: // Grow by -1..4, or past MaxCapacity; at most to 32.
		b := r.next()
		capacity := len(m.slots) + int(b%6) - 1
		switch {
		case b >= 250:
			capacity = MaxCapacity + 1
		case capacity > 32:
			capacity = len(m.slots)
		}
		if err, werr := p.Grow(capacity), m.grow(capacity); !sameErr(err, werr) {
			return errorf("Grow(%d) on capacity %d = %v; model %v", capacity, p.Cap(), err, werr)
		}
	case 15: // A batch admitted all or nothing through Available, as AllocN.
		n := int(r.next()) % (len(m.slots) + 2)
		if n > p.Available() {
			return nil
		}
		for k := range n {
			h, e, err := p.Create()
			wh, werr := m.create(tag)
			if err != nil || werr != nil || h != wh {
				return errorf("create %d of a batch of %d that Available admitted = %v, %v; model %v, %v", k, n, h, err, wh, werr)
			}
			e.tag = tag
		}
	}
	return nil
}

// reclaimStep runs one Reclaim on the pool and the model and compares the
// slot and the element they give back.
func reclaimStep(p *Pool[fuzzElem], m *poolModel, completed uint64) error {
	i, e, ok := p.Reclaim(completed)
	wi, wtag, wok := m.reclaim(completed)
	if ok != wok || i != wi || e != (fuzzElem{tag: wtag}) {
		return errorf("Reclaim(%d) = %d, %+v, %v; model %d, tag %d, %v", completed, i, e, ok, wi, wtag, wok)
	}
	return nil
}

// reclaimIntoStep drains every completed frame with ReclaimInto, batch
// slots at a time, and checks each batch against as many Reclaims of the
// model.
func reclaimIntoStep(p *Pool[fuzzElem], m *poolModel, completed uint64, batch int) error {
	dst := make([]uint32, batch)
	for {
		n := p.ReclaimInto(completed, dst)
		for k := range n {
			if wi, _, wok := m.reclaim(completed); !wok || wi != dst[k] {
				return errorf("ReclaimInto(%d) slot %d of %d = %d; model %d, %v", completed, k, n, dst[k], wi, wok)
			}
		}
		if n < batch {
			if wi, _, wok := m.reclaim(completed); wok {
				return errorf("ReclaimInto(%d) stopped after %d of %d; model reclaims %d next", completed, n, batch, wi)
			}
			return nil
		}
	}
}

// errorf is fmt.Errorf under a name that keeps the test helpers short.
func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
