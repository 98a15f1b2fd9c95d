package syncs

import (
	"errors"
	"runtime"
	"sync"
	"testing"

	"github.com/steadyframe/steadyframe/internal/testenv"
)

type item struct {
	producer, seq uint32
	ptr           *int
}

// TestQueueModel has many producers push numbered values while one
// consumer pops, and checks against the model "every value exactly once,
// each producer's in order". Run it with -race.
func TestQueueModel(t *testing.T) {
	const producers, per = 8, 20000
	q, err := NewQueue[item](64) // small, so producers often find it full
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for p := range producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				for !q.Push(item{producer: uint32(p), seq: uint32(i)}) {
					runtime.Gosched()
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	next := make([]uint32, producers)
	for got := 0; got < producers*per; got++ {
		v, ok := q.Pop()
		for !ok {
			select {
			case <-done:
				if v, ok = q.Pop(); !ok {
					t.Fatalf("queue empty after %d of %d values: lost", got, producers*per)
				}
			default:
				runtime.Gosched()
				v, ok = q.Pop()
			}
		}
		if int(v.producer) >= producers || v.seq != next[v.producer] {
			t.Fatalf("got %+v, want producer %d's value %d (lost, duplicated or reordered)", v, v.producer, next[v.producer])
		}
		next[v.producer]++
	}
	if v, ok := q.Pop(); ok {
		t.Fatalf("extra value %+v: duplicated", v)
	}
	if q.Full() == 0 {
		t.Log("queue never filled; the retry path went unexercised this run")
	}
	if q.Peak() < 1 || q.Peak() > q.Cap() {
		t.Fatalf("Peak %d outside 1..%d", q.Peak(), q.Cap())
	}
}

// TestQueueFull: a full queue refuses, counts, and keeps what it holds;
// positions advance one per value.
func TestQueueFull(t *testing.T) {
	q, err := NewQueue[item](3) // rounds up to 4
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if !q.Push(item{seq: uint32(i)}) {
			t.Fatalf("push %d refused", i)
		}
	}
	if q.Push(item{seq: 4}) {
		t.Fatal("push into a full queue succeeded")
	}
	if q.Full() != 1 || q.Len() != 4 || q.Claimed() != 4 {
		t.Fatalf("Full %d Len %d Claimed %d, want 1 4 4", q.Full(), q.Len(), q.Claimed())
	}
	for i := range 4 {
		if h := q.Head(); h != uint64(i) {
			t.Fatalf("Head %d before pop %d", h, i)
		}
		if v, ok := q.Pop(); !ok || v.seq != uint32(i) {
			t.Fatalf("pop %d = %+v, %v", i, v, ok)
		}
	}
	if _, ok := q.Pop(); ok {
		t.Fatal("pop from an empty queue succeeded")
	}
	if q.Len() != 0 || q.Peak() != 4 {
		t.Fatalf("Len %d Peak %d, want 0 4", q.Len(), q.Peak())
	}
}

// TestQueueReserve: a value reserved and not yet published holds back the
// consumer, and the values claimed after it, until it is published; then
// they come out in claim order. A full queue refuses a Reserve as it
// refuses a Push.
func TestQueueReserve(t *testing.T) {
	q, _ := NewQueue[item](4)
	v, pos, ok := q.Reserve()
	if !ok || pos != 0 {
		t.Fatalf("Reserve = %v, %d, %v", v, pos, ok)
	}
	for i := 1; i < 4; i++ {
		if !q.Push(item{seq: uint32(i)}) {
			t.Fatalf("push %d refused", i)
		}
	}
	if _, _, ok := q.Reserve(); ok || q.Full() != 1 {
		t.Fatalf("Reserve on a full queue: %v, Full %d", ok, q.Full())
	}
	if _, ok := q.Pop(); ok {
		t.Fatal("Pop passed a reserved cell before it was published")
	}
	*v = item{seq: 0}
	q.Publish(pos)
	for i := range 4 {
		if got, ok := q.Pop(); !ok || got.seq != uint32(i) {
			t.Fatalf("pop %d = %+v, %v", i, got, ok)
		}
	}
}

// TestQueuePopClearsCell: the ring must not pin memory a value pointed to
// once the consumer has it.
func TestQueuePopClearsCell(t *testing.T) {
	q, _ := NewQueue[item](2)
	x := 7
	q.Push(item{ptr: &x})
	if v, ok := q.Pop(); !ok || v.ptr != &x {
		t.Fatalf("pop = %+v, %v", v, ok)
	}
	for i := range q.cell {
		if q.cell[i].v.ptr != nil {
			t.Fatalf("cell %d still points at the popped value", i)
		}
	}
}

// TestQueueWrapsPositions starts the cursors just below 2^64: comparing
// sequence numbers by difference keeps the queue working across the wrap.
func TestQueueWrapsPositions(t *testing.T) {
	q, _ := NewQueue[item](4)
	start := ^uint64(0) - 5
	q.tail.Store(start)
	q.head.Store(start)
	for i := range q.cell {
		// cell k is free for the position start+j that maps onto it.
		for j := uint64(0); j < 4; j++ {
			if (start+j)&q.mask == uint64(i) {
				q.cell[i].seq.Store(start + j)
			}
		}
	}
	for round := range 5 {
		for i := range 4 {
			if !q.Push(item{seq: uint32(round*4 + i)}) {
				t.Fatalf("round %d push %d refused across the wrap", round, i)
			}
		}
		if q.Push(item{}) {
			t.Fatalf("round %d: a fifth push fit in a queue of 4", round)
		}
		for i := range 4 {
			if v, ok := q.Pop(); !ok || v.seq != uint32(round*4+i) {
				t.Fatalf("round %d pop %d = %+v, %v", round, i, v, ok)
			}
		}
	}
}

func TestNewQueueRejectsCapacity(t *testing.T) {
	for _, n := range []int{-1, 0, MaxQueueCapacity + 1} {
		if q, err := NewQueue[item](n); !errors.Is(err, ErrInvalidCapacity) || q != nil {
			t.Errorf("NewQueue(%d) = %v, %v; want ErrInvalidCapacity", n, q, err)
		}
	}
}

func TestQueuePushPopAllocatesNothing(t *testing.T) {
	q, _ := NewQueue[item](8)
	x := 1
	testenv.NoAllocs(t, "Push+Pop", 1000, func() {
		q.Push(item{seq: 1, ptr: &x})
		q.Push(item{seq: 2})
		q.Pop()
		q.Pop()
		q.Pop() // empty
	})
	for range 8 {
		q.Push(item{})
	}
	testenv.NoAllocs(t, "refused Push", 1000, func() { q.Push(item{}) })
}

// benchQueuePushPop is one producer's push and the consumer's pop.
func benchQueuePushPop(b *testing.B) {
	q, _ := NewQueue[item](1024)
	b.ReportAllocs()
	for b.Loop() {
		q.Push(item{seq: 1})
		q.Pop()
	}
}

// benchChannelSendRecv is the same hand-off through a buffered
// channel, what a user would otherwise write.
func benchChannelSendRecv(b *testing.B) {
	c := make(chan item, 1024)
	b.ReportAllocs()
	for b.Loop() {
		c <- item{seq: 1}
		<-c
	}
}

// BenchmarkQueuePushPop is one push and one pop: through Queue, and
// through a buffered channel.
func BenchmarkQueuePushPop(b *testing.B) {
	b.Run("impl=ours", benchQueuePushPop)
	b.Run("impl=chan", benchChannelSendRecv)
}
