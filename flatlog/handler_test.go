package flatlog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/slogtest"
	"time"

	"github.com/steadyframe/steadyframe/flatlog"
	"github.com/steadyframe/steadyframe/internal/testenv"
)

func TestSlogtestJSON(t *testing.T) {
	var buf bytes.Buffer
	slogtest.Run(t, func(*testing.T) slog.Handler {
		buf.Reset()
		return flatlog.New(&buf, flatlog.FormatJSON, nil)
	}, func(t *testing.T) map[string]any {
		var m map[string]any
		if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
			t.Fatalf("%v in %q", err, buf.String())
		}
		return m
	})
}

func TestSlogtestText(t *testing.T) {
	var buf bytes.Buffer
	slogtest.Run(t, func(*testing.T) slog.Handler {
		buf.Reset()
		return flatlog.New(&buf, flatlog.FormatText, nil)
	}, func(t *testing.T) map[string]any {
		return parseText(t, buf.String())
	})
}

// parseText reads one text line into nested maps: "G.H.k=v" becomes
// {"G": {"H": {"k": "v"}}}, quoted values are unquoted.
func parseText(t *testing.T, line string) map[string]any {
	t.Helper()
	line = strings.TrimSuffix(line, "\n")
	if strings.Contains(line, "\n") {
		t.Fatalf("more than one line: %q", line)
	}
	m := map[string]any{}
	for len(line) > 0 {
		eq := strings.IndexByte(line, '=')
		if eq < 0 {
			t.Fatalf("no '=' in %q", line)
		}
		key := line[:eq]
		line = line[eq+1:]
		var val string
		if strings.HasPrefix(line, `"`) {
			q, err := strconv.QuotedPrefix(line)
			if err != nil {
				t.Fatalf("bad quoted value in %q: %v", line, err)
			}
			val, _ = strconv.Unquote(q)
			line = line[len(q):]
		} else {
			end := strings.IndexByte(line, ' ')
			if end < 0 {
				end = len(line)
			}
			val, line = line[:end], line[end:]
		}
		line = strings.TrimPrefix(line, " ")
		parts := strings.Split(key, ".")
		cur := m
		for _, g := range parts[:len(parts)-1] {
			sub, ok := cur[g].(map[string]any)
			if !ok {
				sub = map[string]any{}
				cur[g] = sub
			}
			cur = sub
		}
		cur[parts[len(parts)-1]] = val
	}
	return m
}

// TestMatchesStandardHandlers writes the same records through flatlog
// and through slog's own handlers and expects the same bytes: users
// switching handlers see no difference in their logs.
func TestMatchesStandardHandlers(t *testing.T) {
	when := time.Date(2026, 11, 30, 7, 4, 56, 290123456, time.UTC)
	type rec struct {
		level slog.Level
		msg   string
		attrs []slog.Attr
	}
	recs := []rec{
		{slog.LevelInfo, "descriptor occupancy (capacity 1024)", []slog.Attr{
			slog.Int("live", 239), slog.Int("pending", 0), slog.Float64("pct", 23.3), slog.Uint64("peak", 239)}},
		{slog.LevelWarn, "quoted value needs=quotes", []slog.Attr{slog.String("s", "a b"), slog.String("e", ""),
			slog.String("u", "héllo"), slog.String("ctl", "x\ty\n"), slog.Bool("b", true)}},
		{slog.LevelError, "durations", []slog.Attr{slog.Duration("d0", 0), slog.Duration("ns", 7),
			slog.Duration("us", 1500*time.Nanosecond), slog.Duration("ms", 12345*time.Microsecond),
			slog.Duration("h", 90*time.Minute+3*time.Second+5*time.Millisecond), slog.Duration("neg", -time.Second)}},
		{slog.LevelDebug + 2, "groups", []slog.Attr{slog.Group("g", slog.Int("a", 1), slog.Group("h", slog.String("b", "c"))),
			slog.Group("empty"), slog.Group("", slog.Int("inl", 2)), slog.Time("at", when), slog.Float64("f", 1e21)}},
		{slog.LevelInfo, "floats", []slog.Attr{slog.Float64("big", 1e20), slog.Float64("n", 123456789), slog.Float64("u", 1e-6),
			slog.Float64("small", -1e-7), slog.Float64("tiny", 2.5e-300), slog.Float64("z", 0), slog.Float64("huge", -1.5e300)}},
		{slog.LevelInfo, "any", []slog.Attr{slog.Any("err", errors.New("boom")), slog.Any("lvl", slog.LevelWarn)}},
		{slog.LevelInfo, "any values", []slog.Attr{slog.Any("pt", point{1, 2}), slog.Any("ptr", &point{3, 4}),
			slog.Any("bytes", []byte("a b")), slog.Any("je", jsonError{}), slog.Any("html", map[string]string{"k": "<a&b>"}),
			slog.Any("nil", nil), slog.Any("ints", []int{1, 2})}},
		{slog.LevelError + 9, "levels", []slog.Attr{slog.Any("d", slog.LevelDebug-3), slog.Any("i", slog.LevelInfo+1),
			slog.Any("w", slog.LevelWarn+3), slog.Any("e", slog.LevelError)}},
		{slog.LevelInfo, "bytes \xff, U+2028 \u2028", []slog.Attr{slog.String("bad\xfe", "a\xffb"), slog.String("ls", "a\u2028b\u2029"),
			slog.String("del", "a\x7fb"), slog.String("bs", `a\b`), slog.Any("src", &slog.Source{Function: "f\xff", File: "a\u2028.go", Line: 3}),
			slog.Group("é", slog.Int("x", 1), slog.Int("", 2)), slog.Group("a b", slog.Int("y", 3))}},
	}
	for _, f := range []flatlog.Format{flatlog.FormatText, flatlog.FormatJSON} {
		opts := &slog.HandlerOptions{Level: slog.LevelDebug}
		var got, want bytes.Buffer
		var std slog.Handler = slog.NewTextHandler(&want, opts)
		if f == flatlog.FormatJSON {
			std = slog.NewJSONHandler(&want, opts)
		}
		ours := slog.Handler(flatlog.New(&got, f, opts))
		ours = ours.WithAttrs([]slog.Attr{slog.String("run", "7")}).WithGroup("G").WithAttrs([]slog.Attr{slog.Int("w", 3)})
		std = std.WithAttrs([]slog.Attr{slog.String("run", "7")}).WithGroup("G").WithAttrs([]slog.Attr{slog.Int("w", 3)})
		for _, r := range recs {
			sr := slog.NewRecord(when, r.level, r.msg, 0)
			sr.AddAttrs(r.attrs...)
			if err := ours.Handle(context.Background(), sr); err != nil {
				t.Fatal(err)
			}
			if err := std.Handle(context.Background(), sr); err != nil {
				t.Fatal(err)
			}
		}
		if got.String() != want.String() {
			t.Errorf("format %d differs from the standard handler:\nflatlog:\n%s\nslog:\n%s", f, got.String(), want.String())
		}
	}
}

// point is a struct value: slog.TextHandler writes its field names (%+v).
type point struct{ X, Y int }

// jsonError is an error that marshals itself: slog.JSONHandler writes its
// JSON, not its message.
type jsonError struct{}

func (jsonError) Error() string                { return "json error" }
func (jsonError) MarshalJSON() ([]byte, error) { return []byte(`{"code":7}`), nil }

// FuzzDuration checks the allocation-free duration formatting against
// time.Duration.String for any value.
func FuzzDuration(f *testing.F) {
	for _, d := range []int64{0, 1, -1, 999, 1000, 1500, 999999, 1e6, 1e9, 61e9, 3600e9 + 1, math.MaxInt64, math.MinInt64} {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, n int64) {
		var got, want bytes.Buffer
		slog.New(flatlog.New(&got, flatlog.FormatText, nil)).Info("m", "d", time.Duration(n))
		want.WriteString("d=" + time.Duration(n).String())
		if !strings.Contains(got.String(), want.String()+"\n") {
			t.Fatalf("%d: got %q, want %q", n, got.String(), want.String())
		}
	})
}

func TestOptions(t *testing.T) {
	var buf bytes.Buffer
	h := flatlog.New(&buf, flatlog.FormatText, &slog.HandlerOptions{
		Level: slog.LevelWarn,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			switch {
			case a.Key == slog.TimeKey && len(groups) == 0:
				return slog.Attr{}
			case a.Key == "secret":
				return slog.String("secret", "***")
			case a.Key == "x" && len(groups) == 2 && groups[0] == "G" && groups[1] == "in":
				return slog.Int("x", 99)
			}
			return a
		},
		AddSource: true,
	})
	l := slog.New(h)
	l.Info("dropped")
	if buf.Len() != 0 {
		t.Fatalf("Info below Level Warn was written: %q", buf.String())
	}
	l.WithGroup("G").Warn("kept", "secret", "hunter2", slog.Group("in", slog.Int("x", 1)))
	out := buf.String()
	for _, want := range []string{"level=WARN", "msg=kept", "G.secret=***", "G.in.x=99", "source=", "handler_test.go:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output %q lacks %q", out, want)
		}
	}
	if strings.Contains(out, "time=") {
		t.Errorf("ReplaceAttr removed time, but output has it: %q", out)
	}
}

// TestConcurrentRecordsStayWhole: records from many goroutines through
// derived handlers are written one whole line each (run with -race).
func TestConcurrentRecordsStayWhole(t *testing.T) {
	var buf testenv.Buffer
	base := flatlog.New(&buf, flatlog.FormatJSON, nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := slog.New(base).With("g", g).WithGroup("w")
			for i := range 200 {
				l.Info("tick", "i", i)
			}
		}()
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 1600 {
		t.Fatalf("%d lines, want 1600", len(lines))
	}
	for _, line := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("torn line %q: %v", line, err)
		}
	}
}

// TestSteadyRecordsAllocateNothing is the package's reason to exist: the
// occupancy line, logged inside guarded frames, allocates nothing in
// either format, also right after a garbage collection (which empties
// the standard handlers' buffer pool).
func TestSteadyRecordsAllocateNothing(t *testing.T) {
	for _, f := range []flatlog.Format{flatlog.FormatText, flatlog.FormatJSON} {
		l := slog.New(flatlog.New(io.Discard, f, nil)).With("heap", "textures", "capacity", 1024).WithGroup("occupancy")
		// A group value holds its attributes in a slice: build it once,
		// as a steady caller would (slog.Group's variadic any allocates).
		group := slog.Attr{Key: "g", Value: slog.GroupValue(slog.Bool("warm", true), slog.String("note", "steady state"))}
		line := func() {
			l.LogAttrs(context.Background(), slog.LevelInfo, "descriptor occupancy",
				// Five attributes: what a slog.Record holds without
				// allocating a slice of its own.
				slog.Int("live", 239), slog.Float64("pct", 23.3), slog.Duration("every", time.Second),
				slog.Time("at", time.Unix(1e9, 0)),
				group)
		}
		testenv.NoAllocs(t, "an occupancy record", 1000, line)
		testenv.NoAllocs(t, "an occupancy record after a GC", 20, func() {
			runtime.GC()
			line()
		})
		// slog.Level.String builds "WARN+2" in a new string.
		testenv.NoAllocs(t, "a record at a level between the named ones", 1000, func() {
			l.LogAttrs(context.Background(), slog.LevelWarn+2, "nearly an error", slog.Any("was", slog.LevelInfo+1))
		})
	}
}

// BenchmarkHandler compares one occupancy record through flatlog and
// through slog's standard handlers.
func BenchmarkHandler(b *testing.B) {
	handlers := []struct {
		name string
		h    slog.Handler
	}{
		{"impl=flatlog/format=text", flatlog.New(io.Discard, flatlog.FormatText, nil)},
		{"impl=slog/format=text", slog.NewTextHandler(io.Discard, nil)},
		{"impl=flatlog/format=json", flatlog.New(io.Discard, flatlog.FormatJSON, nil)},
		{"impl=slog/format=json", slog.NewJSONHandler(io.Discard, nil)},
	}
	for _, hh := range handlers {
		b.Run(hh.name, func(b *testing.B) {
			l := slog.New(hh.h).With("heap", "textures")
			b.ReportAllocs()
			for b.Loop() {
				l.LogAttrs(context.Background(), slog.LevelInfo, "descriptor occupancy",
					slog.Int("live", 239), slog.Int("pending", 3), slog.Int("peak", 239),
					slog.Int("high_water", 477), slog.Float64("pct", 23.3))
			}
		})
	}
}
