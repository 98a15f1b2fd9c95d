package descriptors

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// Occupancy warning levels, in percent of capacity in use (live plus
// pending: a pending slot is as unavailable as a live one). A level warns
// once when occupancy rises to it and re-arms only when occupancy falls
// Hysteresis points below it, so a heap hovering at a level does not
// flood the log.
const (
	WarnLevel1 = 75
	WarnLevel2 = 90
	Hysteresis = 5
)

var warnLevels = [...]int{WarnLevel1, WarnLevel2}

// occupancy holds the heap's logging state. The warnings and the periodic
// line run inside steady frames (Alloc, the frame start), where an allocation
// guard may be armed, so everything that can be formatted ahead is
// formatted in init and each record is built from plain numbers only.
// The levels are kept as slot counts (warnAt, rearmAt), so Alloc and a
// reclaim pay one comparison, not a multiplication per level.
type occupancy struct {
	base     *slog.Logger // the user's Logger, or slog.Default()
	log      *slog.Logger // base with heap and capacity bound
	interval time.Duration
	now      func() time.Time
	last     time.Time
	armed    [len(warnLevels)]bool
	crossed  [len(warnLevels)]string // warning messages, one per level
	warnings uint64
	lines    uint64
	// warnAt is the in-use count at which the lowest armed level warns
	// (MaxInt when none is armed); rearmAt the count below which the
	// highest disarmed level re-arms (0 when none is disarmed).
	warnAt, rearmAt int
}

// occupancyMsg is the periodic line's message.
const occupancyMsg = "descriptors: occupancy"

func (o *occupancy) init(d HeapDesc) {
	log := d.Logger
	if log == nil {
		log = slog.Default()
	}
	o.base = log
	o.bind(d.Name, d.Capacity)
	o.interval = d.LogInterval
	o.now = d.Now
	if o.now == nil {
		o.now = time.Now
	}
	for i, lvl := range warnLevels {
		o.armed[i] = true
		o.crossed[i] = fmt.Sprintf("descriptors: heap %q crossed %d%% occupancy", d.Name, lvl)
	}
}

// bind gives the handler the heap's name and capacity once, through
// WithAttrs, rather than in every record: that leaves the record's
// per-line numbers within the attributes slog.Record stores inline. Only
// Grow changes the capacity, and it binds again.
func (o *occupancy) bind(name string, capacity int) {
	o.log = o.base.With(slog.String("heap", name), slog.Int("capacity", capacity))
}

// grownMsg is the message of the record Grow logs.
const grownMsg = "descriptors: heap grown"

// grown logs a Grow from old slots to the heap's current capacity, binds
// the new capacity for later records, and re-arms the levels the larger
// heap puts occupancy clearly below. It allocates; Grow is not a steady
// frame call.
func (o *occupancy) grown(h *Heap, old int) {
	st := h.pool.Stats()
	o.base.LogAttrs(context.Background(), slog.LevelInfo, grownMsg,
		slog.String("heap", h.name),
		slog.Int("old_capacity", old),
		slog.Int("capacity", st.Capacity),
		slog.Int("live", st.InUse),
		slog.Int("pending", st.Pending),
		slog.Int("peak", st.PeakInUse),
		slog.Int("high_water", st.HighWater),
	)
	o.bind(h.name, st.Capacity)
	o.rearm(h) // which recomputes the levels for the new capacity
}

// atLeast returns the smallest in-use count that is pct percent of
// capacity or more, in integers so that 768 of 1024 is exactly 75%.
func atLeast(pct, capacity int) int { return (pct*capacity + 99) / 100 }

// levels recomputes warnAt and rearmAt from the armed levels and the
// capacity.
func (o *occupancy) levels(h *Heap) {
	c := h.pool.Cap()
	o.warnAt, o.rearmAt = math.MaxInt, 0
	for i, lvl := range warnLevels {
		if o.armed[i] {
			o.warnAt = min(o.warnAt, atLeast(lvl, c))
		} else {
			o.rearmAt = max(o.rearmAt, atLeast(lvl-Hysteresis, c))
		}
	}
}

// cross warns for each armed level that occupancy has reached. The heap
// calls it when its in-use count reaches warnAt.
func (o *occupancy) cross(h *Heap) {
	n, c := h.inUse(), h.pool.Cap()
	for i, lvl := range warnLevels {
		if o.armed[i] && n >= atLeast(lvl, c) {
			o.armed[i] = false
			o.warnings++
			o.emit(h, slog.LevelWarn, o.crossed[i])
		}
	}
	o.levels(h)
}

// rearm re-arms each level occupancy has dropped clearly below. The heap
// calls it when its in-use count falls below rearmAt, and Grow.
func (o *occupancy) rearm(h *Heap) {
	n, c := h.inUse(), h.pool.Cap()
	for i, lvl := range warnLevels {
		if !o.armed[i] && n < atLeast(lvl-Hysteresis, c) {
			o.armed[i] = true
		}
	}
	o.levels(h)
}

// tick logs the periodic occupancy line when it is due.
func (o *occupancy) tick(h *Heap) {
	if o.interval == 0 {
		return
	}
	now := o.now()
	if !o.last.IsZero() && now.Sub(o.last) < o.interval {
		return
	}
	o.last = now
	o.lines++
	o.emit(h, slog.LevelInfo, occupancyMsg)
}

// emit hands one occupancy record to the Logger without allocating on
// this side of the handler: the level is checked first, so a level the
// Logger drops costs one Enabled call; the message was built in init; the
// values are numbers, which slog.Value holds without boxing; and there
// are exactly five of them, the most a slog.Record stores inline (a sixth
// would be appended to a heap-allocated slice on every record). Live plus
// pending is in_use; Stats has the cumulative counters.
func (o *occupancy) emit(h *Heap, level slog.Level, msg string) {
	ctx := context.Background()
	if !o.log.Enabled(ctx, level) {
		return
	}
	st := h.pool.Stats()
	o.log.LogAttrs(ctx, level, msg,
		slog.Float64("pct", tenths(st.InUse+st.Pending, st.Capacity)),
		slog.Int("live", st.InUse),
		slog.Int("pending", st.Pending),
		slog.Int("peak", st.PeakInUse),
		slog.Int("high_water", st.HighWater),
	)
}

// tenths returns part as a percentage of whole rounded to one decimal,
// computed in integers so that the float prints as exactly that decimal
// (23.3, not 23.33984375).
func tenths(part, whole int) float64 {
	if whole <= 0 {
		return 0
	}
	return float64((part*2000/whole+1)/2) / 10
}

// Stats is a snapshot of a heap's occupancy and counters: a plain value,
// safe to hand to any goroutine once Heap.Stats (on the render goroutine)
// has returned it.
type Stats struct {
	Name      string
	Capacity  int
	Live      int // slots with valid handles
	Pending   int // freed slots waiting for their frames to complete
	Peak      int // most slots live at once
	HighWater int // slots ever used; never-used slots lie above it
	Free      int // slots Alloc can hand out now: Capacity - Live - Pending - Retired
	// Retired counts the slots retired for good because their generation
	// was spent (after 2^31-1 uses each): a stale handle to them can never
	// become valid again, and they no longer count as capacity.
	Retired int

	Allocs    uint64 // slots handed out
	Recycled  uint64 // of which were reused slots, not never-used ones
	Frees     uint64 // handles freed: Reclaimed + Pending
	Reclaimed uint64 // freed slots returned to the free list after their frames
	Refused   uint64 // Alloc/AllocN calls refused with ErrHeapExhausted
	// Warnings counts upward crossings of WarnLevel1 and WarnLevel2, and
	// LogLines the periodic lines that fell due, whether or not the
	// Logger's level let the record through.
	Warnings  uint64
	LogLines  uint64
	Frame     uint64 // the clock's newest frame (Clock.Last), which Free schedules against
	FreeStack int    // reclaimed slots waiting on the free list, reused before never-used ones
}

// Stats returns the heap's counters. It does not allocate.
func (h *Heap) Stats() Stats {
	st := h.pool.Stats()
	// Every slot handed out is live, pending or reclaimed; every Alloc
	// either reuses a slot or takes the lowest never-used one, which
	// raises the high-water mark by one.
	allocs, live := st.TotalCreated, uint64(st.InUse)
	return Stats{
		Name: h.name, Capacity: st.Capacity, Live: st.InUse, Pending: st.Pending, Peak: st.PeakInUse,
		HighWater: st.HighWater, Free: h.pool.Available(), Retired: st.Retired,
		Allocs: allocs, Recycled: allocs - uint64(st.HighWater), Frees: allocs - live,
		Reclaimed: allocs - live - uint64(st.Pending), Refused: h.refused,
		Warnings: h.occupancy.warnings, LogLines: h.occupancy.lines, Frame: h.clock.Last(),
		FreeStack: h.pool.Available() - (st.Capacity - st.HighWater),
	}
}

// InUse returns the slots that Alloc cannot hand out: live plus pending.
func (s Stats) InUse() int { return s.Live + s.Pending }

// Percent returns InUse as a percentage of Capacity.
func (s Stats) Percent() float64 {
	if s.Capacity == 0 {
		return 0
	}
	return 100 * float64(s.InUse()) / float64(s.Capacity)
}

// String formats the stats as one fixed-width line for a person to read
// (a test failure, an end-of-run summary, a console refreshed once a
// second):
//
//	textures  239/1024 ( 23.3%) [#####...............] live 239 pending   0 peak 275 high-water 275 recycled 43
//
// String allocates the string it returns, so keep it off the hot path;
// inside guarded frames use Append with a buffer kept across frames.
func (s Stats) String() string {
	var buf [160]byte
	return string(s.Append(buf[:0]))
}

// barWidth is the number of cells in the occupancy bar of String.
const barWidth = 20

// Append appends the line String returns to b and returns the extended
// slice. It allocates only when b lacks room (about 110 bytes plus the
// name), so a caller that keeps b, reset to b[:0], across frames can draw
// the line every frame without allocating.
func (s Stats) Append(b []byte) []byte {
	w := len(strconv.AppendInt(make([]byte, 0, 20), int64(s.Capacity), 10))
	b = append(b, s.Name...)
	b = appendSpaces(b, 9-utf8.RuneCountInString(s.Name))
	b = append(b, ' ')
	b = appendInt(b, s.InUse(), w)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(s.Capacity), 10)
	b = append(b, " ("...)
	var num [24]byte
	pct := strconv.AppendFloat(num[:0], s.Percent(), 'f', 1, 64)
	b = appendSpaces(b, 5-len(pct))
	b = append(b, pct...)
	b = append(b, "%) ["...)
	filled := min(max(s.InUse()*barWidth/max(s.Capacity, 1), 0), barWidth)
	for i := 0; i < barWidth; i++ {
		c := byte('.')
		if i < filled {
			c = '#'
		}
		b = append(b, c)
	}
	b = append(b, "] live "...)
	b = appendInt(b, s.Live, w)
	b = append(b, " pending "...)
	b = appendInt(b, s.Pending, w)
	b = append(b, " peak "...)
	b = appendInt(b, s.Peak, w)
	b = append(b, " high-water "...)
	b = appendInt(b, s.HighWater, w)
	b = append(b, " recycled "...)
	return strconv.AppendUint(b, s.Recycled, 10)
}

// appendInt appends v right-aligned in width columns, as %*d does.
func appendInt(b []byte, v, width int) []byte {
	var num [24]byte
	d := strconv.AppendInt(num[:0], int64(v), 10)
	b = appendSpaces(b, width-len(d))
	return append(b, d...)
}

func appendSpaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}
