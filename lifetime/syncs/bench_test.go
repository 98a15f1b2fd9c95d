package syncs

import (
	"testing"
	"time"
)

// BenchmarkBarrierRoundTrip is one request, one owner pass and the wait
// that sees it, on one goroutine: the barrier's own cost.
func BenchmarkBarrierRoundTrip(b *testing.B) {
	var br Barrier
	b.ReportAllocs()
	for b.Loop() {
		epoch := br.Request()
		br.Enter()
		br.Exit()
		if err := br.WaitEpoch(epoch, time.Second); err != nil {
			b.Fatal(err)
		}
	}
}

// benchBarrierWaitLiveOwner waits on an owner goroutine running
// passes back to back.
func benchBarrierWaitLiveOwner(b *testing.B) {
	var br Barrier
	stop := liveOwner(&br)
	b.ReportAllocs()
	for b.Loop() {
		if err := br.Wait(5 * time.Second); err != nil {
			b.Fatal(err)
		}
	}
	stop()
}

// benchChannelHandshake is the comparison for the barrier: the
// requester sends a reply channel to the owner, which answers after a pass.
func benchChannelHandshake(b *testing.B) {
	req := make(chan chan struct{})
	go func() {
		for reply := range req {
			reply <- struct{}{}
		}
	}()
	b.ReportAllocs()
	for b.Loop() {
		reply := make(chan struct{})
		req <- reply
		<-reply
	}
	close(req)
}

// BenchmarkBarrierWaitLiveOwner is one requester proving a running owner
// finished a pass: with the Barrier, and with a channel handshake.
func BenchmarkBarrierWaitLiveOwner(b *testing.B) {
	b.Run("impl=ours", benchBarrierWaitLiveOwner)
	b.Run("impl=chan-handshake", benchChannelHandshake)
}
