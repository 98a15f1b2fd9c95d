package main

import (
	"bytes"
	"fmt"
	"time"

	"github.com/steadyframe/steadyframe/internal/scene"
)

const (
	// floodFrames is how many frames the flood fills every arena.
	floodFrames = 40
	// floodChunks is how many chunks fill one arena's region; one more is
	// refused.
	floodChunks = 16
	// floodMaxInFlight bounds the frames in flight the flood keeps
	// records for.
	floodMaxInFlight = 16
)

// floodRecord is one accepted allocation and what was written into it.
type floodRecord struct {
	off  int
	seed uint64
	view []byte // the arena's view, kept only to be read back before its region is reused
}

// uploadFlood asks every arena for more than its region holds, every
// frame: the arenas refuse and count the excess, no byte of an accepted
// allocation is overwritten while its frame is in flight (each one is read
// back, through the view and, in a window, through
// glGetNamedBufferSubData as the GPU reads it, just before the clock
// reuses its region), and no fence wait is longer than the frames in
// flight allow: the time the last InFlight frames took. An uploadFlood
// belongs to the render goroutine.
type uploadFlood struct {
	recs     [floodMaxInFlight][arenaCount * floodChunks]floodRecord
	nrec     [floodMaxInFlight]int
	want     []byte // the expected bytes, regenerated
	got      []byte // the device's bytes
	inFlight int

	accepted, refused  uint64
	acceptedBytes      uint64
	checkedCPU, badCPU uint64 // bytes checked through the views, and wrong
	checkedGPU, badGPU uint64 // bytes read back from the device, and wrong
	firstBad           int    // offset of the first wrong byte, -1 if none

	periods    [floodMaxInFlight]time.Duration
	nper       int
	last       time.Time
	wait0      time.Duration
	waitMax    time.Duration
	waitBudget time.Duration // the frames in flight's time when waitMax was seen
	overWait   int           // frames whose wait exceeded that budget
	verifying  int           // frames of records still to verify
}

func (*uploadFlood) name() string { return "upload-flood" }

// prepare allocates the read-back buffers before any frame is guarded.
func (f *uploadFlood) prepare(arenaCap [arenaCount]int) {
	n := 0
	for _, c := range arenaCap {
		n = max(n, c/floodChunks)
	}
	f.want, f.got = make([]byte, n), make([]byte, n)
	f.firstBad = -1
}

func (f *uploadFlood) start(r *renderer) {
	f.inFlight = min(r.scene.Clock.InFlight(), floodMaxInFlight)
	f.wait0 = r.scene.Clock.Stats().WaitTime
	f.last = time.Now()
}

func (f *uploadFlood) frame(r *renderer, i int) bool {
	now := time.Now()
	wait := r.scene.Clock.Stats().WaitTime
	if i > 0 {
		// The wait this frame's BeginFrame made, against the time the
		// frames since the one it waited for took.
		w := wait - f.wait0
		var budget time.Duration
		for _, p := range f.periods[:min(f.nper, f.inFlight)] {
			budget += p
		}
		if f.nper >= f.inFlight && w > budget {
			f.overWait++
		}
		if w > f.waitMax {
			f.waitMax, f.waitBudget = w, budget
		}
		f.periods[f.nper%f.inFlight] = now.Sub(f.last)
		f.nper++
	}
	f.wait0, f.last = wait, now
	if i >= floodFrames {
		f.verifying++
		return f.verifying > f.inFlight
	}
	serial := r.scene.Clock.Stats().Current
	slot := int(serial % uint64(f.inFlight))
	f.nrec[slot] = 0
	for k, a := range r.arenas {
		size := a.Capacity() / floodChunks
		for {
			off, view, ok := a.TryAlloc(size, 256)
			if !ok {
				f.refused++
				break
			}
			seed := serial<<16 | uint64(k)<<8 | uint64(f.nrec[slot])
			scene.Fill(view, seed)
			f.recs[slot][f.nrec[slot]] = floodRecord{off: off, seed: seed, view: view}
			f.nrec[slot]++
			f.accepted++
			f.acceptedBytes += uint64(size)
			if f.nrec[slot] == len(f.recs[slot]) {
				break
			}
		}
	}
	return false
}

// beforeBegin checks the records of the frame whose region the next
// BeginFrame reuses: written InFlight frames ago, they must read back
// exactly as written.
func (f *uploadFlood) beforeBegin(r *renderer) {
	if f.inFlight == 0 {
		return
	}
	next := r.scene.Clock.Stats().Last + 1
	slot := int(next % uint64(f.inFlight))
	for j := range f.recs[slot][:f.nrec[slot]] {
		rec := &f.recs[slot][j]
		n := len(rec.view)
		want, got := f.want[:n], f.got[:n]
		scene.Fill(want, rec.seed)
		f.checkedCPU += uint64(n)
		if !bytes.Equal(rec.view, want) {
			f.badCPU += uint64(countDiff(rec.view, want))
			f.markBad(rec.off)
		}
		if r.scene.ReadUpload(rec.off, got) {
			f.checkedGPU += uint64(n)
			if !bytes.Equal(got, want) {
				f.badGPU += uint64(countDiff(got, want))
				f.markBad(rec.off)
			}
		}
		rec.view = nil
	}
	f.nrec[slot] = 0
}

func (f *uploadFlood) markBad(off int) {
	if f.firstBad < 0 {
		f.firstBad = off
	}
}

func countDiff(a, b []byte) int {
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

func (f *uploadFlood) verdict(p *phase) ([]string, string) {
	var bad []string
	d := p.delta()
	if f.refused == 0 {
		bad = append(bad, "no arena refused: the flood did not pass the regions")
	}
	if d.arenaFailures < f.refused {
		bad = append(bad, fmt.Sprintf("the arenas counted %d refusals, the flood alone met %d", d.arenaFailures, f.refused))
	}
	if f.checkedCPU != f.acceptedBytes {
		bad = append(bad, fmt.Sprintf("%d of %d accepted bytes were checked", f.checkedCPU, f.acceptedBytes))
	}
	corrupt := f.badCPU + f.badGPU
	if broken("upload-flood") {
		corrupt++
	}
	if corrupt > 0 {
		bad = append(bad, fmt.Sprintf("%d bytes overwritten through the views, %d as the device reads them (first at offset %d)", f.badCPU, f.badGPU, f.firstBad))
	}
	if f.overWait > 0 {
		bad = append(bad, fmt.Sprintf("%d fence waits longer than the %d frames in flight took (the longest %.3f ms against %.3f ms)",
			f.overWait, f.inFlight, msf(f.waitMax), msf(f.waitBudget)))
	}
	gpu := "headless: no device to read back"
	if f.checkedGPU > 0 {
		gpu = fmt.Sprintf("%d read back from the GPU buffer, %d wrong", f.checkedGPU, f.badGPU)
	}
	return bad, fmt.Sprintf("%d allocations accepted (%d MiB), %d refused by the flood, %d by the arenas in all; "+
		"%d accepted bytes checked before reuse, %d wrong; %s; longest fence wait %.3f ms (the %d frames in flight took %.3f ms)",
		f.accepted, f.acceptedBytes>>20, f.refused, d.arenaFailures, f.checkedCPU, f.badCPU, gpu, msf(f.waitMax), f.inFlight, msf(f.waitBudget))
}
