package pools

// This file holds the pending state: an element whose handle is dead but
// whose slot a device may still reference, so the slot waits off the free
// list until the frame that could reference it completes.

// DestroyAfter ends h's element at once, as Destroy does. h and every copy
// are stale from now on: Get, Valid, Destroy and DestroyAfter with them
// fail. But the slot stays pending, off the free list, until Reclaim is
// told that the device frame serial has completed. The element keeps its
// value until then, and the garbage collector keeps what the value
// references. What it names (a GPU texture, a buffer) may still be in use
// by that frame. Reclaim hands the value back for the caller to release
// the device object. A pending slot counts against the budget like a live one.
//
// Pending slots form a queue reclaimed oldest first: a slot waits for
// every slot pending before it as well as for its own serial. Serials that
// do not decrease from one call to the next, as a frame clock's never do,
// wait for exactly what they name; a serial below an earlier pending
// slot's waits longer than asked, never shorter. Once the queue is empty,
// any serial is accepted.
//
// A zero, out-of-range or forged handle, or one of another pool, gets
// ErrInvalidHandle, a stale one ErrStaleHandle, and nothing changes.
// DestroyAfter is O(1) and allocates nothing.
func (p *Pool[T]) DestroyAfter(h Handle[T], serial uint64) error {
	i, slots := ^h.notIndex^p.tag, p.slots
	if uint(i) >= uint(len(slots)) {
		return ErrInvalidHandle
	}
	s := &slots[i]
	if s.gen != h.gen {
		return ErrStaleHandle
	}
	// An even generation is what makes every handle to the slot stale; a
	// spent one (genRetired) is even too, and the slot retires when it is
	// reclaimed, not before, since it is as busy as any pending slot.
	s.gen++
	s.serial = serial
	if p.pending == 0 {
		p.pendHead = i
	} else {
		slots[p.pendTail].next = i
	}
	p.pendTail = i
	p.live--
	p.pending++
	return nil
}

// Reclaim takes the oldest pending slot if the frame it waits for is at or
// below completed. It returns the slot's index and the element it held,
// which it zeroes in the pool. The caller releases the device object the
// value names (glDeleteTextures of a GL name stored in T, say). The slot goes on
// top of the free list, so the next Create reuses it before any slot freed
// earlier or never used, unless its generation is spent, in which case it
// retires for good (Stats.Retired) as with Destroy. When no pending slot's
// frame has completed, Reclaim returns 0, the zero T and ok=false, and
// changes nothing.
//
// Each call reclaims at most one slot; drain every completed frame with
//
//	for i, old, ok := p.Reclaim(c); ok; i, old, ok = p.Reclaim(c) {
//		release(i, old)
//	}
//
// or, when the elements name nothing the caller must release, with
// ReclaimInto. Reclaim is O(1) and allocates nothing.
func (p *Pool[T]) Reclaim(completed uint64) (index uint32, elem T, ok bool) {
	i := p.pendHead
	// Every slot behind the oldest waits for it.
	if p.pending == 0 || p.slots[i].serial > completed {
		return 0, elem, false
	}
	s := &p.slots[i]
	p.pendHead = s.next
	p.pending--
	var zero T
	elem, p.elems[i] = p.elems[i], zero
	if s.gen == genRetired {
		p.retired++
	} else {
		s.next = p.head
		p.head = i
	}
	return i, elem, true
}

// ReclaimInto is Reclaim for up to len(dst) slots at once. It is for a
// pool whose elements name nothing the caller must release. It reclaims
// the oldest pending slots whose frames are at or below completed, as many
// Reclaim calls would. It writes their indices into dst, oldest first, and
// zeroes their elements without returning them. It returns how many it
// reclaimed. One loop over the queue with the pool's fields in registers
// costs about half the instructions per slot of calling Reclaim in a loop
// (BenchmarkChurn in descriptors). It is O(n) and allocates nothing.
func (p *Pool[T]) ReclaimInto(completed uint64, dst []uint32) int {
	slots := p.slots
	elems := p.elems[:len(slots)]
	i, head := p.pendHead, p.head
	dst = dst[:min(len(dst), p.pending)]
	var zero T
	for k := range dst {
		if uint(i) >= uint(len(slots)) || slots[i].serial > completed {
			dst = dst[:k]
			break
		}
		s := &slots[i]
		dst[k] = i
		elems[i] = zero
		next := s.next
		if s.gen != genRetired {
			s.next = head
			head = i
		} else {
			p.retired++
		}
		i = next
	}
	p.pendHead, p.head, p.pending = i, head, p.pending-len(dst)
	return len(dst)
}
