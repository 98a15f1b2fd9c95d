package voices

import (
	"slices"
	"testing"
	"time"
)

// pacedOverlap counts the refusals that run's timeline forces on a
// correct engine with StartLatency equal to the pull span: each Play
// starts the span's frames after its call, on the frames the sink
// actually pulled, or at the first frame of a pull that came more than a
// span after it; each voice holds a place under maxVoices through every
// block it sounds in. A sink and a producer on time force none.
func pacedOverlap(run pacedRun, block, maxVoices int) int {
	const rate = 48000
	starts := make([]int64, 0, len(run.calls))
	for _, call := range run.calls {
		// The first pull to begin after the call pops its command, at
		// that pull's first new block.
		k, _ := slices.BinarySearch(run.pulls, call)
		if k == len(run.pulls) {
			continue // never pulled
		}
		first := int64(k) * pacedPullFrames
		first = (first + int64(block) - 1) / int64(block) * int64(block)
		at := first + pacedPullFrames - (run.pulls[k]-call)*rate/int64(time.Second)
		starts = append(starts, max(at, first))
	}
	slices.Sort(starts)
	var ends []int64 // last blocks of the voices admitted, in start order
	forced := 0
	for _, at := range starts {
		sb := at / int64(block)
		alive := 0
		for _, eb := range ends[max(len(ends)-4*maxVoices, 0):] {
			if eb >= sb {
				alive++
			}
		}
		if alive >= maxVoices {
			forced++
			continue
		}
		ends = append(ends, (at+pacedClipFrames-1)/int64(block))
	}
	return forced
}

// lateness reports how far past its schedule, at most, the sink began a
// pull (one every pacedPullEvery from the first) and the producer called
// a Play (one every pacedPlayEvery).
func (r pacedRun) lateness() (sink, player time.Duration) {
	for k := 1; k < len(r.pulls); k++ {
		due := r.pulls[0] + int64(k)*int64(pacedPullEvery)
		sink = max(sink, time.Duration(r.pulls[k]-due))
	}
	for i, c := range r.calls {
		player = max(player, time.Duration(c-r.calls[0]-int64(i)*int64(pacedPlayEvery)))
	}
	return sink, player
}

// TestPacedOverlap checks the model on made-up timelines: on time, it
// forces nothing; a pull 100 ms late stacks 20 Plays on its first frame
// beside the 20 still sounding, 8 past the cap of 32 (10 once each voice
// holds its place for whole blocks).
func TestPacedOverlap(t *testing.T) {
	timeline := func(lateAt int, late time.Duration) pacedRun {
		var r pacedRun
		for k := range 12 {
			tp := int64(k) * int64(pacedPullEvery)
			if k >= lateAt {
				tp += int64(late)
			}
			r.pulls = append(r.pulls, tp)
		}
		for i := range 800 {
			r.calls = append(r.calls, int64(i)*int64(pacedPlayEvery)+int64(time.Millisecond))
		}
		return r
	}
	if n := pacedOverlap(timeline(99, 0), DefaultBlockFrames, DefaultMaxVoices); n != 0 {
		t.Errorf("on time: %d refusals forced, want 0", n)
	}
	n := pacedOverlap(timeline(4, 100*time.Millisecond), DefaultBlockFrames, DefaultMaxVoices)
	if n < 8 || n > 12 {
		t.Errorf("a pull 100 ms late: %d refusals forced, want 8 to 12", n)
	}
	t.Logf("a pull 100 ms late forces %d refusals", n)
}
