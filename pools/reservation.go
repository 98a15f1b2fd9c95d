package pools

// claimedBit marks a reservation entry whose slot has been claimed; slot
// indices stay below MaxCapacity, so the top bit is free.
const claimedBit = 1 << 31

// noHeader ends the free list of reservation headers.
const noHeader = ^uint32(0)

// reservationHeader describes one reservation: its entries are
// entries[start : start+n]. While the header is free, start links to the
// next free header. gen is odd while the reservation is outstanding; at 64
// bits it cannot wrap in any program's lifetime, so a released Reservation
// value can never validate again.
type reservationHeader struct {
	gen   uint64
	start uint32
	n     uint32
}

// reservations is a Pool's table of outstanding reservations. The entries
// of all outstanding reservations sit back to back in entries, oldest
// first; Release closes the gap it leaves, so the table never fragments.
// Each outstanding reservation holds at least one entry, so capacity
// headers always suffice.
type reservations struct {
	headers   []reservationHeader
	entries   []uint32
	freeHead  uint32
	hiwater   uint32 // headers[:hiwater] have been handed out at least once
	unclaimed int
}

func newReservations(capacity int) reservations {
	return reservations{
		headers:  make([]reservationHeader, capacity),
		entries:  make([]uint32, 0, capacity),
		freeHead: noHeader,
	}
}

// newHeader takes a free header, reusing the most recently released one.
func (r *reservations) newHeader() uint32 {
	id := r.freeHead
	if id != noHeader {
		r.freeHead = r.headers[id].start
		return id
	}
	id = r.hiwater
	r.hiwater++
	return id
}

// grow moves the table into arrays sized for capacity slots; every
// outstanding Reservation keeps its id and generation, so it stays valid.
func (r *reservations) grow(capacity int) {
	headers := make([]reservationHeader, capacity)
	copy(headers, r.headers)
	entries := make([]uint32, len(r.entries), capacity)
	copy(entries, r.entries)
	r.headers, r.entries = headers, entries
}

// clear releases every outstanding reservation; their values turn stale.
func (r *reservations) clear() {
	for i := range r.headers[:r.hiwater] {
		if r.headers[i].gen&1 != 0 {
			r.headers[i].gen++
		}
	}
	r.entries = r.entries[:0]
	r.freeHead = noHeader
	r.hiwater = 0
	r.unclaimed = 0
}

// Reservation is a batch of Pool slots claimed up front by Pool.Reserve.
// The caller constructs only the positions it needs with Claim, in any
// order, and gives the rest back with Release. Handles claimed from a
// reservation are ordinary handles and outlive it.
//
// A Reservation is a small value (it allocates nothing: its entries live
// in a table the pool allocated at construction); copies name the same
// reservation. Like its pool, it belongs to the pool's owner goroutine.
// The zero Reservation is invalid.
type Reservation[T any] struct {
	p   *Pool[T]
	gen uint64
	id  uint32
}

// Reserve takes n free slots out of the pool for the caller to construct
// later, all or nothing. When n slots are not free it returns
// ErrBudgetExhausted and nothing changes. So a batch that does not fit is
// never half admitted. The entries of outstanding reservations, claimed
// or not, share one table of Cap entries; keeping claimed reservations
// unreleased can exhaust it while slots are free, so Release a reservation
// once its batch is built. Reserve is O(n).
func (p *Pool[T]) Reserve(n int) (Reservation[T], error) {
	r := &p.resv
	switch {
	case n < 1:
		return Reservation[T]{}, ErrInvalidCount
	case n > p.Available():
		p.refused++
		return Reservation[T]{}, ErrBudgetExhausted
	case n > cap(r.entries)-len(r.entries):
		p.refused++
		return Reservation[T]{}, ErrBudgetExhausted
	}
	id := r.newHeader()
	h := &r.headers[id]
	h.gen++
	h.start = uint32(len(r.entries))
	h.n = uint32(n)
	// Position 0 gets the slot Create would have returned first.
	top := 0
	for range n {
		i := p.head
		r.entries = append(r.entries, i)
		p.head = p.slots[i].next
		top = max(top, int(i)+1)
	}
	// A reserved slot keeps generation 0 until it is claimed, so the
	// high-water mark cannot see it there (see Pool.highWater).
	p.hw = max(p.hw, top)
	r.unclaimed += n
	return Reservation[T]{p: p, gen: h.gen, id: id}, nil
}

// header returns the reservation's header, or the error explaining why
// the reservation is not outstanding.
func (v Reservation[T]) header() (*reservationHeader, error) {
	if v.p == nil {
		return nil, ErrInvalidReservation
	}
	h := &v.p.resv.headers[v.id]
	if h.gen != v.gen {
		return nil, ErrReservationReleased
	}
	return h, nil
}

// Len returns the number of positions the reservation was made with, or 0
// once it is released or for the zero Reservation.
func (v Reservation[T]) Len() int {
	h, err := v.header()
	if err != nil {
		return 0
	}
	return int(h.n)
}

// Claim makes the reserved slot at position i (0 <= i < Len) live and
// returns its handle and a pointer to the zeroed element, valid until the
// element is destroyed. Claiming a position twice returns
// ErrAlreadyClaimed, a position outside the reservation ErrOutOfRange,
// a released reservation ErrReservationReleased; nothing changes then.
func (v Reservation[T]) Claim(i int) (Handle[T], *T, error) {
	h, err := v.header()
	if err != nil {
		return Handle[T]{}, nil, err
	}
	p := v.p
	if uint(i) >= uint(h.n) {
		return Handle[T]{}, nil, ErrOutOfRange
	}
	e := &p.resv.entries[int(h.start)+i]
	if *e&claimedBit != 0 {
		return Handle[T]{}, nil, ErrAlreadyClaimed
	}
	idx := *e
	*e = idx | claimedBit
	p.resv.unclaimed--
	s := &p.slots[idx]
	s.gen++
	p.live++
	p.peak = max(p.peak, p.live)
	p.created++
	return p.handle(idx, s.gen), &p.elems[idx], nil
}

// Claimed reports whether position i has been claimed. It is false for a
// position outside the reservation and after Release.
func (v Reservation[T]) Claimed(i int) bool {
	h, err := v.header()
	if err != nil || uint(i) >= uint(h.n) {
		return false
	}
	return v.p.resv.entries[int(h.start)+i]&claimedBit != 0
}

// Release returns the unclaimed slots to the pool's free list, in the
// order that leaves the list as if they had never been reserved, and ends
// the reservation: every copy of v turns stale and a second Release
// returns ErrReservationReleased. Claimed handles stay valid. Release is
// O(entries of outstanding reservations).
func (v Reservation[T]) Release() error {
	h, err := v.header()
	if err != nil {
		return err
	}
	p := v.p
	r := &p.resv
	start, n := int(h.start), int(h.n)
	for j := start + n - 1; j >= start; j-- {
		if e := r.entries[j]; e&claimedBit == 0 {
			p.push(e)
			r.unclaimed--
		}
	}
	// Close the gap so the table never fragments; later reservations
	// move down by n.
	copy(r.entries[start:], r.entries[start+n:])
	r.entries = r.entries[:len(r.entries)-n]
	for i := range r.headers[:r.hiwater] {
		o := &r.headers[i]
		if o.gen&1 != 0 && int(o.start) > start {
			o.start -= uint32(n)
		}
	}
	h.gen++
	h.start = r.freeHead
	r.freeHead = v.id
	return nil
}
